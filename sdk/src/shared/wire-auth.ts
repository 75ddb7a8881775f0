/**
 * The wire's JSON answers of the /auth/* routes (wire-protocol.md §5) that wire.ts does not
 * hold: sign-in tokens with is_new_user, the OAuth token endpoint, passkey and CLI login
 * steps. Zod schemas for the worker's declarations; the SDK uses the inferred types.
 */
import { z } from "zod";

/** A completed sign-in (OTP, MFA, passkey): the tokens, the user and whether it was just created. */
export const signInTokensSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  is_new_user: z.boolean(),
  user_id: z.string(),
  /** Doorman (issue 29): the device token to send (x-doorman-device-token) on later sign-ins. */
  device_token: z.string().optional(),
});

/** A refreshed session: a new access token, and a rotated refresh token where the session rotates. */
export const refreshedTokensSchema = z.object({ access_token: z.string(), refresh_token: z.string().optional() });

/** POST /auth/oauth/token: OAuth 2 fields plus the reference's camelCase duplicates. */
export const oauthTokenSchema = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int(),
  scope: z.literal("legacy"),
  refresh_token: z.string(),
  is_new_user: z.boolean(),
  newUser: z.boolean(),
  after_callback_redirect_url: z.string().nullable(),
  afterCallbackRedirectUrl: z.string().nullable(),
});

/** GET /auth/oauth/authorize with stack_response_mode=json: where to send the browser. */
export const oauthLocationSchema = z.object({ location: z.string() });

export const codeValidSchema = z.object({ is_code_valid: z.literal(true) });

/** The same answer whether or not the email has an account. */
export const resetCodeSentSchema = z.object({ success: z.literal("maybe, only if user with e-mail exists") });

export const signInCodeSentSchema = z.object({ nonce: z.string() });

/** A WebAuthn ceremony started: the options for the browser and the code that finishes it. */
export const passkeyOptionsSchema = z.object({ options_json: z.record(z.string(), z.unknown()), code: z.string() });
export const passkeyRegisteredSchema = z.object({ user_handle: z.string() });

export const cliLoginStartedSchema = z.object({ polling_code: z.string(), login_code: z.string(), expires_at: z.string() });
export const cliPollPendingSchema = z.object({ status: z.enum(["waiting", "expired", "used"]) });
export const cliPollSuccessSchema = z.object({ status: z.literal("success"), refresh_token: z.string() });
export const cliSessionStateSchema = z.object({ cli_session_state: z.enum(["anonymous", "none"]) });

export type SignInTokensJson = z.infer<typeof signInTokensSchema>;
export type RefreshedTokensJson = z.infer<typeof refreshedTokensSchema>;
export type OAuthTokenJson = z.infer<typeof oauthTokenSchema>;
export type OAuthLocationJson = z.infer<typeof oauthLocationSchema>;
export type CodeValidJson = z.infer<typeof codeValidSchema>;
export type ResetCodeSentJson = z.infer<typeof resetCodeSentSchema>;
export type SignInCodeSentJson = z.infer<typeof signInCodeSentSchema>;
export type PasskeyOptionsJson = z.infer<typeof passkeyOptionsSchema>;
export type PasskeyRegisteredJson = z.infer<typeof passkeyRegisteredSchema>;
export type CliLoginStartedJson = z.infer<typeof cliLoginStartedSchema>;
export type CliPollPendingJson = z.infer<typeof cliPollPendingSchema>;
export type CliPollSuccessJson = z.infer<typeof cliPollSuccessSchema>;
export type CliSessionStateJson = z.infer<typeof cliSessionStateSchema>;
