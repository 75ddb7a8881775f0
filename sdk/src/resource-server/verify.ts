/**
 * Verification of Doorman-issued OAuth access tokens by a resource server (an owner's API or MCP
 * server), locally: RFC 9068 JWTs (header typ "at+jwt", ES256) signed with the project's key, from
 * the project's issuer, for this resource (`aud`), unexpired, with the scopes a request needs.
 * Doorman's own session access tokens (aud = the project id, no at+jwt type) and ID tokens
 * (aud = the client) are refused, so a token handed to one app cannot be replayed at an API.
 */
import { errors, type JWTPayload, jwtVerify } from "jose";
import { err, ok, type Result } from "../interface/result";
import { type KeySetOptions, keySetFor } from "./jwks";

/** Whose tokens: the issuer itself, or the project and Doorman's API origin it is built from. */
export type TokenIssuerOptions =
  | { issuer: string; projectId?: never; baseUrl?: never; issuerBaseUrl?: never }
  | {
      projectId: string;
      /** Origin of the Doorman API (the JWKS is fetched from here). */
      baseUrl: string;
      /** The API origin in the tokens' `iss` (the worker's API_URL), when it differs from `baseUrl`. */
      issuerBaseUrl?: string;
      issuer?: never;
    };

export type ResourceServerVerifierOptions = TokenIssuerOptions &
  KeySetOptions & {
    /** This API's resource identifier(s) (RFC 8707): the token's `aud` must contain one. */
    audience: string | readonly string[];
    /** Scopes every request needs (a request may ask for more: `verify(token, { requiredScopes })`). */
    requiredScopes?: readonly string[];
    /** The JWKS address, when not `{issuer}/.well-known/jwks.json`. */
    jwksUrl?: string;
    /** Leeway for exp/iat/nbf between this server's clock and Doorman's (default 0 s). */
    clockToleranceSeconds?: number;
    now?: () => number;
  };

/** What a valid token says. `claims` holds every claim (amr, acr, auth_time, jti, …). */
export type VerifiedOAuthAccessToken = {
  userId: string;
  clientId: string;
  scopes: string[];
  /** The team the user bound this token to on the consent page (scope `team`), else null. */
  teamId: string | null;
  grantId: string | null;
  /** Which of this API's audiences the token is for. */
  audience: string;
  issuer: string;
  expiresAtMillis: number;
  claims: JWTPayload & Record<string, unknown>;
};

/** Why a token is refused, as RFC 6750 §3.1 names it: answer 401 (invalid_token) or 403 (insufficient_scope). */
export type OAuthAccessTokenFailure = {
  code: "invalid_token" | "insufficient_scope";
  /** For developers (the `error_description`), never shown to end users. */
  description: string;
  /** With insufficient_scope: the scopes the request needs. */
  requiredScopes?: string[];
};

export type OAuthAccessTokenResult = Result<VerifiedOAuthAccessToken, OAuthAccessTokenFailure>;

export type OAuthAccessTokenVerifier = (token: string, options?: { requiredScopes?: readonly string[] }) => Promise<OAuthAccessTokenResult>;

/** The issuer's keys could not be read (network, timeout, a bad JWKS): not the token's fault, so not a 401. */
export class JwksUnavailableError extends Error {
  constructor(cause: unknown) {
    super("The issuer's JWKS could not be read", { cause });
    this.name = "JwksUnavailableError";
  }
}

/**
 * A verifier of Doorman-issued OAuth access tokens for one API, the JWKS cached in memory.
 *
 * Like any local check it cannot see a revocation: a revoked token verifies until its `exp` (the
 * project's access-token lifetime, 1 h by default). Where that matters, ask the issuer's RFC 7662
 * introspection endpoint instead.
 *
 * @example
 * const verify = createResourceServerVerifier({
 *   issuer: "https://auth.example.com/api/v1/projects/my-project-id",
 *   audience: "https://api.example.com",
 * });
 * const result = await verify(bearerToken, { requiredScopes: ["notes:read"] });
 * if (result.status === "error") return new Response(null, { status: result.error.code === "insufficient_scope" ? 403 : 401 });
 * console.log(result.data.userId, result.data.clientId, result.data.scopes);
 */
