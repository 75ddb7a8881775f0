/**
 * How the provider's endpoints answer on their wire: RFC 6749 §5.2 JSON errors (invalid_client 401
 * with WWW-Authenticate; RFC 6750 §3 for the Bearer-protected userinfo), no-store on every token
 * answer, the request's raw parameters (to refuse repeated ones), and the route group's error
 * handler that turns an unreadable or mistyped request into invalid_request instead of SCHEMA_ERROR.
 */
import { KnownError } from "@doorman/shared/known-errors";
import type { Context, ErrorHandler } from "hono";
import type { AppEnv } from "../../http/hono-env";
import type { ClientCredentials } from "../../services/oauth-provider/client-auth";
import type { ProtocolError } from "../../services/oauth-provider/protocol-error";

/** Token answers carry credentials: no cache may keep them (RFC 6749 §5.1). */
export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const;

function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, "")}"`;
}

/** A ProtocolError as the wire wants it. `realm` names the issuer in WWW-Authenticate. */
export function protocolErrorResponse(c: Context<AppEnv>, err: ProtocolError, realm: string): Response {
  const headers: Record<string, string> = { ...NO_STORE };
  let status: 400 | 401 | 403 = 400;
  if (err.error === "invalid_client") {
    status = 401;
    headers["www-authenticate"] = `Basic realm=${quoted(realm)}`;
  } else if (err.error === "invalid_token" || err.error === "insufficient_scope") {
    status = err.error === "invalid_token" ? 401 : 403;
    const scope = err.error === "insufficient_scope" ? ', scope="openid"' : "";
    headers["www-authenticate"] =
      `Bearer realm=${quoted(realm)}, error=${quoted(err.error)}, error_description=${quoted(err.description)}${scope}`;
  }
  return c.json({ error: err.error, error_description: err.description }, status, headers);
}

/** The client's credentials as a token, introspection or revocation request carries them (header and body, RFC 6749 §2.3). */
export function clientCredentialsOf(
  c: Context<AppEnv>,
  body: { client_id?: string; client_secret?: string; client_assertion_type?: string; client_assertion?: string },
): ClientCredentials {
  return {
    authorization: c.req.header("authorization"),
    clientId: body.client_id,
    clientSecret: body.client_secret,
    clientAssertionType: body.client_assertion_type,
    clientAssertion: body.client_assertion,
  };
}

/** RFC 6750 §3.1: a request without a token gets the challenge without an error code. */
export function bearerChallenge(c: Context<AppEnv>, realm: string): Response {
  return c.json({ error: "invalid_token", error_description: "The request carries no access token." }, 401, {
    ...NO_STORE,
    "www-authenticate": `Bearer realm=${quoted(realm)}`,
  });
}

/** The request's parameters as sent (query for GET, a form body for POST), to see repeated names. */
export async function rawParams(c: Context<AppEnv>): Promise<URLSearchParams> {
  if (c.req.method === "GET") return new URL(c.req.url).searchParams;
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return new URLSearchParams();
  // The body was read once by the validator; Hono keeps it, so this reads no stream twice.
  return new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer()));
}

/** The names given more than once. */
export function repeatedNames(params: URLSearchParams): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of params.keys()) (seen.has(name) ? repeated : seen).add(name);
  return [...repeated];
}

/**
 * The provider group's error handler: a request the declaration could not read or validate is the
 * protocol's invalid_request (the OAuth wire has no SCHEMA_ERROR); anything else goes on to the app's.
 */
export const protocolErrorHandler: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof KnownError && (err.code === "SCHEMA_ERROR" || err.code === "BODY_PARSING_ERROR")) {
    // The message names our own parameters and limits (a JSON body, so nothing in it is markup).
    return c.json({ error: "invalid_request", error_description: err.message }, 400, { ...NO_STORE });
  }
  throw err;
};
