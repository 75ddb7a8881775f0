/** Password sign-up and sign-in, and anonymous sign-up (with in-place upgrade of anonymous users). */
import { createHashQueue } from "../../crypto/hash-queue";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../../crypto/password";
import { readPasswordSignIn } from "../../db/queries/password-sign-in";
import type { ProjectRow } from "../../db/queries/projects";
import { emailDomain } from "../../db/queries/sso-domains";
import { findUserRecord, type UserRecord, updateUserStatement } from "../../db/queries/users";
import type { Deps } from "../deps";
import { notifyPasswordChanged } from "../email/notices";
import { sendVerificationEmail } from "../email/verification";
import { eventStatement } from "../events";
import { readProjectConfig } from "../project-config/flat";
import { type BotChallengeFields, checkBotChallenge } from "../protection/bot-challenge";
import { assessSignInRequest } from "../protection/risk";
import { fail, type Problem } from "../result";
import { checkSignUpRules } from "../sign-up-rules/gate";
import { checkSsoEnforcement, ssoEnforcementOfDomain } from "../sso/enforcement";
import { createUser, normaliseEmail, type PasswordProblem, type UpdateUserResult, updateUser, upgradeAnonymousUser } from "../users";
import { vetNewPassword } from "./password-rules";
import { createSessionForUser, type IpInfo } from "./sessions";
import { finishFirstFactor } from "./sign-in";
import type { MfaRequired, SignInTokens } from "./sign-in-tokens";

// Re-exported for existing importers; the types live in sign-in-tokens.ts (shared with mfa.ts).
export type { MfaRequired, SignInTokens } from "./sign-in-tokens";

export type SignUpResult =
  | SignInTokens
  | MfaRequired
  | PasswordProblem
  | Problem<
      | "password_auth_disabled"
      | "sign_up_disabled"
      | "email_taken"
      | "sign_up_rejected"
      | "bot_challenge_required"
      | "bot_challenge_failed"
      | "sso_required"
    >;

export async function signUpWithPassword(
  deps: Deps,
  project: ProjectRow,
  input: {
    email: string;
    password: string;
    currentUser: UserRecord | null;
    ipInfo: IpInfo;
    verificationCallbackUrl?: string;
    botChallenge?: BotChallengeFields;
    /** The risk score asks for a token even where the flow does not require one (the risk signals' say; false until wired). */
  },
): Promise<SignUpResult> {
  const config = readProjectConfig(project.config);
  if (!config.credential_enabled) return fail("password_auth_disabled");
  if (!config.sign_up_enabled) return fail("sign_up_disabled");
  const email = normaliseEmail(input.email);
  // An organization that enforces SSO for this domain signs its people up through its IdP (issue 31).
  const enforced = await checkSsoEnforcement(deps, project.id, email);
  if (!enforced.ok) return enforced;
  // Checked here too: the anonymous upgrade below hashes the password without createUser (whose own
  // check then reuses this request's breach answer: one range call per sign-up).
  const upgrading = input.currentUser?.user.isAnonymous ? input.currentUser.user.id : null;
  const rules = await vetNewPassword(deps, project, input.password, { email, userId: upgrading });
  if (!rules.ok) return rules;
  // Before the rules and the hash: a bot is turned away before it costs a D1 write or an Argon2 run.
  const challenge = await checkBotChallenge(deps, project, "signUp", input.botChallenge ?? {}, { email: input.email });
  if (!challenge.ok) return challenge;
  const turnstileResult = challenge.assessment?.status;
  const ruled = await checkSignUpRules(deps, project, { email, authMethod: "password", turnstileResult });
  if (!ruled.ok) return ruled;

  let userId: string;
  if (input.currentUser?.user.isAnonymous) {
    userId = input.currentUser.user.id;
    const upgraded = await upgradeAnonymousUser(deps, project, userId, {
      email,
      emailVerified: false,
      // An anonymous user's country (set meanwhile) stays; else the sign-up's.
      patch: {
        passwordHash: await hashPassword(input.password),
        countryCode: input.currentUser.user.countryCode ?? ruled.countryCode,
        ...ruled.restriction,
        riskScores: ruled.riskScores,
      },
      method: "password",
    });
    if (!upgraded.ok) return upgraded;
  } else {
    const created = await createUser(deps, project, {
      primaryEmail: email,
      password: input.password,
      primaryEmailAuthEnabled: true,
      countryCode: ruled.countryCode,
      ...ruled.restriction,
      riskScores: ruled.riskScores,
      signUp: { method: "password", ...(turnstileResult ? { turnstile_result: turnstileResult } : {}) },
    });
    if (!created.ok) {
      if (created.reason === "invalid_password_hash") throw new Error("unreachable: no hash given");
      return created;
    }
    userId = created.record.user.id;
  }
  const record = await findUserRecord(deps.db, project.id, userId);
  if (!record) throw new Error("user vanished during sign-up");
  // The callback URL was checked against the trusted domains by the route already.
  if (input.verificationCallbackUrl && record.primaryEmail)
    await sendVerificationEmail(deps, project, record, record.primaryEmail, input.verificationCallbackUrl);
  const finished = await finishFirstFactor(deps, project, record, { isNewUser: true, ipInfo: input.ipInfo, method: "password" });
  return finished.ok ? finished.tokens : finished;
}