export function createResourceServerVerifier(options: ResourceServerVerifierOptions): OAuthAccessTokenVerifier {
  const { issuer, jwksUrl } = issuerAndJwksOf(options);
  const audiences = typeof options.audience === "string" ? [options.audience] : [...options.audience];
  if (audiences.length === 0 || audiences.some((a) => !a)) throw new TypeError("audience: name this API's resource identifier");
  const keys = keySetFor(jwksUrl, options);
  const baseScopes = options.requiredScopes ?? [];

  return async (token, call) => {
    let payload: JWTPayload & Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        algorithms: ["ES256"],
        // RFC 9068 §4: refuse JWTs of other types (session access tokens, ID tokens).
        typ: "at+jwt",
        issuer,
        audience: audiences,
        requiredClaims: ["sub", "exp", "iat", "jti", "client_id"],
        clockTolerance: options.clockToleranceSeconds ?? 0,
        ...(options.now ? { currentDate: new Date(options.now()) } : {}),
      }));
    } catch (error) {
      return err({ code: "invalid_token", description: describe(error) });
    }
    const verified = tokenOf(payload, issuer, audiences);
    if (!verified) return err({ code: "invalid_token", description: "The access token's claims are malformed." });
    const needed = [...new Set([...baseScopes, ...(call?.requiredScopes ?? [])])];
    if (!needed.every((s) => verified.scopes.includes(s))) {
      return err({ code: "insufficient_scope", description: "The access token lacks a scope this request needs.", requiredScopes: needed });
    }
    return ok(verified);
  };
}

/**
 * Verifies one token (the issue's `verifyAccessToken({ audience })`): the same checks as a verifier
 * from `createResourceServerVerifier`, the JWKS shared between calls with the same issuer.
 *
 * @example
 * const result = await verifyAccessToken(token, { audience: "https://mcp.example.com/mcp", projectId, baseUrl });
 * if (result.status === "ok") console.log(result.data.userId);
 */
export function verifyAccessToken(token: string, options: ResourceServerVerifierOptions): Promise<OAuthAccessTokenResult> {
  return createResourceServerVerifier(options)(token);
}

function issuerAndJwksOf(options: ResourceServerVerifierOptions): { issuer: string; jwksUrl: string } {
  const trim = (s: string) => s.replace(/\/+$/, "");
  if (options.issuer !== undefined) {
    const issuer = trim(options.issuer);
    return { issuer, jwksUrl: options.jwksUrl ?? `${issuer}/.well-known/jwks.json` };
  }
  if (!options.projectId || !options.baseUrl) throw new TypeError("name the issuer, or the projectId and baseUrl");
  const path = `/api/v1/projects/${encodeURIComponent(options.projectId)}`;
  const issuer = `${trim(options.issuerBaseUrl ?? options.baseUrl)}/api/v1/projects/${options.projectId}`;
  return { issuer, jwksUrl: options.jwksUrl ?? `${trim(options.baseUrl)}${path}/.well-known/jwks.json` };
}

/** The claims of RFC 9068 and Doorman's additions, each of the type it must have. */
function tokenOf(p: JWTPayload & Record<string, unknown>, issuer: string, audiences: string[]): VerifiedOAuthAccessToken | null {
  const optionalString = (v: unknown) => v === undefined || typeof v === "string";
  if (typeof p.sub !== "string" || !p.sub || typeof p.client_id !== "string" || !p.client_id || typeof p.exp !== "number") return null;
  if (!optionalString(p.scope) || !optionalString(p.team_id) || !optionalString(p.grant_id)) return null;
  const aud = Array.isArray(p.aud) ? p.aud : [p.aud];
  const audience = audiences.find((a) => aud.includes(a));
  if (!audience) return null;
  return {
    userId: p.sub,
    clientId: p.client_id,
    scopes: typeof p.scope === "string" ? p.scope.split(" ").filter(Boolean) : [],
    teamId: (p.team_id as string | undefined) || null,
    grantId: (p.grant_id as string | undefined) || null,
    audience,
    issuer,
    expiresAtMillis: p.exp * 1000,
    claims: p,
  };
}

/** The token's fault, told for developers; anything else (the JWKS unreachable) is thrown. */
function describe(error: unknown): string {
  if (!(error instanceof errors.JOSEError)) throw new JwksUnavailableError(error);
  if (error instanceof errors.JWTExpired) return "The access token expired.";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "The access token is not for this resource.";
    if (error.claim === "iss") return "The access token is from another issuer.";
    if (error.claim === "typ") return "Not an OAuth access token (its type is not at+jwt).";
    if (error.claim === "nbf" || error.claim === "iat") return "The access token is not valid yet.";
    return "The access token lacks a required claim.";
  }
  const tokenFaults: string[] = [
    errors.JWTInvalid.code,
    errors.JWSInvalid.code,
    errors.JWSSignatureVerificationFailed.code,
    errors.JOSEAlgNotAllowed.code,
    errors.JOSENotSupported.code,
    errors.JWKSNoMatchingKey.code,
    errors.JWKSMultipleMatchingKeys.code,
  ];
  if (tokenFaults.includes(error.code)) return "The access token is malformed or its signature does not verify.";
  throw new JwksUnavailableError(error);
}
