/**
 * Sign-in by emailed code (magic link / OTP). The email carries the 6-character OTP and a link
 * (callback URL + ?code=); the client keeps the nonce. A verified email signs its user in; an
 * unknown email signs up (when sign-up is on), upgrading a current anonymous user in place.
 */

import type { EmailOutboxRecipient } from "@doorman/shared/wire-email-outbox";
import type { ProjectRow } from "../../db/queries/projects";
import {
  findAuthEmailChannel,
  findUserRecord,
  findUserRecordByAuthEmail,
  type UserRecord,
  updateUserStatement,
} from "../../db/queries/users";
import type { Deps } from "../deps";
import { emailCarryingCode } from "../email/outbox";
import { isTrustedRedirectUrl } from "../hosted-pages/trust";
import { readProjectConfig } from "../project-config/flat";
import { type BotChallengeFields, checkBotChallenge } from "../protection/bot-challenge";
import { fail, type Problem } from "../result";
import { checkSignUpRules } from "../sign-up-rules/gate";
import { checkSsoEnforcement } from "../sso/enforcement";
import { createUser, normaliseEmail, upgradeAnonymousUser } from "../users";
import { type CodeProblem, issueCode, linkWithCode, redeemCode } from "../verification-codes";
import type { IpInfo } from "./sessions";
import { finishFirstFactor } from "./sign-in";
import type { MfaRequired, SignInTokens } from "./sign-in-tokens";

export type SendCodeResult =
  | { ok: true; nonce: string }
  | Problem<
      | "magic_link_disabled"
      | "untrusted_url"
      | "sign_up_disabled"
      | "email_unverified"
      | "bot_challenge_required"
      | "bot_challenge_failed"
      | "sso_required"
    >;

export async function sendSignInCode(
  deps: Deps,
  project: ProjectRow,
  input: { email: string; callbackUrl: string; botChallenge?: BotChallengeFields },
): Promise<SendCodeResult> {
  const config = readProjectConfig(project.config);
  if (!config.magic_link_enabled) return fail("magic_link_disabled");
  // The link carries a sign-in code: it may only point at the project's own domains.
  if (!(await isTrustedRedirectUrl(deps, project, input.callbackUrl))) return fail("untrusted_url");
  // Before any lookup or mail: a bot must not learn which addresses exist nor send mail on our name.
  const challenge = await checkBotChallenge(deps, project, "otp", input.botChallenge ?? {}, { email: input.email });
  if (!challenge.ok) return challenge;
  const email = normaliseEmail(input.email);
  const existing = await findUserRecordByAuthEmail(deps.db, project.id, email);
  // No code is mailed for an address whose organization enforces SSO (issue 31): it would not sign in.
  const enforced = await checkSsoEnforcement(deps, project.id, email, existing?.primaryEmail?.value);
  if (!enforced.ok) return enforced;
  // As the reference: no code is mailed for an account that could never be created.
  if (!existing && !config.sign_up_enabled) return fail("sign_up_disabled");
  // Nor for an unverified auth address, which sign-in would refuse (USER_EMAIL_ALREADY_EXISTS, as the reference).
  const channel = existing ? await findAuthEmailChannel(deps.db, project.id, email) : null;
  if (channel && !channel.isVerified) return fail("email_unverified", { email });
  const recipient: EmailOutboxRecipient = existing
    ? { type: "user-custom-emails", user_id: existing.user.id, emails: [email] }
    : { type: "custom-emails", emails: [email] };
  const mail = emailCarryingCode(deps, project, "magic_link", recipient, (issued) => ({
    link: linkWithCode(input.callbackUrl, issued.code),
    otp: issued.otp,
    userDisplayName: existing?.user.displayName ?? null,
  }));
  // The requester's country goes with the code: a new user is signed up from where the code was asked for (the wire's).
  const data = { email, country_code: deps.audit.signUpCountryCode ?? null, turnstile_result: challenge.assessment?.status ?? null };
  const issued = await issueCode(deps, project.id, "sign_in_otp", data, undefined, undefined, mail.alongside);
  await mail.enqueue();
  return { ok: true, nonce: issued.nonce };
}

