/**
 * Password reset by emailed code. The send step answers the same "maybe" whatever the email,
 * and does its lookups after the response, so neither the body nor the timing tells who exists.
 */

import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord, findUserRecordByAuthEmail } from "../../db/queries/users";
import { revokeOpenCodes } from "../../db/queries/verification-codes";
import type { Deps } from "../deps";
import { notifyPasswordChanged } from "../email/notices";
import { emailCarryingCode } from "../email/outbox";
import { isTrustedRedirectUrl } from "../hosted-pages/trust";
import { fail, type Problem } from "../result";
import { updateUser } from "../users";
import { type CodeProblem, issueCode, linkWithCode, redeemCode, spendCheckedCode } from "../verification-codes";
import { checkPasswordLength, type PasswordProblem, vetNewPassword } from "./password-rules";

export async function sendResetCode(
  deps: Deps,
  project: ProjectRow,
  input: { email: string; callbackUrl: string },
): Promise<{ ok: true } | Problem<"untrusted_url">> {
  if (!(await isTrustedRedirectUrl(deps, project, input.callbackUrl))) return fail("untrusted_url");
  deps.defer(issueAndSend(deps, project, input.email.trim().toLowerCase(), input.callbackUrl));
  return { ok: true };
}

async function issueAndSend(deps: Deps, project: ProjectRow, email: string, callbackUrl: string): Promise<void> {
  const user = await findUserRecordByAuthEmail(deps.db, project.id, email);
  if (!user) return;
  // One live reset link per user: a new request retires the older ones.
  await revokeOpenCodes(deps.db, project.id, "password_reset", "user_id", user.user.id, deps.now());
  const mail = emailCarryingCode(
    deps,
    project,
    "password_reset",
    { type: "user-custom-emails", user_id: user.user.id, emails: [email] },
    (issued) => ({ link: linkWithCode(callbackUrl, issued.code), userDisplayName: user.user.displayName }),
  );
  await issueCode(deps, project.id, "password_reset", { user_id: user.user.id, email }, undefined, undefined, mail.alongside);
  await mail.enqueue();
}

export type ResetResult = { ok: true } | CodeProblem | PasswordProblem | Problem<"user_not_found">;

export async function resetPassword(deps: Deps, project: ProjectRow, input: { code: string; password: string }): Promise<ResetResult> {
  // Check the new password first, so a typo does not burn the link: its length, then (with the
  // account known from the unspent code) every password rule, and only then use the code up.
  const length = checkPasswordLength(input.password);
  if (!length.ok) return length;
  const checked = await redeemCode(deps, project.id, "password_reset", input.code, false);
  if (!checked.ok) return checked;
  const userId = String(checked.row.data.user_id);
  const user = await findUserRecord(deps.db, project.id, userId);
  if (!user) return fail("user_not_found");
  // Breach check included, before the code is spent: a breached password does not burn the link.
  const rules = await vetNewPassword(deps, project, input.password, { email: user.primaryEmail?.value ?? null, userId });
  if (!rules.ok) return rules;
  const redeemed = await spendCheckedCode(deps, checked.row);
  if (!redeemed.ok) return redeemed;
  // Every session ends: whoever knew the old password is signed out.
  const updated = await updateUser(
    deps,
    project,
    userId,
    { password: input.password },
    { keepSessionId: null, passwordEvent: "password.reset" },
  );
  if (!updated.ok) return updated as ResetResult;
  deps.defer(notifyPasswordChanged(deps, project, userId));
  return { ok: true };
}

export function checkResetCode(deps: Deps, project: ProjectRow, code: string) {
  return redeemCode(deps, project.id, "password_reset", code, false);
}