export type SignInResult =
  | SignInTokens
  | MfaRequired
  | Problem<"password_auth_disabled" | "email_password_mismatch" | "bot_challenge_required" | "bot_challenge_failed" | "sso_required">;

/**
 * Password sign-ins of one isolate run two at a time, in arrival order. A hash is ~100 ms of CPU
 * on the isolate thread; without a gate a burst interleaves every request's D1 reads and writes
 * with everyone's hashes, so all of them finish together, at the end (issue 16's 32-request burst).
 */
const SIGN_IN_CONCURRENCY = 2;
const signInGate = createHashQueue({ limit: SIGN_IN_CONCURRENCY });

/** `signal`: the request's (aborted when the client disconnects): an abandoned sign-in leaves the hash queues at once. */
type SignInInput = { email: string; password: string; ipInfo: IpInfo; signal?: AbortSignal };

export async function signInWithPassword(
  deps: Deps,
  project: ProjectRow,
  input: SignInInput & { botChallenge?: BotChallengeFields },
): Promise<SignInResult> {
  // Before the hash queue: a bot waits in no line and burns no Argon2 run. The gate also asks the
  // request's risk signals (failures for this address, a disposable domain, a Tor exit) whether a token is due.
  const challenge = await checkBotChallenge(deps, project, "signIn", input.botChallenge ?? {}, {
    email: input.email,
  });
  if (!challenge.ok) return challenge;
  return signInGate.run(() => signInWithPasswordNow(deps, project, input), { signal: input.signal });
}

async function signInWithPasswordNow(deps: Deps, project: ProjectRow, input: SignInInput): Promise<SignInResult> {
  const config = readProjectConfig(project.config);
  if (!config.credential_enabled) return fail("password_auth_disabled");
  const email = normaliseEmail(input.email);
  // One round trip (issue 32): the SSO claim on the address's domain, its user and that user's devices.
  const { ssoDomain, record, devices } = await readPasswordSignIn(deps.db, project.id, email);
  // Before the password is checked (issue 31): an enforced domain's answer does not depend on the password.
  const enforced = await ssoEnforcementOfDomain(deps, project.id, email, ssoDomain);
  if (!enforced.ok) return enforced;
  if (!record?.user.passwordHash) {
    // Same work as a real check: response time does not reveal whether the email exists.
    await burnPasswordCheck(input.password, { signal: input.signal });
    await passwordFailure(deps, project, record?.user.id ?? null, input.email);
    return fail("email_password_mismatch");
  }
  const check = await verifyPassword(input.password, record.user.passwordHash, { signal: input.signal });
  if (!check.ok) {
    await passwordFailure(deps, project, record.user.id, input.email);
    return fail("email_password_mismatch");
  }
  // The user's primary email may be at an enforced domain though another address signed in (told only after the password).
  // Enforcement is per domain: the same domain as the typed address's was answered above.
  const primary = record.primaryEmail?.value;
  if (primary && emailDomain(primary) !== emailDomain(email)) {
    const primaryEnforced = await checkSsoEnforcement(deps, project.id, primary);
    if (!primaryEnforced.ok) return primaryEnforced;
  }
  if (check.needsRehash) {
    const userId = record.user.id;
    deps.defer(hashPassword(input.password).then((passwordHash) => updateUserStatement(deps.db, project.id, userId, { passwordHash })));
  }
  const finished = await finishFirstFactor(deps, project, record, {
    isNewUser: false,
    ipInfo: input.ipInfo,
    method: "password",
    email: input.email,
    devices,
  });
  return finished.ok ? finished.tokens : finished;
}

