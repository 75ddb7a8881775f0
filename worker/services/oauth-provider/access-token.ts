/**
 * The provider's access tokens: RFC 9068 JWTs (header typ "at+jwt"), ES256 with the project's own key
 * (the one its JWKS already publishes), bound to their audience: the RFC 8707 `resource` the app asked
 * for, else the issuer itself (then only /userinfo accepts them). Doorman's own API refuses them as
 * session tokens: its tokens' audience is the project id (crypto/access-tokens.ts), these never are.
 * Verification accepts the previous server secret's key too, while its tokens live.
 */
import { decodeProtectedHeader, errors, type JWTPayload, jwtVerify, SignJWT } from "jose";
import { getSigningKey } from "../../crypto/signing-keys";
import type { Deps } from "../deps";
import { issuerOf } from "./provider";

export type AccessTokenInput = {
  projectId: string;
  userId: string;
  clientId: string;
  /** Space-separated. */
  scope: string;
  /** The RFC 8707 resource; null = the issuer (userinfo). */
  resource: string | null;
  grantId: string;
  /** When the user authenticated (ms). */
  authTime: number;
  teamId: string | null;
  amr: string[] | null;
  acr: string | null;
  ttlSeconds: number;
};

/** The claims of a verified access token. */
export type AccessTokenClaims = JWTPayload & {
  sub: string;
  aud: string;
  client_id: string;
  scope: string;
  grant_id: string;
  exp: number;
  iat: number;
  team_id?: string;
};

/** RFC 9068 §2.1: the media type resource servers check, so an ID token is never taken for an access token. */
export const ACCESS_TOKEN_TYP = "at+jwt";

export async function signProviderAccessToken(deps: Deps, input: AccessTokenInput): Promise<string> {
  const key = await getSigningKey(deps.tokenKeys.secret, input.projectId);
  const iat = Math.floor(deps.now() / 1000);
  return new SignJWT({
    client_id: input.clientId,
    scope: input.scope,
    auth_time: Math.floor(input.authTime / 1000),
    grant_id: input.grantId,
    ...(input.teamId ? { team_id: input.teamId } : {}),
    ...(input.acr ? { acr: input.acr } : {}),
    ...(input.amr?.length ? { amr: input.amr } : {}),
  })
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: ACCESS_TOKEN_TYP })
    .setIssuer(issuerOf(deps, input.projectId))
    .setSubject(input.userId)
    .setAudience(input.resource ?? issuerOf(deps, input.projectId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + input.ttlSeconds)
    .setJti(deps.random.uuid())
    .sign(key.privateKey);
}

function looksLikeAccessToken(token: string): boolean {
  if (token.length > 8192) return false;
  try {
    const header = decodeProtectedHeader(token);
    return header.alg === "ES256" && typeof header.typ === "string" && /^(application\/)?at\+jwt$/i.test(header.typ);
  } catch {
    return false;
  }
}

/**
 * Verifies an access token of this project's provider: signature (current or previous secret),
 * issuer, typ, expiry and the claims the provider always sets. Any audience: the caller checks it.
 * Never throws; null for anything that is not a live access token of this issuer.
 */
export async function verifyProviderAccessToken(deps: Deps, projectId: string, token: string): Promise<AccessTokenClaims | null> {
  if (!looksLikeAccessToken(token)) return null;
  const secrets = [deps.tokenKeys.secret, ...(deps.tokenKeys.previousSecret ? [deps.tokenKeys.previousSecret] : [])];
  for (const secret of secrets) {
    const key = await getSigningKey(secret, projectId);
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        issuer: issuerOf(deps, projectId),
        algorithms: ["ES256"],
        typ: ACCESS_TOKEN_TYP,
        requiredClaims: ["sub", "aud", "exp", "iat", "jti", "client_id", "grant_id"],
        currentDate: new Date(deps.now()),
      });
      const ok =
        typeof payload.aud === "string" &&
        typeof payload.client_id === "string" &&
        typeof payload.grant_id === "string" &&
        typeof payload.scope === "string";
      return ok ? (payload as AccessTokenClaims) : null;
    } catch (err) {
      // Another secret's key may have signed it; any other failure (expired, wrong issuer) is final.
      if (err instanceof errors.JWSSignatureVerificationFailed) continue;
      return null;
    }
  }
  return null;
}
