/**
 * Native Sign in with Apple (POST /auth/oauth/callback/apple/native): an iOS or macOS app signs the
 * user in with ASAuthorizationController and sends the identity token Apple gave it. The token is
 * verified against Apple's key set (signature, issuer, audience one of the project's bundle ids,
 * expiry), then the user is resolved as in the web flow and a session is minted.
 */
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord } from "../../db/queries/users";
import type { IpInfo } from "../auth/sessions";
import { finishFirstFactor } from "../auth/sign-in";
import type { SignInTokens } from "../auth/sign-in-tokens";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { type ResolveResult, resolveOAuthUser } from "./account-resolution";
import { APPLE } from "./catalogue";
import { verifyIdToken } from "./id-token";
import { findProviderConfig } from "./providers";
import { appleClaimsUser } from "./user-info";

const PROVIDER_ID = "apple";

export type AppleNativeResult =
  | SignInTokens
  | Exclude<ResolveResult, { ok: true }>
  | Problem<
      | "oauth_provider_not_enabled"
      | "apple_bundle_id_not_configured"
      | "apple_credentials_invalid"
      | "oauth_provider_unavailable"
      | "mfa_required"
      | "device_verification_required"
    >;

export async function signInWithAppleIdToken(
  deps: Deps,
  project: ProjectRow,
  input: { idToken: string; ipInfo: IpInfo; currentUserId: string | null },
): Promise<AppleNativeResult> {
  const provider = findProviderConfig(project, PROVIDER_ID);
  if (!provider) return fail("oauth_provider_not_enabled");
  const bundleIds = [...new Set(provider.apple_bundle_ids ?? [])].filter(Boolean);
  if (bundleIds.length === 0) return fail("apple_bundle_id_not_configured");

  // The app's bundle id is the audience: a token Apple issued to another app (or to the web
  // Services ID) must not sign anyone in here (ASVS 6.8.2).
  const verified = await verifyIdToken(
    input.idToken,
    { issuer: APPLE.issuer, jwksUrl: APPLE.keys, audience: bundleIds },
    deps.config.outbound.oauth,
    deps.now(),
  );
  if (!verified.ok) {
    console.warn(`Native Sign in with Apple: ${verified.message}`);
    return fail(verified.kind === "key_set" ? "oauth_provider_unavailable" : "apple_credentials_invalid");
  }
  const providerUser = appleClaimsUser(verified.claims);
  if (!providerUser) return fail("apple_credentials_invalid");

  const resolved = await resolveOAuthUser(deps, project, {
    providerConfigId: PROVIDER_ID,
    providerUser,
    type: "authenticate",
    currentUserId: input.currentUserId,
    // The native flow hands over no provider tokens: whatever a web sign-in stored stays.
    tokens: null,
  });
  if (!resolved.ok) return resolved;
  const user = await findUserRecord(deps.db, project.id, resolved.userId);
  if (!user) return fail("user_not_found");
  const finished = await finishFirstFactor(deps, project, user, {
    isNewUser: resolved.isNewUser,
    ipInfo: input.ipInfo,
    method: "oauth",
    provider: PROVIDER_ID,
  });
  return finished.ok ? finished.tokens : finished;
}
