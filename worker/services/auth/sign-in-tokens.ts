/**
 * What every sign-in (password, OTP, OAuth, passkey, MFA) ends with: a new session's tokens, or
 * a second factor to ask for. Its own module so mfa.ts and password.ts need not import each other.
 */
import type { Problem } from "../result";

export type SignInTokens = { ok: true; accessToken: string; refreshToken: string; userId: string; isNewUser: boolean };

export type MfaRequired = Problem<"mfa_required">;
