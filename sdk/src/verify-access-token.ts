/**
 * Server-side verification of a Doorman access token with no request to Doorman per token: the
 * project's JWKS is fetched once and cached (jose's remote JWK set: kept for `cacheMaxAgeMs`,
 * refetched at most every `cooldownMs` when a token names an unknown key, e.g. after a rotation),
 * and every check after that is a local ES256 verification plus the claim rules of wire §4.
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import type { FetchLike } from "./interface/http";

export type AccessTokenVerifierOptions = {
  projectId: string;
  /** Origin of the Doorman API, as the apps take it (the JWKS is fetched from here). */
  baseUrl: string;
  /** The API origin in the tokens' `iss` (the worker's API_URL), when it differs from `baseUrl`. */
  issuerBaseUrl?: string;
  /** Accept anonymous users' tokens (implies restricted ones). Default false, as `getUser`. */
  includeAnonymous?: boolean;
  /** Accept restricted users' tokens (e.g. unverified email). Default false. */
  includeRestricted?: boolean;
  /** A JWKS you already hold: no network at all. */
  jwks?: JSONWebKeySet;
  fetch?: FetchLike;
  /** How long a fetched JWKS is trusted (default 10 min, under the endpoint's cache lifetime). */
  cacheMaxAgeMs?: number;
  /** The least time between two fetches on an unknown key id (default 30 s). */
  cooldownMs?: number;
  now?: () => number;
};

/** The verified identity in a token. `claims` holds all 18 wire claims. */
export type VerifiedAccessToken = {
  userId: string;
  projectId: string;
  sessionId: string;
  isAnonymous: boolean;
  isRestricted: boolean;
  expiresAtMillis: number;
  claims: JWTPayload & Record<string, unknown>;
};

/** Verifies one token: the identity, or null when it is invalid, expired, or of another project. */
export type AccessTokenVerifier = (accessToken: string) => Promise<VerifiedAccessToken | null>;

/**
 * A verifier for one project's access tokens, with the JWKS cached in memory.
 *
 * It checks the signature, expiry and project locally, so it cannot see a session that ended
 * (sign-out, "sign out of all other devices", a revoked session, a password reset, the project's
 * session policy): such a token still verifies until its `exp`, at most the access-token lifetime
 * (10 minutes by default). Doorman's own API refuses it at once. Where that window matters (e.g.
 * before a payment or a change of email), ask the API instead: `GET /users/me` with the token.
 *
 * @example
 * const verify = createAccessTokenVerifier({ projectId, baseUrl: "https://auth.example.com" });
 * const who = await verify(request.headers.get("x-stack-access-token") ?? "");
 * if (!who) return new Response("Unauthorized", { status: 401 });
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const { projectId } = options;
  const includeAnonymous = options.includeAnonymous ?? false;
  const includeRestricted = includeAnonymous || (options.includeRestricted ?? false);
  const base = options.baseUrl.replace(/\/+$/, "");
  const issuerBase = (options.issuerBaseUrl ?? base).replace(/\/+$/, "");
  const now = options.now ?? Date.now;

  // Each accepted audience with its issuer (wire §4); the JWKS query asks for exactly their keys.
  const issuers = new Map<string, string>([[projectId, `${issuerBase}/api/v1/projects/${projectId}`]]);
  if (includeRestricted) issuers.set(`${projectId}:restricted`, `${issuerBase}/api/v1/projects-restricted-users/${projectId}`);
  if (includeAnonymous) issuers.set(`${projectId}:anon`, `${issuerBase}/api/v1/projects-anonymous-users/${projectId}`);
  const query = includeAnonymous ? "?include_anonymous=true" : includeRestricted ? "?include_restricted=true" : "";
  const fetchImpl = options.fetch;

  const keys: JWTVerifyGetKey = options.jwks
    ? createLocalJWKSet(options.jwks)
    : createRemoteJWKSet(new URL(`${base}/api/v1/projects/${encodeURIComponent(projectId)}/.well-known/jwks.json${query}`), {
        cacheMaxAge: options.cacheMaxAgeMs ?? 10 * 60_000,
        cooldownDuration: options.cooldownMs ?? 30_000,
        ...(fetchImpl ? { [customFetch]: (url: string, init: RequestInit) => fetchImpl(url, init) } : {}),
      });
  const verifyOptions = { algorithms: ["ES256"], audience: [...issuers.keys()], issuer: [...issuers.values()] };

  return async (accessToken) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(accessToken, keys, { ...verifyOptions, currentDate: new Date(now()) }));
    } catch {
      // Bad signature, unknown key, expired, wrong audience or issuer: all mean "not signed in".
      return null;
    }
    return identityOf(payload as JWTPayload & Record<string, unknown>, projectId, issuers);
  };
}

/** The claim rules the worker applies too: one audience, its own issuer, and consistent flags. */
function identityOf(p: JWTPayload & Record<string, unknown>, projectId: string, issuers: Map<string, string>): VerifiedAccessToken | null {
  const aud = typeof p.aud === "string" ? p.aud : null;
  const anon = p.is_anonymous === true;
  const restricted = p.is_restricted === true;
  const consistent =
    aud !== null &&
    issuers.get(aud) === p.iss &&
    p.project_id === projectId &&
    p.branch_id === "main" &&
    typeof p.sub === "string" &&
    typeof p.refresh_token_id === "string" &&
    typeof p.exp === "number" &&
    (anon ? aud.endsWith(":anon") && restricted : restricted ? aud.endsWith(":restricted") : aud === projectId);
  if (!consistent) return null;
  return {
    userId: p.sub as string,
    projectId,
    sessionId: p.refresh_token_id as string,
    isAnonymous: anon,
    isRestricted: restricted,
    expiresAtMillis: (p.exp as number) * 1000,
    claims: p,
  };
}
