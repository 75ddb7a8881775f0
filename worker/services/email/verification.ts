/** Email verification: send a code to a contact channel, and verify it (marking the channel verified). */
import { type ContactChannelRow, findChannel, markChannelVerified } from "../../db/queries/contact-channels";
import type { ProjectRow } from "../../db/queries/projects";
import type { UserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventFor } from "../events";
import { isTrustedRedirectUrl } from "../hosted-pages/trust";
import { fail, type Problem } from "../result";
import { type CodeProblem, issueCode, linkWithCode, redeemCode } from "../verification-codes";
import { emailCarryingCode } from "./outbox";

export async function sendVerificationEmail(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord,
  channel: ContactChannelRow,
  callbackUrl: string,
): Promise<{ ok: true } | Problem<"untrusted_url">> {
  // The link carries a code that proves ownership: it may only point at the project's domains.
  if (!(await isTrustedRedirectUrl(deps, project, callbackUrl))) return fail("untrusted_url");
  const email = emailCarryingCode(
    deps,
    project,
    "email_verification",
    { type: "user-custom-emails", user_id: user.user.id, emails: [channel.value] },
    (issued) => ({ link: linkWithCode(callbackUrl, issued.code), userDisplayName: user.user.displayName }),
  );
  const data = { user_id: user.user.id, channel_id: channel.id, email: channel.value };
  await issueCode(deps, project.id, "email_verification", data, undefined, undefined, email.alongside);
  await email.enqueue();
  return { ok: true };
}

export type VerifyResult = { ok: true } | CodeProblem | Problem<"channel_gone">;

/** Checks or uses a verification code; using it marks the channel verified (if it still holds that email). */
export async function verifyEmailCode(deps: Deps, project: ProjectRow, code: string, consume: boolean): Promise<VerifyResult> {
  const redeemed = await redeemCode(deps, project.id, "email_verification", code, consume);
  if (!redeemed.ok) return redeemed;
  if (!consume) return { ok: true };
  const { user_id, channel_id, email } = redeemed.row.data as { user_id: string; channel_id: string; email: string };
  const channel = await findChannel(deps.db, project.id, user_id, channel_id);
  if (!channel) return fail("channel_gone");
  const verified = eventFor(deps, project.id, "email.verified", { userId: user_id }, { contact_channel_id: channel.id });
  if (!(await markChannelVerified(deps.db, channel.id, email, verified))) return fail("channel_gone");
  return { ok: true };
}
