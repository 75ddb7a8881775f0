/** The event log on the wire (GET /internal/events). */
import { z } from "zod";

export const eventSchema = z.object({
  id: z.string(),
  type: z.string(),
  created_at_millis: z.number(),
  actor: z.object({ type: z.enum(["user", "server", "admin", "system"]), id: z.string().nullable() }),
  user_id: z.string().nullable(),
  team_id: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  country_code: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
});

export const eventListSchema = z.object({
  items: z.array(eventSchema),
  is_paginated: z.literal(true),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});

export type EventJson = z.infer<typeof eventSchema>;
export type EventListJson = z.infer<typeof eventListSchema>;
