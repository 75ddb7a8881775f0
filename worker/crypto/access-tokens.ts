/** Access tokens: ES256 JWTs with exactly the 18 claims of wire-protocol.md §4. */
import { compactVerify, decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { getSigningKey } from "./signing-keys";

export type RestrictedReason = { type: "anonymous" | "email_not_verified" | "restricted_by_administrator" };

export type AccessTokenClaims = {
  sub: string;
  project_id: string;
  branch_id: "main";
  refresh_token_id: string;
  role: "authenticated";
  name: string | null;
  email: string | null;
  email_verified: boolean;
  selected_team_id: string | null;
  signed_up_at: number;
  is_anonymous: boolean;
  is_restricted: boolean;
  restricted_reason: RestrictedReason | null;
  requires_totp_mfa: boolean;
};

export type TokenKeys = { secret: string; previousSecret?: string };

export function audienceFor(projectId: string, claims: Pick<AccessTokenClaims, "is_anonymous" | "is_restricted">): string {
  if (claims.is_anonymous) return `${projectId}:anon`;
  if (claims.is_restricted) return `${projectId}:restricted`;
  return projectId;
}

export function issuerFor(apiUrl: string, projectId: string, audience: string): string {
  const kind = audience.endsWith(":anon")
    ? "projects-anonymous-users"
    : audience.endsWith(":restricted")
      ? "projects-restricted-users"
      : "projects";
  return `${apiUrl}/api/v1/${kind}/${projectId}`;
}

export async function signAccessToken(
  keys: TokenKeys,
  apiUrl: string,
  claims: AccessTokenClaims,
  nowMs: number,
  ttlSeconds: number,
): Promise<string> {
  const aud = audienceFor(claims.project_id, claims);
  const key = await getSigningKey(keys.secret, aud);
  const iat = Math.floor(nowMs / 1000);
  const { sub, ...rest } = claims;
  return new SignJWT({ ...rest })
    .setProtectedHeader({ alg: "ES256", kid: key.kid })
    .setSubject(sub)
    .setIssuer(issuerFor(apiUrl, claims.project_id, aud))
    .setAudience(aud)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(key.privateKey);
}

export type DecodedToken =
  | { ok: true; claims: AccessTokenClaims & { aud: string; iss: string; exp: number; iat: number } }
  | { ok: false; reason: "unparsable" }
  | { ok: false; reason: "expired"; expiredAtMs: number; projectId: string | null; userId: string | null; refreshTokenId: string | null };

const ISSUER_PATTERN = /\/api\/v1\/(projects|projects-anonymous-users|projects-restricted-users)\/([^/]+)$/;

/** Verifies signature, expiry and claim consistency. Never throws. */
export async function verifyAccessToken(keys: TokenKeys, token: string, nowMs: number): Promise<DecodedToken> {
  let unverified: ReturnType<typeof decodeJwt>;
  try {
    decodeProtectedHeader(token);
    unverified = decodeJwt(token);
  } catch {
    return { ok: false, reason: "unparsable" };
  }
  const aud = typeof unverified.aud === "string" ? unverified.aud : null;
  const projectId = typeof unverified.project_id === "string" ? unverified.project_id : null;
  if (!aud || !projectId || !(aud === projectId || aud === `${projectId}:anon` || aud === `${projectId}:restricted`)) {
    return { ok: false, reason: "unparsable" };
  }
  const secrets = [keys.secret, ...(keys.previousSecret ? [keys.previousSecret] : [])];
  for (const secret of secrets) {
    const key = await getSigningKey(secret, aud);
    try {
      // The signature covers the payload segment decoded above, so its claims are checked as decoded
      // (jwtVerify would decode and parse them a second time on the hot path of every request).
      await compactVerify(token, key.publicKey, { algorithms: ["ES256"] });
    } catch {
      continue; // Signature mismatch: try the previous secret, else unparsable.
    }
    const nowSeconds = Math.floor(nowMs / 1000);
    // jwtVerify's rules: exp is required here and expired at exp <= now; a future nbf is refused.
    if (
      typeof unverified.exp !== "number" ||
      (unverified.nbf !== undefined && (typeof unverified.nbf !== "number" || unverified.nbf > nowSeconds))
    )
      return { ok: false, reason: "unparsable" };
    if (unverified.exp <= nowSeconds) {
      return {
        ok: false,
        reason: "expired",
        expiredAtMs: unverified.exp * 1000,
        projectId,
        userId: typeof unverified.sub === "string" ? unverified.sub : null,
        refreshTokenId: typeof unverified.refresh_token_id === "string" ? unverified.refresh_token_id : null,
      };
    }
    return checkClaims(unverified as Record<string, unknown>, aud, projectId);
  }
  return { ok: false, reason: "unparsable" };
}

function checkClaims(p: Record<string, unknown>, aud: string, projectId: string): DecodedToken {
  const iss = typeof p.iss === "string" ? ISSUER_PATTERN.exec(p.iss) : null;
  const anon = p.is_anonymous === true;
  const restricted = p.is_restricted === true;
  const consistent =
    iss !== null &&
    iss[2] === projectId &&
    p.branch_id === "main" &&
    typeof p.sub === "string" &&
    typeof p.refresh_token_id === "string" &&
    (anon ? aud.endsWith(":anon") && restricted : restricted ? aud.endsWith(":restricted") : aud === projectId);
  if (!consistent) return { ok: false, reason: "unparsable" };
  return { ok: true, claims: p as DecodedToken extends { ok: true; claims: infer C } ? C : never };
}
