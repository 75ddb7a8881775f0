/**
 * New-device verification (issue 29; Clerk's Device Trust): a password sign-in of a user without a
 * second factor, from a device the user has not used (unknown device token, or another user-agent
 * family), when the project turns it on — or whenever the sign-in's risk score reaches
 * `doorman.protection.risk.verifyDeviceAt` — makes no session: the user is emailed a 6-character code
 * and the client gets DEVICE_VERIFICATION_REQUIRED with an attempt code (the code's nonce half). The
 * right code (verifyDeviceCode) makes the session and the device known. Codes are the shared
 * verification codes (hashes only, 10 minutes, 20 attempts counted atomically per attempt code).
 */
import type { BatchItem } from "drizzle-orm/batch";
import { sha256Hex } from "../../crypto/hash";
import { pruneDevicesStatement, recordDeviceStatement } from "../../db/queries/known-devices";
import { hasUsablePasskey } from "../../db/queries/passkeys";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord, type UserRecord } from "../../db/queries/users";
import { findCodeByNonce } from "../../db/queries/verification-codes";
import { createSessionForUser, type IpInfo } from "../auth/sessions";
import type { SignInTokens } from "../auth/sign-in-tokens";
import type { Deps } from "../deps";
import { emailCarryingCode } from "../email/outbox";
import { eventStatement, type SignInMethod } from "../events";
import { renderedConfigOf } from "../project-config/cache";
import { fail, type Problem } from "../result";
import { type CodeProblem, issueCode, MAX_CODE_ATTEMPTS, redeemCode, spendCheckedCode } from "../verification-codes";
import { deviceHashOf, newDeviceToken, userAgentFamily } from "./device-token";
import type { SignInAssessment } from "./risk";

export const DEVICE_CODE_TTL_MS = 10 * 60 * 1000;
/** New codes one attempt may ask for (each retires the last); the route's per-IP limit caps the rest. */
export const MAX_DEVICE_CODE_RESENDS = 3;

type SignInOrigin = { method: SignInMethod; provider?: string; risk?: { score: number; signals: string[] } };

/** What the attempt carries from the first factor to the code step. */
type AttemptData = { user_id: string; is_new_user: boolean; sign_in: SignInOrigin; to: string; resends: number };

/** The methods whose answer reaches the client that sent the device token (an OAuth callback is a redirect: none). */
const DEVICE_METHODS: ReadonlySet<SignInMethod> = new Set(["password", "otp", "passkey"]);

/** "j•••@example.com": enough for the user to know which inbox to open. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/**
 * Whether this first factor must wait for an emailed code: only a password sign-in (not a sign-up) of a
 * user with neither TOTP nor a passkey (their second factor covers it), from a new device with the
 * project's switch on, or at a high enough risk score.
 */
export async function needsDeviceVerification(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord,
  input: { method: SignInMethod; isNewUser: boolean; assessment: SignInAssessment },
): Promise<boolean> {
  if (input.method !== "password" || input.isNewUser || user.user.totpSecret) return false;
  const { newDeviceVerification } = renderedConfigOf(project).doorman.protection;
  const due = (newDeviceVerification.enabled && input.assessment.newDevice) || input.assessment.riskDemandsVerification;
  // Only asked when it would apply: one indexed read for the few sign-ins that get this far.
  return due && !(await hasUsablePasskey(deps.db, project.id, user.user.id));
}

