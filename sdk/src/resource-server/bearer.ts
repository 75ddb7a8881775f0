/**
 * The part of the Hono and Express middleware that knows no framework: read the bearer token from
 * the Authorization header (RFC 6750 §2.1; OAuth 2.1 allows no token in the query), verify it, and
 * on refusal the status, `WWW-Authenticate` challenge (RFC 6750 §3 with RFC 9728's
 * resource_metadata) and JSON body to answer.
 */
import { protectedResourceMetadataUrl } from "./metadata";
import {
  createResourceServerVerifier,
  JwksUnavailableError,
  type OAuthAccessTokenVerifier,
  type ResourceServerVerifierOptions,
  type VerifiedOAuthAccessToken,
} from "./verify";
import { type BearerErrorCode, wwwAuthenticate } from "./www-authenticate";

export type RequireTokenOptions = ResourceServerVerifierOptions & {
  /** Where this API's RFC 9728 metadata is; default: derived from the (first) audience. */
  resourceMetadataUrl?: string;
};

export type BearerRefusal = {
  status: 400 | 401 | 403 | 503;
  headers: Record<string, string>;
  /** No `error` when the request carried no token (as in the challenge). */
  body: { error?: BearerErrorCode | "temporarily_unavailable"; error_description?: string };
};

export type BearerOutcome = { ok: true; token: string; verified: VerifiedOAuthAccessToken } | { ok: false; refusal: BearerRefusal };

/** RFC 6750 §2.1: `Bearer` then one b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** Builds the verifier once and answers, per request, what its Authorization header is worth. */
export function bearerGuard(options: RequireTokenOptions): (authorization: string | undefined) => Promise<BearerOutcome> {
  const verify: OAuthAccessTokenVerifier = createResourceServerVerifier(options);
  const firstAudience = typeof options.audience === "string" ? options.audience : options.audience[0];
  const resourceMetadataUrl = options.resourceMetadataUrl ?? protectedResourceMetadataUrl(firstAudience ?? "");
  const scope = options.requiredScopes?.length ? options.requiredScopes : undefined;
  const refuse = (status: BearerRefusal["status"], error?: BearerErrorCode, description?: string, needed = scope): BearerOutcome => ({
    ok: false,
    refusal: {
      status,
      headers: {
        "content-type": "application/json",
        // RFC 6750 §3.1: with no token in the request, no error code nor description in the challenge.
        "www-authenticate": wwwAuthenticate({ resourceMetadataUrl, error, errorDescription: error && description, scope: needed }),
      },
      body: { ...(error ? { error } : {}), ...(description ? { error_description: description } : {}) },
    },
  });

  return async (authorization) => {
    // RFC 6750 §3.1: a request with no credentials gets the challenge without an error code.
    if (!authorization || !/^Bearer(\s|$)/i.test(authorization)) return refuse(401, undefined, "An access token is required.");
    const token = BEARER.exec(authorization)?.[1];
    if (!token) return refuse(400, "invalid_request", "The Authorization header is not `Bearer <token>`.");
    let result: Awaited<ReturnType<OAuthAccessTokenVerifier>>;
    try {
      result = await verify(token);
    } catch (error) {
      if (!(error instanceof JwksUnavailableError)) throw error;
      // The issuer's keys are out of reach: not the client's fault, so no challenge that would send it to sign in again.
      return {
        ok: false,
        refusal: {
          status: 503,
          headers: { "content-type": "application/json", "retry-after": "5" },
          body: { error: "temporarily_unavailable", error_description: "The token cannot be checked right now." },
        },
      };
    }
    if (result.status === "ok") return { ok: true, token, verified: result.data };
    const { code, description, requiredScopes } = result.error;
    return code === "insufficient_scope" ? refuse(403, code, description, requiredScopes) : refuse(401, code, description);
  };
}