export type OtpSignInResult =
  | SignInTokens
  | MfaRequired
  | CodeProblem
  | Problem<"magic_link_disabled" | "sign_up_disabled" | "email_unverified" | "sign_up_rejected" | "sso_required">;

export async function signInWithCode(
  deps: Deps,
  project: ProjectRow,
  input: { code: string; currentUser: UserRecord | null; ipInfo: IpInfo },
): Promise<OtpSignInResult> {
  const config = readProjectConfig(project.config);
  if (!config.magic_link_enabled) return fail("magic_link_disabled");
  const redeemed = await redeemCode(deps, project.id, "sign_in_otp", input.code, true);
  if (!redeemed.ok) return redeemed;
  const email = String(redeemed.row.data.email);

  const channel = await findAuthEmailChannel(deps.db, project.id, email);
  const existing = channel ? await findUserRecord(deps.db, project.id, channel.userId) : null;
  // A code mailed before the organization turned SSO enforcement on does not sign in either (issue 31).
  const enforced = await checkSsoEnforcement(deps, project.id, email, existing?.primaryEmail?.value);
  if (!enforced.ok) return enforced;
  let userId: string;
  let isNewUser = false;
  if (channel && existing) {
    // An unverified address could have been registered by someone else: signing in by code
    // would hand its owner an account another person controls, so it is refused. Any verified
    // auth channel signs in, primary or not (as the wire).
    if (!channel.isVerified) return fail("email_unverified", { email });
    userId = existing.user.id;
    if (!existing.user.otpAuthEnabled) await updateUserStatement(deps.db, project.id, userId, { otpAuthEnabled: true });
  } else {
    if (!config.sign_up_enabled) return fail("sign_up_disabled");
    const sentFrom = redeemed.row.data.country_code;
    // The send-code request's Turnstile assessment (the sign-up's bot check happened there).
    const turnstileResult = turnstileResultOf(redeemed.row.data.turnstile_result);
    const ruled = await checkSignUpRules(deps, project, {
      email,
      authMethod: "otp",
      ...(typeof sentFrom === "string" ? { countryCode: sentFrom } : {}),
      ...(turnstileResult ? { turnstileResult } : {}),
    });
    if (!ruled.ok) return ruled;
    isNewUser = true;
    if (input.currentUser?.user.isAnonymous) {
      userId = input.currentUser.user.id;
      const upgraded = await upgradeAnonymousUser(deps, project, userId, {
        email,
        emailVerified: true,
        // An anonymous user's country (set meanwhile) stays; else the sign-up's.
        patch: {
          otpAuthEnabled: true,
          countryCode: input.currentUser.user.countryCode ?? ruled.countryCode,
          ...ruled.restriction,
          riskScores: ruled.riskScores,
        },
        method: "otp",
      });
      if (!upgraded.ok) return fail("email_unverified", { email });
    } else {
      // Receiving the code proves the address: the new user's email starts verified.
      const created = await createUser(deps, project, {
        primaryEmail: email,
        primaryEmailVerified: true,
        primaryEmailAuthEnabled: true,
        otpAuthEnabled: true,
        countryCode: ruled.countryCode,
        ...ruled.restriction,
        riskScores: ruled.riskScores,
        signUp: { method: "otp", ...(turnstileResult ? { turnstile_result: turnstileResult } : {}) },
      });
      if (!created.ok) return created.reason === "email_taken" ? fail("email_unverified", { email }) : fail("sign_up_disabled");
      userId = created.record.user.id;
    }
  }
  const record = await findUserRecord(deps.db, project.id, userId);
  if (!record) throw new Error("user vanished during OTP sign-in");
  const finished = await finishFirstFactor(deps, project, record, { isNewUser, ipInfo: input.ipInfo, method: "otp" });
  return finished.ok ? finished.tokens : finished;
}

function turnstileResultOf(value: unknown): "ok" | "invalid" | "error" | undefined {
  return value === "ok" || value === "invalid" || value === "error" ? value : undefined;
}

export function checkSignInCode(deps: Deps, project: ProjectRow, code: string) {
  return redeemCode(deps, project.id, "sign_in_otp", code, false);
}