/** The device of a sign-in that makes a session: its upsert and event for the session's batch, and the token the client keeps. */
export async function deviceOfSignIn(
  deps: Deps,
  projectId: string,
  userId: string,
  input: { method: SignInMethod; announce: boolean; assessment: Pick<SignInAssessment, "deviceHash" | "uaFamily" | "newDevice"> },
): Promise<{ statements: BatchItem<"sqlite">[]; deviceToken?: string }> {
  const presented = deps.audit.deviceToken ?? null;
  if (!DEVICE_METHODS.has(input.method)) return { statements: [] };
  // The browser keeps one token for every account signed in on it: a device, not a (user, device) pair.
  const token = presented ?? newDeviceToken(deps);
  const deviceHash = input.assessment.deviceHash ?? (await deviceHashOf(token));
  const statements: BatchItem<"sqlite">[] = [
    recordDeviceStatement(deps.db, {
      projectId,
      userId,
      deviceHash,
      uaFamily: input.assessment.uaFamily,
      at: deps.now(),
      countryCode: deps.audit.countryCode?.toUpperCase() ?? null,
      latitude: deps.audit.latitude ?? null,
      longitude: deps.audit.longitude ?? null,
    }),
  ];
  if (input.assessment.newDevice) statements.push(pruneDevicesStatement(deps.db, projectId, userId));
  // Only a device the user confirmed with the emailed code is an event ("device.added"); others are recorded
  // silently for the risk signals (a token-less client, e.g. a script, would otherwise add one per sign-in).
  if (input.assessment.newDevice && input.announce)
    statements.push(eventStatement(deps, projectId, "device.added", { userId }, { ua_family: input.assessment.uaFamily }));
  return { statements, deviceToken: token };
}

/** Mails the code and answers DEVICE_VERIFICATION_REQUIRED (the code row, its email and the event in one batch). */
export async function askForDeviceCode(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord,
  input: { signIn: SignInOrigin; isNewUser: boolean; email?: string | null; uaFamily: string; resends?: number },
): Promise<Problem<"device_verification_required">> {
  // The primary email, or the address the password was typed with (an auth channel of the user).
  const to = user.primaryEmail?.value ?? input.email ?? null;
  if (!to) throw new Error("a password user has an email");
  const data: AttemptData = { user_id: user.user.id, is_new_user: input.isNewUser, sign_in: input.signIn, to, resends: input.resends ?? 0 };
  const mail = emailCarryingCode(
    deps,
    project,
    "device_verification",
    { type: "user-custom-emails", user_id: user.user.id, emails: [to] },
    (issued) => ({ otp: issued.otp, userDisplayName: user.user.displayName ?? null }),
  );
  const issued = await issueCode(deps, project.id, "device_verification", data, DEVICE_CODE_TTL_MS, undefined, async (code) => [
    ...(await mail.alongside(code)),
    eventStatement(
      deps,
      project.id,
      "device.verification_required",
      { userId: user.user.id },
      { method: input.signIn.method, ua_family: input.uaFamily, ...(input.signIn.risk ? { risk: input.signIn.risk } : {}) },
    ),
  ]);
  await mail.enqueue();
  return fail("device_verification_required", { attemptCode: issued.nonce, sentTo: maskEmail(to) });
}

export type DeviceCodeResult = SignInTokens | CodeProblem | Problem<"device_code_invalid">;

/** A wrong guess: why it failed (used up, expired, or just wrong), with an event for the user's activity. */
async function refuseGuess(deps: Deps, project: ProjectRow, attemptCode: string): Promise<CodeProblem | Problem<"device_code_invalid">> {
  const row = await findCodeByNonce(deps.db, project.id, "device_verification", await sha256Hex(attemptCode));
  if (!row) return fail("code_not_found");
  const userId = String((row.data as Partial<AttemptData>).user_id ?? "") || null;
  const problem: CodeProblem | Problem<"device_code_invalid"> =
    row.expiresAt <= deps.now()
      ? fail("code_expired")
      : row.usedAt !== null
        ? fail("code_used")
        : row.attempts > MAX_CODE_ATTEMPTS
          ? fail("code_max_attempts")
          : fail("device_code_invalid");
  await eventStatement(deps, project.id, "device.verification_failed", { userId }, { reason: WIRE_CODES[problem.reason] });
  return problem;
}

/**
 * The code step: the attempt code (from DEVICE_VERIFICATION_REQUIRED) and the 6 characters from the
 * email. Every call counts against the attempt's 20 tries (one atomic UPDATE per guess), so a burst of
 * wrong guesses cannot get past the limit; a right code is used up once (compare-and-set).
 */