/**
 * A failed password sign-in, for the owner's and the user's view (no email: an unknown address names no one),
 * with the request's risk signals (failures so far, disposable domain, Tor; services/protection/risk.ts).
 */
async function passwordFailure(deps: Deps, project: ProjectRow, userId: string | null, email: string): Promise<void> {
  const { score, signals } = await assessSignInRequest(deps, project, { email });
  await eventStatement(
    deps,
    project.id,
    "sign_in.failed",
    { userId },
    { method: "password", reason: "EMAIL_PASSWORD_MISMATCH", risk: { score, signals } },
  );
}

export async function signUpAnonymously(
  deps: Deps,
  project: ProjectRow,
  ipInfo: IpInfo,
): Promise<SignInTokens | Problem<"anonymous_sign_up_disabled">> {
  // Its own switch, as in the reference: independent of sign_up_enabled (guest access with closed sign-up is common).
  if (!readProjectConfig(project.config).anonymous_sign_up_enabled) return fail("anonymous_sign_up_disabled");
  const created = await createUser(deps, project, { isAnonymous: true, signUp: { method: "anonymous" } });
  if (!created.ok) throw new Error(`anonymous sign-up failed: ${created.reason}`);
  const session = await createSessionForUser(deps, project, created.record.user.id, {
    ipInfo,
    origin: { signIn: { method: "anonymous" } },
  });
  if (!session.ok) throw new Error("user vanished during anonymous sign-up");
  return {
    ok: true,
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    userId: created.record.user.id,
    isNewUser: true,
  };
}

export type PasswordChangeResult =
  | { ok: true }
  | PasswordProblem
  | Exclude<UpdateUserResult, { ok: true }>
  | Problem<"no_password" | "old_password_mismatch" | "already_has_password" | "password_auth_disabled">;

/** Changes a password after checking the old one; every other session of the user ends. */
export async function updatePassword(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord,
  input: { oldPassword: string; newPassword: string; keepSessionId: string | null },
): Promise<PasswordChangeResult> {
  if (!user.user.passwordHash) return fail("no_password");
  const check = await verifyPassword(input.oldPassword, user.user.passwordHash);
  if (!check.ok) return fail("old_password_mismatch");
  const result = await updateUser(deps, project, user.user.id, { password: input.newPassword }, { keepSessionId: input.keepSessionId });
  if (!result.ok) return result;
  deps.defer(notifyPasswordChanged(deps, project, user.user.id));
  return { ok: true };
}

/** Sets the first password of a user who has none (e.g. signed up without one). */
export async function setPassword(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord,
  input: { password: string; keepSessionId: string | null },
): Promise<PasswordChangeResult> {
  // A project without password sign-in gives no one a password to sign in with (as the reference).
  if (!readProjectConfig(project.config).credential_enabled) return fail("password_auth_disabled");
  if (user.user.passwordHash) return fail("already_has_password");
  const result = await updateUser(deps, project, user.user.id, { password: input.password }, { keepSessionId: input.keepSessionId });
  return result.ok ? { ok: true } : result;
}
