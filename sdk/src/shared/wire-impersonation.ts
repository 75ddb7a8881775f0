/**
 * Impersonation links on the wire (issue 28): an owner asks for a one-time code that opens the
 * project's app signed in as a user (POST /internal/impersonation-links), and the app's handler
 * page redeems it into an impersonation session (POST /auth/impersonation/redeem).
 */
import { z } from "zod";

/** The handler page of the app that redeems the code (`{domain}{handler_path}/impersonate#code=…`). */
export const IMPERSONATION_HANDLER_PAGE = "impersonate";

export const impersonationLinkBodySchema = z.strictObject({ user_id: z.string().min(1).max(64) });

export const impersonationLinkSchema = z.object({
  /** The one-time code (45 characters): good for one redemption, within minutes. */
  code: z.string(),
  expires_at_millis: z.number(),
  /** The app's page that redeems it, on the project's first trusted domain; null when the project has none. */
  url: z.string().nullable(),
});

export const impersonationRedeemBodySchema = z.strictObject({ code: z.string().length(45) });

export const impersonationSessionSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  user_id: z.string(),
  /** The impersonation session's id (it is marked is_impersonation). */
  session_id: z.string(),
});

export type ImpersonationLinkJson = z.infer<typeof impersonationLinkSchema>;
export type ImpersonationSessionJson = z.infer<typeof impersonationSessionSchema>;
