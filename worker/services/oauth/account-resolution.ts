/**
 * Who a provider identity signs in as (wire §5 "OAuth", callback step): link it to the
 * signed-in user, sign in the user it already belongs to, merge by email per the project's
 * `oauth_account_merge_strategy`, upgrade the current anonymous user, or create a user.
 */
import {
  findOAuthAccountsByProviderAccount,
  findSignInOAuthAccount,
  insertOAuthAccountStatement,
  type SealedProviderTokens,
  updateOAuthAccountTokens,
} from "../../db/queries/oauth-accounts";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord, findUserRecordByAuthEmail, isUniqueViolation } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventStatement } from "../events";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { checkSignUpRules } from "../sign-up-rules/gate";
import { checkSsoEnforcement } from "../sso/enforcement";
import { createUserWithOAuthProviders, updateUser } from "../users";
import type { ProviderUser } from "./provider-types";

export type ResolveInput = {
  providerConfigId: string;
  providerUser: ProviderUser;
  /** Null when the sign-in brought no provider tokens (native Sign in with Apple): stored ones are kept. */
  tokens: SealedProviderTokens | null;
  type: "authenticate" | "link";
  /** The user of the `token` sent to authorize (link target, or a signed-in/anonymous user). */
  currentUserId: string | null;
  /** The Turnstile assessment made at authorize (services/protection/bot-challenge.ts); absent = none. */
  turnstileResult?: "ok" | "invalid" | "error";
};

export type ResolveResult =
  | { ok: true; userId: string; isNewUser: boolean }
  | Problem<"user_not_found" | "sign_up_disabled" | "oauth_connection_taken" | "oauth_email_in_use" | "sign_up_rejected" | "sso_required">;

export async function resolveOAuthUser(deps: Deps, project: ProjectRow, input: ResolveInput): Promise<ResolveResult> {
  const { providerUser } = input;
  const existing = await findOAuthAccountsByProviderAccount(deps.db, project.id, input.providerConfigId, providerUser.accountId);

  if (input.type === "link") {
    const target = input.currentUserId ? await findUserRecord(deps.db, project.id, input.currentUserId) : null;
    if (!target) return fail("user_not_found");
    // One sign-in identity per provider account: linking another user's would hand them a sign-in.
    if (existing.some((a) => a.userId !== target.user.id && a.allowSignIn)) return fail("oauth_connection_taken");
    const mine = existing.find((a) => a.userId === target.user.id);
    if (mine) await refreshAccount(deps, mine.id, input);
    else if (!(await attachAccount(deps, project, target.user.id, input))) return fail("oauth_connection_taken");
    return { ok: true, userId: target.user.id, isNewUser: false };
  }

  // An organization that enforces SSO for the provider's email domain signs its people in through its IdP (issue 31).
  const enforced = await checkSsoEnforcement(deps, project.id, providerUser.email);
  if (!enforced.ok) return enforced;
  const signIn = existing.find((a) => a.allowSignIn);
  if (signIn) {
    // The user this identity signs in as may have their primary email at such a domain, too.
    const primary = (await findUserRecord(deps.db, project.id, signIn.userId))?.primaryEmail?.value;
    const enforcedPrimary = await checkSsoEnforcement(deps, project.id, primary);
    if (!enforcedPrimary.ok) return enforcedPrimary;
    await refreshAccount(deps, signIn.id, input);
    return { ok: true, userId: signIn.userId, isNewUser: false };
  }

  const config = readProjectConfig(project.config);
  let emailAuthEnabled = true;
  const owner = providerUser.email ? await findUserRecordByAuthEmail(deps.db, project.id, providerUser.email) : null;
  if (owner && providerUser.email) {
    const email = providerUser.email;
    if (config.oauth_account_merge_strategy === "raise_error") return fail("oauth_email_in_use", { email, wouldWorkIfVerified: false });
    if (config.oauth_account_merge_strategy === "link_method") {
      // Merge only when both sides proved the address: otherwise whoever registered it first
      // (or a provider that does not verify emails) could take over the other account.
      if (!owner.primaryEmail?.isVerified || !providerUser.emailVerified)
        return fail("oauth_email_in_use", { email, wouldWorkIfVerified: true });
      if (!(await attachAccount(deps, project, owner.user.id, input))) return fail("oauth_connection_taken");
      return { ok: true, userId: owner.user.id, isNewUser: false };
    }
    // allow_duplicates: a separate user, whose copy of the email cannot be used to sign in.
    emailAuthEnabled = false;
  }

  if (!config.sign_up_enabled) return fail("sign_up_disabled");
  const ruled = await checkSignUpRules(deps, project, {
    email: providerUser.email,
    authMethod: "oauth",
    oauthProvider: input.providerConfigId,
    ...(input.turnstileResult ? { turnstileResult: input.turnstileResult } : {}),
  });
  if (!ruled.ok) return ruled;
  const current = input.currentUserId ? await findUserRecord(deps.db, project.id, input.currentUserId) : null;
  if (current?.user.isAnonymous) {
    // Upgrade in place: the anonymous user's data stays with the same id.
    const upgraded = await updateUser(deps, project, current.user.id, {
      isAnonymous: false,
      ...(providerUser.email
        ? { primaryEmail: providerUser.email, primaryEmailVerified: providerUser.emailVerified, primaryEmailAuthEnabled: emailAuthEnabled }
        : {}),
      displayName: current.user.displayName ?? providerUser.displayName,
      profileImageUrl: current.user.profileImageUrl ?? providerUser.profileImageUrl,
      countryCode: current.user.countryCode ?? ruled.countryCode,
      ...ruled.restriction,
      riskScores: ruled.riskScores,
    });
    if (!upgraded.ok) return emailTaken(providerUser.email);
    const userId = current.user.id;
    if (!(await attachAccount(deps, project, userId, input))) return signInAsWinner(deps, project, input);
    return { ok: true, userId, isNewUser: true };
  }
  // The user and its sign-in identity in ONE batch: if a concurrent callback signed this
  // identity up first, the unique sign-in index rejects the whole batch, so no stray user is left.
  const result = await createUserWithOAuthProviders(
    deps,
    project,
    {
      primaryEmail: providerUser.email,
      primaryEmailVerified: providerUser.emailVerified,
      primaryEmailAuthEnabled: emailAuthEnabled,
      displayName: providerUser.displayName,
      profileImageUrl: providerUser.profileImageUrl,
      countryCode: ruled.countryCode,
      ...ruled.restriction,
      riskScores: ruled.riskScores,
      signUp: {
        method: "oauth",
        provider: input.providerConfigId,
        ...(input.turnstileResult ? { turnstile_result: input.turnstileResult } : {}),
      },
    },
    [
      {
        providerConfigId: input.providerConfigId,
        accountId: providerUser.accountId,
        email: providerUser.email,
        tokens: input.tokens ?? NO_TOKENS,
      },
    ],
  );
  if (result.ok) return { ok: true, userId: result.record.user.id, isNewUser: true };
  // Lost a race to a concurrent callback for the same identity (its email or its identity row
  // landed first): sign in as the user it created. Otherwise the email belongs to someone else.
  const winner = await signInAsWinner(deps, project, input);
  return winner.ok ? winner : emailTaken(providerUser.email);
}