export async function verifyDeviceCode(
  deps: Deps,
  project: ProjectRow,
  input: { attemptCode: string; code: string; ipInfo: IpInfo },
): Promise<DeviceCodeResult> {
  const otp = input.code.trim();
  const check = await redeemCode(deps, project.id, "device_verification", `${otp}${input.attemptCode}`, false);
  if (!check.ok) return check.reason === "code_not_found" ? refuseGuess(deps, project, input.attemptCode) : failed(deps, project, check);
  const data = check.row.data as AttemptData;
  const used = await spendCheckedCode(deps, check.row);
  if (!used.ok) return failed(deps, project, used, data.user_id);
  const user = await findUserRecord(deps.db, project.id, data.user_id);
  if (!user) return fail("code_not_found");
  // The device is the one this request comes from (the same browser that typed the code).
  const token = deps.audit.deviceToken ?? null;
  const assessment = {
    deviceHash: token ? await deviceHashOf(token) : null,
    uaFamily: userAgentFamily(deps.audit.userAgent),
    newDevice: true,
  };
  const device = await deviceOfSignIn(deps, project.id, user.user.id, { method: data.sign_in.method, announce: true, assessment });
  const signIn = { ...data.sign_in, device_verified: true };
  const session = await createSessionForUser(deps, project, user.user.id, {
    ipInfo: input.ipInfo,
    origin: { signIn },
    alongside: [
      ...device.statements,
      eventStatement(deps, project.id, "device.verification_succeeded", { userId: user.user.id }, { ua_family: assessment.uaFamily }),
    ],
  });
  if (!session.ok) throw new Error("user vanished during device verification");
  return {
    ok: true,
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    userId: user.user.id,
    isNewUser: data.is_new_user,
    ...(device.deviceToken ? { deviceToken: device.deviceToken } : {}),
  };
}

async function failed(deps: Deps, project: ProjectRow, problem: CodeProblem, userId?: string): Promise<CodeProblem> {
  await eventStatement(deps, project.id, "device.verification_failed", { userId: userId ?? null }, { reason: WIRE_CODES[problem.reason] });
  return problem;
}

export type ResendResult = { ok: true; attemptCode: string; sentTo: string } | CodeProblem;

/**
 * A new code for a waiting sign-in: retires the last one (compare-and-set, so of two concurrent resends
 * only one mails) and mails a fresh one with a new attempt code; at most MAX_DEVICE_CODE_RESENDS times.
 */
export async function resendDeviceCode(deps: Deps, project: ProjectRow, attemptCode: string): Promise<ResendResult> {
  const row = await findCodeByNonce(deps.db, project.id, "device_verification", await sha256Hex(attemptCode));
  if (!row) return fail("code_not_found");
  if (row.expiresAt <= deps.now()) return fail("code_expired");
  if (row.usedAt !== null) return fail("code_used");
  const data = row.data as AttemptData;
  if (data.resends >= MAX_DEVICE_CODE_RESENDS || row.attempts > MAX_CODE_ATTEMPTS) return fail("code_max_attempts");
  const retired = await spendCheckedCode(deps, row);
  if (!retired.ok) return retired;
  const user = await findUserRecord(deps.db, project.id, data.user_id);
  if (!user) return fail("code_not_found");
  const asked = await askForDeviceCode(deps, project, user, {
    signIn: data.sign_in,
    isNewUser: data.is_new_user,
    email: data.to,
    resends: data.resends + 1,
    uaFamily: userAgentFamily(deps.audit.userAgent),
  });
  return { ok: true, attemptCode: asked.attemptCode, sentTo: asked.sentTo };
}

/** The wire's code of each code problem, for the event log. */
const WIRE_CODES = {
  code_not_found: "VERIFICATION_CODE_NOT_FOUND",
  code_expired: "VERIFICATION_CODE_EXPIRED",
  code_used: "VERIFICATION_CODE_ALREADY_USED",
  code_max_attempts: "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
  device_code_invalid: "DEVICE_VERIFICATION_CODE_INVALID",
} as const;
