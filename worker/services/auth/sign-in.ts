/**
 * The end of every first-factor sign-in (password, OTP, passkey, OAuth): a session, or, when a
 * second factor is due, MULTI_FACTOR_AUTHENTICATION_REQUIRED with a 5-minute attempt code
 * (redeemed by the TOTP sign-in or enrolment in mfa.ts). The rules of when a second factor is due
 * (a TOTP user, a project that requires one, a passkey counting as one) are here, in one place.
 * Every sign-in is assessed for risk (services/protection/risk.ts); a password sign-in from an unknown
 * device may wait for an emailed code instead (DEVICE_VERIFICATION_REQUIRED, protection/device-verification.ts),
 * and a session records its device.
 */
import type { KnownDeviceRow } from "../../db/queries/known-devices";
import { hasUsablePasskey } from "../../db/queries/passkeys";
import type { ProjectRow } from "../../db/queries/projects";
import type { UserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import type { SignInMethod } from "../events";
import { readProjectConfig } from "../project-config/flat";
import { askForDeviceCode, deviceOfSignIn, needsDeviceVerification } from "../protection/device-verification";
import { assessSignIn } from "../protection/risk";
import { fail, type Problem } from "../result";
import type { SsoSignInOrigin } from "../sso/session-origin";
import { issueCode } from "../verification-codes";
import { MFA_ATTEMPT_TTL_MS } from "./mfa";
import { createSessionForUser, type IpInfo } from "./sessions";
import type { SignInTokens } from "./sign-in-tokens";

export type FirstFactorResult =
  | { ok: true; tokens: SignInTokens; sessionId: string }
  | Problem<"mfa_required" | "device_verification_required">;

/**
 * The last step of every first-factor sign-in: a session, or (for TOTP users) an attempt code.
 */
export async function finishFirstFactor(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord,
  options: {
    isNewUser: boolean;
    ipInfo: IpInfo;
    method: SignInMethod;
    provider?: string;
    /** A passkey assertion with user verification (the device checked a PIN or biometric): possession and a second factor in one. */
    passkeyVerified?: boolean;
    /** The address a password sign-in was typed with (its recent failures are a risk signal). */
    email?: string;
    /** An enterprise SSO sign-in's connection (method "sso"): travels with an MFA attempt to the session. */
    sso?: SsoSignInOrigin;
    /** The user's recent devices, when the caller read them with the user (a password sign-in's one batch). */
    devices?: KnownDeviceRow[];
  },
): Promise<FirstFactorResult> {
  // Risk first: its score travels with the sign-in (events, an MFA attempt) and may demand a device code.
  const assessment = await assessSignIn(deps, project, { userId: user.user.id, email: options.email, devices: options.devices });
  const risk = { score: assessment.score, signals: assessment.signals };
  const signIn = {
    method: options.method,
    ...(options.provider ? { provider: options.provider } : {}),
    // The session's amr (session-amr.ts): a user-verified passkey is two factors.
    ...(options.method === "passkey" && options.passkeyVerified ? { user_verified: true } : {}),
    ...(options.sso ? { sso: options.sso } : {}),
    risk,
  };
  if (user.user.totpSecret) {
    // The first factor's method travels with the attempt, so the session's sign-in event names it.
    const attempt = await issueCode(
      deps,
      project.id,
      "mfa_attempt",
      { user_id: user.user.id, is_new_user: options.isNewUser, sign_in: signIn },
      MFA_ATTEMPT_TTL_MS,
    );
    return fail("mfa_required", { attemptCode: attempt.code });
  }
  // A user-verified passkey sign-in is itself two factors (the device and its PIN or biometric): it satisfies the requirement.
  if (readProjectConfig(project.config).require_mfa && !(options.method === "passkey" && options.passkeyVerified)) {
    // A passkey holder already has a second factor: another first factor gets no session and no TOTP enrolment
    // (enrolling would let whoever holds the password skip the passkey); the sign-in must be done with the passkey.
    // (A passkey sign-in without user verification is possession alone: it may still enrol TOTP below, never loop here.)
    if (options.method !== "passkey" && (await hasUsablePasskey(deps.db, project.id, user.user.id))) {
      const attempt = await issueCode(
        deps,
        project.id,
        "mfa_attempt",
        { user_id: user.user.id, is_new_user: options.isNewUser, sign_in: signIn, passkey: true },
        MFA_ATTEMPT_TTL_MS,
      );
      return fail("mfa_required", { attemptCode: attempt.code, passkeyRequired: true });
    }
    // Why: with a required second factor, a first factor alone never yields a session; the attempt only lets the user enrol TOTP.
    const attempt = await issueCode(
      deps,
      project.id,
      "mfa_attempt",
      { user_id: user.user.id, is_new_user: options.isNewUser, sign_in: signIn, enroll: true },
      MFA_ATTEMPT_TTL_MS,
    );
    return fail("mfa_required", { attemptCode: attempt.code, enrollmentRequired: true });
  }
  if (await needsDeviceVerification(deps, project, user, { method: options.method, isNewUser: options.isNewUser, assessment }))
    return askForDeviceCode(deps, project, user, {
      signIn,
      isNewUser: options.isNewUser,
      email: options.email,
      uaFamily: assessment.uaFamily,
    });
  // A sign-up registers its device too: signing in again from the same browser asks nothing.
  const device = await deviceOfSignIn(deps, project.id, user.user.id, { method: options.method, announce: false, assessment });
  const session = await createSessionForUser(deps, project, user.user.id, {
    ipInfo: options.ipInfo,
    origin: { signIn },
    alongside: device.statements,
    // Every caller read the user just before this: not read again for the access token.
    record: user,
  });
  if (!session.ok) throw new Error("user vanished during sign-in");
  return {
    ok: true,
    sessionId: session.sessionId,
    tokens: {
      ok: true,
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      userId: user.user.id,
      isNewUser: options.isNewUser,
      ...(device.deviceToken ? { deviceToken: device.deviceToken } : {}),
    },
  };
}
