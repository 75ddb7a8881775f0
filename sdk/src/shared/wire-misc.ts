/**
 * Wire answers that wire.ts does not hold: the health check, notification preferences, provider
 * access tokens, code checks, the project JWKS and the admin's email log. Zod schemas for the
 * worker's declarations; the SDK uses the inferred types.
 */
import { z } from "zod";

const millis = z.number().int();

/** GET /health: the database answered, and how fast. */
export const healthSchema = z.object({ status: z.literal("ok"), database_ms: z.number() });

/** A user's choice for one notification category. */
export const notificationPreferenceSchema = z.object({
  notification_category_id: z.string(),
  notification_category_name: z.string(),
  enabled: z.boolean(),
  can_disable: z.boolean(),
});

/** POST /connected-accounts/…/access-token: a provider access token for the connected account. */
export const providerAccessTokenSchema = z.object({ access_token: z.string() });

/** A verification code that is still valid (an invalid one is a known error). */
export const codeCheckSchema = z.object({ is_code_valid: z.literal(true) });

/** A project's public signing keys (ES256), as a JSON Web Key Set. */
export const jwksSchema = z.object({
  keys: z.array(
    z.looseObject({ kty: z.string(), crv: z.string(), x: z.string(), y: z.string(), alg: z.string(), kid: z.string(), use: z.string() }),
  ),
});

/** One email of the project's log (/internal/emails), newest first. */
export const emailLogEntrySchema = z.object({
  id: z.string(),
  subject: z.string(),
  to: z.array(z.string()),
  status: z.string(),
  error: z.string().nullable(),
  sent_at_millis: millis,
});

/** One email with its bodies (/internal/emails/{emailId}). */
export const emailSchema = emailLogEntrySchema.extend({ html: z.string(), text: z.string() });

/** POST /internal/send-test-email: whether the SMTP server took the email. */
export const testEmailResultSchema = z.union([
  z.object({ success: z.literal(true) }),
  z.object({ success: z.literal(false), error_message: z.string().nullable() }),
]);

export type HealthJson = z.infer<typeof healthSchema>;
export type NotificationPreferenceJson = z.infer<typeof notificationPreferenceSchema>;
export type ProviderAccessTokenJson = z.infer<typeof providerAccessTokenSchema>;
export type CodeCheckJson = z.infer<typeof codeCheckSchema>;
export type JwksJson = z.infer<typeof jwksSchema>;
export type EmailLogEntryJson = z.infer<typeof emailLogEntrySchema>;
export type EmailJson = z.infer<typeof emailSchema>;
export type TestEmailResultJson = z.infer<typeof testEmailResultSchema>;
