/**
 * The dev inbox's wire shapes (development only, a Doorman extension): the real messages of the
 * emails a project sent to the dev outbox, with the codes and links to finish a flow locally.
 * GET /internal/dev-inbox and /internal/dev-inbox/{email_id} (admin: the project's),
 * GET /emails/dev-inbox (the signed-in user's own). A production worker answers 404.
 */
import { z } from "zod";

/** One message as listed: who, what, when, and the codes and links it carries. */
export const devInboxEntrySchema = z.object({
  id: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  /** Codes to type (an OTP). */
  codes: z.array(z.string()),
  /** Links that carry a secret (verify, sign in, reset the password). */
  links: z.array(z.string()),
  created_at_millis: z.number().int(),
  /** A body was cut (the inbox keeps at most 256 KiB of each). */
  truncated: z.boolean(),
});

/** One message with its bodies. */
export const devInboxMessageSchema = devInboxEntrySchema.extend({ html: z.string(), text: z.string() });

export const devInboxListSchema = z.object({ items: z.array(devInboxEntrySchema), is_paginated: z.literal(false) });

export type DevInboxEntryJson = z.infer<typeof devInboxEntrySchema>;
export type DevInboxMessageJson = z.infer<typeof devInboxMessageSchema>;
export type DevInboxListJson = z.infer<typeof devInboxListSchema>;
