/**
 * The one shared mechanism behind every emailed code (wire-protocol.md §5): 45-character codes,
 * OTP = first 6 characters upper-cased, nonce = last 39; only hashes stored; at most 20
 * attempts per nonce; single use enforced atomically; check order not found → expired → used
 * → max attempts.
 */
import type { BatchItem } from "drizzle-orm/batch";
import { sha256Hex } from "../crypto/hash";
import { insertEventStatement, type NewEvent } from "../db/queries/events";
import { countAttemptAndFind, insertCodeStatement, markCodeUsed, type VerificationCodeRow } from "../db/queries/verification-codes";
import type { Deps } from "./deps";
import { fail, type Problem } from "./result";

export type CodePurpose =
  | "sign_in_otp"
  | "password_reset"
  | "email_verification"
  | "team_invitation"
  | "mfa_attempt"
  | "oauth_outer_state"
  | "oauth_authorization_code"
  | "passkey_registration"
  | "passkey_authentication"
  | "impersonation"
  | "device_verification"
  // Enterprise SSO (issue 31, FLOW): a started SSO sign-in (the SAML RelayState / OIDC state).
  | "sso_request";

export const CODE_LENGTH = 45;
export const OTP_LENGTH = 6;
export const MAX_CODE_ATTEMPTS = 20;
export const DEFAULT_CODE_TTL_MS = 7 * 24 * 3600 * 1000;

export type CodeProblem = Problem<"code_not_found" | "code_expired" | "code_used" | "code_max_attempts">;
export type CodeCheck = { ok: true; row: VerificationCodeRow } | CodeProblem;

export type IssuedCode = { id: string; code: string; nonce: string; otp: string; expiresAt: number };

/** The email link: the callback URL with `code` set (replacing any `code` already there). */
export function linkWithCode(callbackUrl: string, code: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set("code", code);
  return url.toString();
}

/** Splits a code into the OTP a person types and the nonce the client keeps. */
export function splitCode(code: string): { otp: string; nonce: string } {
  return { otp: code.slice(0, OTP_LENGTH).toUpperCase(), nonce: code.slice(OTP_LENGTH) };
}

export async function issueCode(
  deps: Deps,
  projectId: string,
  purpose: CodePurpose,
  data: Record<string, unknown>,
  ttlMs = DEFAULT_CODE_TTL_MS,
  /** An event whose id is the code's (e.g. team_invitation.sent), written in the same batch. */
  event?: (codeId: string) => NewEvent,
  /** More statements for the same batch, built from the issued code (the email that carries it: its outbox row). */
  alongside?: (issued: IssuedCode) => Promise<BatchItem<"sqlite">[]>,
): Promise<IssuedCode> {
  const code = deps.random.code(CODE_LENGTH);
  const { otp, nonce } = splitCode(code);
  const now = deps.now();
  const id = deps.random.uuid();
  // Hashes only: a database leak does not leak usable links or OTPs.
  const insert = insertCodeStatement(deps.db, {
    id,
    projectId,
    purpose,
    codeHash: await sha256Hex(code),
    nonceHash: await sha256Hex(nonce),
    data,
    createdAt: now,
    expiresAt: now + ttlMs,
  });
  const issued: IssuedCode = { id, code, nonce, otp, expiresAt: now + ttlMs };
  const extra: BatchItem<"sqlite">[] = [
    ...(event ? [insertEventStatement(deps.db, event(id))] : []),
    ...(alongside ? await alongside(issued) : []),
  ];
  if (extra.length > 0) await deps.db.batch([insert, ...extra]);
  else await insert;
  return issued;
}

/** Checks (and with `consume`, uses up) a code. Every call counts as an attempt. */
export async function redeemCode(
  deps: Deps,
  projectId: string,
  purpose: CodePurpose,
  rawCode: string,
  consume: boolean,
): Promise<CodeCheck> {
  const code = rawCode.toLowerCase();
  const { nonce } = splitCode(code);
  const row = await countAttemptAndFind(deps.db, projectId, purpose, await sha256Hex(nonce), await sha256Hex(code));
  if (!row) return fail("code_not_found");
  const now = deps.now();
  if (row.expiresAt <= now) return fail("code_expired");
  if (row.usedAt !== null) return fail("code_used");
  if (row.attempts > MAX_CODE_ATTEMPTS) return fail("code_max_attempts");
  if (!consume) return { ok: true, row };
  return spendCheckedCode(deps, row);
}

/**
 * Uses up a code this request already checked with `redeemCode(…, false)`: no second attempt is
 * counted (a burst of right answers must not exhaust the attempts), and only one caller wins.
 */
export async function spendCheckedCode(deps: Deps, row: VerificationCodeRow): Promise<CodeCheck> {
  // Single use under concurrency: only one UPDATE can flip used_at from NULL.
  const used = await markCodeUsed(deps.db, row.id, deps.now());
  return used ? { ok: true, row: used } : fail("code_used");
}