const NO_TOKENS: SealedProviderTokens = { accessTokenSealed: null, refreshTokenSealed: null, accessTokenExpiresAt: null, scopes: "" };

/** Stores the sign-in's fresh provider tokens on the account; without any, the stored ones stay. */
async function refreshAccount(deps: Deps, accountId: string, input: ResolveInput): Promise<void> {
  if (input.tokens) await updateOAuthAccountTokens(deps.db, accountId, { ...input.tokens, email: input.providerUser.email });
}

/** A concurrent callback linked this identity first: sign in as the user it went to. */
async function signInAsWinner(deps: Deps, project: ProjectRow, input: ResolveInput): Promise<ResolveResult> {
  const winner = await findSignInOAuthAccount(deps.db, project.id, input.providerConfigId, input.providerUser.accountId);
  return winner ? { ok: true, userId: winner.userId, isNewUser: false } : fail("oauth_connection_taken");
}

function emailTaken(email: string | null): ResolveResult {
  return fail("oauth_email_in_use", { email: email ?? "", wouldWorkIfVerified: false });
}

/** Inserts the account row (usable for sign-in) with its event; false when the unique sign-in index refused it. */
async function attachAccount(deps: Deps, project: ProjectRow, userId: string, input: ResolveInput): Promise<boolean> {
  try {
    await deps.db.batch([
      insertOAuthAccountStatement(deps.db, {
        id: deps.random.uuid(),
        projectId: project.id,
        userId,
        providerConfigId: input.providerConfigId,
        providerAccountId: input.providerUser.accountId,
        email: input.providerUser.email,
        allowSignIn: true,
        allowConnectedAccounts: true,
        ...(input.tokens ?? NO_TOKENS),
        createdAt: deps.now(),
      }),
      eventStatement(
        deps,
        project.id,
        "oauth_account.linked",
        { userId },
        { provider: input.providerConfigId, provider_account_id: input.providerUser.accountId },
      ),
    ]);
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
