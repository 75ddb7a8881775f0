/**
 * TOTP second factor (RFC 6238: 30 s steps, 6 digits, ±1 step of clock drift). A user with a
 * TOTP secret never gets a session from a first factor alone: sign-in answers
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED with a 5-minute attempt code, redeemed with a TOTP at
 * /auth/mfa/sign-in (or with a recovery code, services/mfa-recovery.ts). When the project requires
 * a second factor (`doorman.requireMfa`), a user without TOTP gets an enrolment attempt instead,
 * redeemed at /auth/mfa/enroll, unless they hold a passkey: a passkey counts as the second factor,
 * so a passkey sign-in with user verification satisfies the requirement, and another first factor
 * is told to use the passkey (`passkey_required`) instead of enrolling TOTP.
 * The secret is stored encrypted (AES-GCM), since it must be read back. The attempt itself is
 * issued where every first factor ends: finishFirstFactor in sign-in.ts.
 */
import { generateHOTP } from "@oslojs/otp";
import { encryptAtRest, openSealed } from "../../crypto/at-rest";
import { constantTimeEqual } from "../../crypto/hash";
import { acceptTotpStep, setTotpSecretIfUnset } from "../../db/queries/mfa-recovery-codes";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventStatement, type SignInMethod } from "../events";
import { fail, type Problem } from "../result";
import { type CodeProblem, redeemCode, spendCheckedCode } from "../verification-codes";
import { checkRecoveryCode, generateRecoveryCodes, spendUserRecoveryCode } from "./mfa-recovery";
import { createSessionForUser, type IpInfo } from "./sessions";
import type { SignInTokens } from "./sign-in-tokens";

export const MFA_ATTEMPT_TTL_MS = 5 * 60 * 1000;
const STEP_SECONDS = 30;
const DIGITS = 6;

/** The stored form of a base64 TOTP secret (or null to turn MFA off). */
export async function sealTotpSecret(deps: Deps, base64Secret: string | null): Promise<string | null> {
  return base64Secret === null ? null : encryptAtRest(deps.tokenKeys.secret, base64Secret);
}

/**
 * The time step (30 s counter) whose code `otp` is, for the user's secret at the injected clock (±1 step),
 * or null. The caller uses the step up (acceptTotpStep), so a code works once.
 */
export async function matchTotpStep(deps: Deps, sealed: string, otp: string): Promise<number | null> {
  const base64Secret = await openSealed(deps.tokenKeys, sealed);
  if (!base64Secret || !/^\d{6}$/.test(otp)) return null;
  const key = Uint8Array.from(atob(base64Secret), (c) => c.charCodeAt(0));
  const counter = Math.floor(deps.now() / 1000 / STEP_SECONDS);
  let step: number | null = null;
  // Compare every window without an early exit, so timing does not tell which one matched.
  for (const drift of [-1, 0, 1]) {
    const match = constantTimeEqual(generateHOTP(key, BigInt(counter + drift), DIGITS), otp);
    step = match ? counter + drift : step;
  }
  return step;
}

/**
 * A right TOTP, used up: its step must be later than the last one accepted for the user (ASVS
 * 6.5.1). Compare-and-set in D1, so of two requests with the same code only one passes; a reused
 * code answers as a wrong one does.
 */
async function spendTotp(deps: Deps, projectId: string, userId: string, sealed: string, otp: string): Promise<boolean> {
  const step = await matchTotpStep(deps, sealed, otp);
  return step !== null && (await acceptTotpStep(deps.db, projectId, userId, sealed, step));
}

export type MfaSignInResult = SignInTokens | CodeProblem | Problem<"invalid_totp">;

