/** Access tokens: ES256 JWTs with exactly the 18 claims of wire-protocol.md §4. */
import { base64url, compactVerify, decodeJwt, decodeProtectedHeader } from "jose";
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

/**
 * Signs with WebCrypto directly: the same compact JWS as jose's SignJWT (header {alg, kid}; the claims, then sub, iss,
 * aud, iat, exp, in that order), without its claim-set clone and checks, which were a third of a refresh's signing CPU.
 * ECDSA's WebCrypto signature is already JWS's r||s form. test/worker/tokens.test.ts compares both byte for byte.
 */
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
  const payload = { ...rest, sub, iss: issuerFor(apiUrl, claims.project_id, aud), aud, iat, exp: iat + ttlSeconds };
  const input = `${base64url.encode(JSON.stringify({ alg: "ES256", kid: key.kid }))}.${base64url.encode(JSON.stringify(payload))}`;
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key.privateKey, textEncoder.encode(input));
  return `${input}.${base64url.encode(new Uint8Array(signature))}`;
}

const textEncoder = new TextEncoder();

export type DecodedToken =
  | { ok: true; claims: AccessTokenClaims & { aud: string; iss: string; exp: number; iat: number } }
  | { ok: false; reason: "unparsable" }
  | { ok: false; reason: "expired"; expiredAtMs: number; projectId: string | null; userId: string | null; refreshTokenId: string | null };

const ISSUER_PATTERN = /\/api\/v1\/(projects|projects-anonymous-users|projects-restricted-users)\/([^/]+)$/;

/**
 * Tokens whose signature this isolate already checked, with their decoded claims and the secret that verified them.
 * An app sends the same access token on every request for its lifetime (10 minutes by default), and the ES256 check
 * (with decoding the token twice) was the largest piece of an authenticated read's CPU (docs/perf/README.md).
 * Bounded: dropped whole when full, as the route cache (http/cached-router.ts).
 */
const verifiedTokens = new Map<string, { payload: Record<string, unknown>; aud: string; projectId: string; secret: string }>();
const MAX_VERIFIED_TOKENS = 1_000;

/** Verifies signature, expiry and claim consistency. Never throws. */
export async function verifyAccessToken(keys: TokenKeys, token: string, nowMs: number): Promise<DecodedToken> {
  // Why a cache is safe: the key is the whole token (signature included) and the hit counts only while the secret that
  // verified it is still one of the current two; the time and claim checks below still run on every request.
  const known = verifiedTokens.get(token);
  if (known && (known.secret === keys.secret || known.secret === keys.previousSecret)) {
    return checkVerified(known.payload, known.aud, known.projectId, nowMs);
  }
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
    // Frozen: every later request with this token shares the object.
    const payload = Object.freeze(unverified) as Record<string, unknown>;
    if (verifiedTokens.size >= MAX_VERIFIED_TOKENS) verifiedTokens.clear();
    verifiedTokens.set(token, { payload, aud, projectId, secret });
    return checkVerified(payload, aud, projectId, nowMs);
  }
  return { ok: false, reason: "unparsable" };
}

/** The checks after a valid signature: expiry and not-before at `nowMs`, then the claims' consistency. */
function checkVerified(p: Record<string, unknown>, aud: string, projectId: string, nowMs: number): DecodedToken {
  const nowSeconds = Math.floor(nowMs / 1000);
  // jwtVerify's rules: exp is required here and expired at exp <= now; a future nbf is refused.
  if (typeof p.exp !== "number" || (p.nbf !== undefined && (typeof p.nbf !== "number" || p.nbf > nowSeconds))) {
    return { ok: false, reason: "unparsable" };
  }
  if (p.exp <= nowSeconds) {
    return {
      ok: false,
      reason: "expired",
      expiredAtMs: p.exp * 1000,
      projectId,
      userId: typeof p.sub === "string" ? p.sub : null,
      refreshTokenId: typeof p.refresh_token_id === "string" ? p.refresh_token_id : null,
    };
  }
  return checkClaims(p, aud, projectId);
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
