/**
 * The provider's ID tokens (OpenID Connect Core §2, §3.1.3.6): ES256 with the project's key, for the
 * app (aud = azp = client_id), with auth_time, nonce, amr/acr from the sign-in, at_hash, and the
 * profile, email and team claims the granted scopes allow.
 */
import { base64url, SignJWT } from "jose";
import { getSigningKey } from "../../crypto/signing-keys";
import type { UserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { issuerOf } from "./provider";

/** The acr of a sign-in with a second factor (OpenID PAPE's multi-factor policy, as the design says). */
export const ACR_MULTI_FACTOR = "http://schemas.openid.net/pape/policies/2007/06/multi-factor";

/** The user's claims a set of scopes releases (ID token and userinfo): profile → name, picture; email → email, email_verified. */
export function scopedUserClaims(record: UserRecord, scopes: readonly string[], teamId: string | null): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  if (scopes.includes("profile")) {
    // OIDC Core §5.3.2: a claim without a value is omitted, not sent as null.
    if (record.user.displayName) claims.name = record.user.displayName;
    if (record.user.profileImageUrl) claims.picture = record.user.profileImageUrl;
  }
  if (scopes.includes("email") && record.primaryEmail) {
    claims.email = record.primaryEmail.value;
    claims.email_verified = record.primaryEmail.isVerified;
  }
  if (teamId) claims.team_id = teamId;
  return claims;
}

/** OIDC Core §3.1.3.6: the left half of the access token's SHA-256, base64url. */
export async function atHash(accessToken: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(accessToken)));
  return base64url.encode(digest.slice(0, 16));
}

export type IdTokenInput = {
  projectId: string;
  clientId: string;
  record: UserRecord;
  scopes: readonly string[];
  teamId: string | null;
  /** ms */
  authTime: number;
  nonce: string | null;
  amr: string[] | null;
  acr: string | null;
  accessToken: string;
  ttlSeconds: number;
};

export async function signIdToken(deps: Deps, input: IdTokenInput): Promise<string> {
  const key = await getSigningKey(deps.tokenKeys.secret, input.projectId);
  const iat = Math.floor(deps.now() / 1000);
  return new SignJWT({
    azp: input.clientId,
    auth_time: Math.floor(input.authTime / 1000),
    ...(input.nonce !== null ? { nonce: input.nonce } : {}),
    ...(input.amr?.length ? { amr: input.amr } : {}),
    ...(input.acr ? { acr: input.acr } : {}),
    at_hash: await atHash(input.accessToken),
    ...scopedUserClaims(input.record, input.scopes, input.teamId),
  })
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
    .setIssuer(issuerOf(deps, input.projectId))
    .setSubject(input.record.user.id)
    .setAudience(input.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + input.ttlSeconds)
    .sign(key.privateKey);
}
