/**
 * The wire's user and team API keys (wire-protocol.md §2): /user-api-keys and /team-api-keys.
 * Zod schemas for the worker's declarations; the SDK uses the inferred types. (Project key sets,
 * /internal/api-keys, are `keySetSchema` in wire.ts.)
 */
import { z } from "zod";

const millis = z.number().int();

/** The full key in the create answer (the one time it exists in clear); only its last four afterwards. */
const apiKeyValueSchema = z.union([z.string(), z.object({ last_four: z.string() })]);

const apiKeyBase = {
  id: z.string(),
  description: z.string(),
  is_public: z.boolean(),
  created_at_millis: millis,
  expires_at_millis: millis.optional(),
  manually_revoked_at_millis: millis.optional(),
  value: apiKeyValueSchema,
};

/** A user's API key. */
export const userApiKeySchema = z.object({ ...apiKeyBase, type: z.literal("user"), user_id: z.string().nullable() });

/** A team's API key. */
export const teamApiKeySchema = z.object({ ...apiKeyBase, type: z.literal("team"), team_id: z.string().nullable() });

export type UserApiKeyJson = z.infer<typeof userApiKeySchema>;
export type TeamApiKeyJson = z.infer<typeof teamApiKeySchema>;