export async function signInWithTotp(
  deps: Deps,
  project: ProjectRow,
  input: { attemptCode: string; totp?: string; recoveryCode?: string; ipInfo: IpInfo },
): Promise<MfaSignInResult> {
  const check = await redeemCode(deps, project.id, "mfa_attempt", input.attemptCode, false);
  if (!check.ok) return check;
  const { user_id, is_new_user, sign_in } = check.row.data as {
    user_id: string;
    is_new_user: boolean;
    sign_in?: { method: SignInMethod; provider?: string };
  };
  const signIn = { ...(sign_in ?? { method: "password" as const }), mfa: true };
  const user = await findUserRecord(deps.db, project.id, user_id);
  const right =
    user?.user.totpSecret &&
    (input.recoveryCode !== undefined
      ? await checkRecoveryCode(deps, project.id, user_id, input.recoveryCode)
      : await spendTotp(deps, project.id, user_id, user.user.totpSecret, input.totp ?? ""));
  if (!right) {
    await eventStatement(deps, project.id, "sign_in.failed", { userId: user_id }, { ...signIn, reason: "INVALID_TOTP_CODE" });
    return fail("invalid_totp");
  }
  // Only a right TOTP (or recovery code) uses up the attempt; wrong or reused ones count against its 20 attempts.
  const used = await spendCheckedCode(deps, check.row);
  if (!used.ok) return used;
  if (input.recoveryCode !== undefined && !(await spendUserRecoveryCode(deps, project.id, user_id, input.recoveryCode)))
    return fail("invalid_totp");
  const session = await createSessionForUser(deps, project, user_id, { ipInfo: input.ipInfo, origin: { signIn } });
  if (!session.ok) throw new Error("user vanished during MFA sign-in");
  return { ok: true, accessToken: session.accessToken, refreshToken: session.refreshToken, userId: user_id, isNewUser: is_new_user };
}

export type MfaEnrollResult = (SignInTokens & { recoveryCodes: string[] }) | CodeProblem | Problem<"invalid_totp">;

/**
 * Required second factor: a user without TOTP redeems the enrolment attempt from the first factor
 * with a new secret and a first code from their app. A right code stores the secret, makes the
 * recovery codes and opens the session, all only once per attempt.
 */
export async function enrollTotpWithAttempt(
  deps: Deps,
  project: ProjectRow,
  input: { attemptCode: string; totpSecretBase64: string; totp: string; ipInfo: IpInfo },
): Promise<MfaEnrollResult> {
  const check = await redeemCode(deps, project.id, "mfa_attempt", input.attemptCode, false);
  if (!check.ok) return check;
  const { user_id, is_new_user, sign_in, enroll } = check.row.data as {
    user_id: string;
    is_new_user: boolean;
    sign_in?: { method: SignInMethod; provider?: string };
    enroll?: boolean;
  };
  const user = await findUserRecord(deps.db, project.id, user_id);
  // An ordinary attempt (the user has TOTP already) cannot replace the secret: that would skip the second factor.
  if (!enroll || !user || user.user.totpSecret) return fail("code_not_found");
  const sealed = await sealTotpSecret(deps, input.totpSecretBase64);
  const step = sealed ? await matchTotpStep(deps, sealed, input.totp) : null;
  if (!sealed || step === null) return fail("invalid_totp");
  const used = await spendCheckedCode(deps, check.row);
  if (!used.ok) return used;
  if (!(await setTotpSecretIfUnset(deps.db, project.id, user_id, sealed, step))) return fail("code_used");
  await eventStatement(deps, project.id, "mfa.enrolled", { userId: user_id });
  const recovery = await generateRecoveryCodes(deps, project, { id: user_id, totpSecret: sealed });
  const signIn = { ...(sign_in ?? { method: "password" as const }), mfa: true };
  const session = await createSessionForUser(deps, project, user_id, { ipInfo: input.ipInfo, origin: { signIn } });
  if (!session.ok) throw new Error("user vanished during MFA enrolment");
  return {
    ok: true,
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    userId: user_id,
    isNewUser: is_new_user,
    recoveryCodes: recovery.ok ? recovery.codes : [],
  };
}
