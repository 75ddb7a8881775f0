/**
 * TOTP recovery codes: ten single-use codes a user keeps offline, each accepted once instead of a
 * TOTP at /auth/mfa/sign-in. Shown once when made (a new set replaces the old); only a SHA-256 of
 * (user id, code) is stored. A fast hash is enough because each code carries 120 random bits
 * (ASVS 6.5.2 allows a standard hash from 112 bits): a leaked table cannot be brute-forced.
 */
import { sha256Hex } from "../../crypto/hash";
import {
  countUnusedRecoveryCodes,
  hasUnusedRecoveryCode,
  replaceRecoveryCodes,
  spendRecoveryCode,
} from "../../db/queries/mfa-recovery-codes";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { eventStatement } from "../events";
import { fail, type Problem } from "../result";

export const RECOVERY_CODE_COUNT = 10;
/** 24 Crockford base32 characters: 120 bits each, shown as xxxxxx-xxxxxx-xxxxxx-xxxxxx. */
const RECOVERY_CODE_LENGTH = 24;
/** Codes made before the 120-bit codes (12 characters, 60 bits) keep working until the user makes a new set. */
const LEGACY_RECOVERY_CODE_LENGTH = 12;
const isRecoveryCodeLength = (code: string) => {
  const length = normalizeRecoveryCode(code).length;
  return length === RECOVERY_CODE_LENGTH || length === LEGACY_RECOVERY_CODE_LENGTH;
};

/** What a person may type: any case, with or without dashes and spaces; Crockford's look-alikes read as digits. */
export function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, "").replace(/[il]/g, "1").replace(/o/g, "0");
}

// Why: salted with the user id, so equal codes of two users never share a hash and a leaked table cannot be looked up in bulk.
function hashRecoveryCode(userId: string, code: string): Promise<string> {
  return sha256Hex(`doorman-recovery:${userId}:${normalizeRecoveryCode(code)}`);
}

/** Makes a new set for a TOTP user, replacing (and so invalidating) the old one. Returns the codes, once. */
export async function generateRecoveryCodes(
  deps: Deps,
  project: ProjectRow,
  user: { id: string; totpSecret: string | null },
): Promise<{ ok: true; codes: string[] } | Problem<"totp_not_enabled">> {
  if (!user.totpSecret) return fail("totp_not_enabled");
  const now = deps.now();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => deps.random.code(RECOVERY_CODE_LENGTH).replace(/(.{6})(?=.)/g, "$1-"));
  const rows = await Promise.all(
    codes.map(async (code) => ({
      id: deps.random.uuid(),
      projectId: project.id,
      userId: user.id,
      codeHash: await hashRecoveryCode(user.id, code),
      createdAt: now,
    })),
  );
  await replaceRecoveryCodes(deps.db, user.id, rows, [
    eventStatement(deps, project.id, "mfa.recovery_codes_generated", { userId: user.id }),
  ]);
  return { ok: true, codes };
}

/** Uses up one of the user's codes (atomically: two requests with the same code, one wins) and records the event. */
export async function spendUserRecoveryCode(deps: Deps, projectId: string, userId: string, code: string): Promise<boolean> {
  if (!isRecoveryCodeLength(code)) return false;
  const spent = await spendRecoveryCode(deps.db, projectId, userId, await hashRecoveryCode(userId, code), deps.now());
  if (!spent) return false;
  const remaining = await countUnusedRecoveryCodes(deps.db, userId);
  await eventStatement(deps, projectId, "mfa.recovery_code_used", { userId }, { remaining });
  return true;
}

/** Is this one of the user's unused codes? (Checks only; `spendUserRecoveryCode` spends it.) */
export async function checkRecoveryCode(deps: Deps, projectId: string, userId: string, code: string): Promise<boolean> {
  if (!isRecoveryCodeLength(code)) return false;
  return hasUnusedRecoveryCode(deps.db, projectId, userId, await hashRecoveryCode(userId, code));
}

/** How many unused codes the user has left. */
export function remainingRecoveryCodes(deps: Deps, userId: string): Promise<number> {
  return countUnusedRecoveryCodes(deps.db, userId);
}
