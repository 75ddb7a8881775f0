/**
 * What every sign-in (password, OTP, OAuth, passkey, MFA) ends with: a new session's tokens, or
 * a second factor to ask for. Its own module so mfa.ts and password.ts need not import each other.
 */
import type { Problem } from "../result";

export type SignInTokens = {
  ok: true;
  accessToken: string;
  refreshToken: string;
  userId: string;
  isNewUser: boolean;
  /** The device token the client keeps from now on (new-device verification; absent when none was recorded). */
  deviceToken?: string;
};

/** A second step to ask for: a second factor, or (issue 29, password sign-ins only) the code mailed for a new device. */
export type MfaRequired = Problem<"mfa_required" | "device_verification_required">;
