/** A user's recent security activity on the wire (GET /users/{user_id}/activity, a Doorman extension). */
import { z } from "zod";
import { USER_ACTIVITY_TYPES } from "./activity-types";

export const activityItemSchema = z.object({
  id: z.string(),
  type: z.enum(USER_ACTIVITY_TYPES),
  created_at_millis: z.number(),
  /** The address the request came from (the user's own, or for a failed sign-in whoever tried). */
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** ISO 3166-1 alpha-2, from the edge's geolocation when known. */
  country_code: z.string().nullable(),
  /** The event's details (method, provider, session id…); never a secret. */
  data: z.record(z.string(), z.unknown()).nullable(),
});

export const activityListSchema = z.object({
  items: z.array(activityItemSchema),
  is_paginated: z.literal(true),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});

export type ActivityItemJson = z.infer<typeof activityItemSchema>;
export type ActivityListJson = z.infer<typeof activityListSchema>;
