/**
 * CORS: any origin may call (the API authenticates by headers, never cookies). Preflights answer with `preflight`,
 * every other answer gets `setCors`'s headers; both from middleware/response-headers.ts.
 * That includes the OpenID provider's public endpoints (discovery, token, userinfo, introspect, revoke,
 * and the origin's /.well-known forms): `*` without credentials, as browser-based apps and MCP clients need.
 */
const ALLOWED_HEADERS = [
  "content-type",
  "authorization",
  ...[
    "project-id",
    "branch-id",
    "override-error-status",
    "random-nonce",
    "client-version",
    "disable-artificial-development-delay",
    "access-type",
    "publishable-client-key",
    "secret-server-key",
    "super-secret-admin-key",
    "admin-access-token",
    "refresh-token",
    "access-token",
    "allow-anonymous-user",
  ].flatMap((h) => [`x-stack-${h}`, `x-hexclave-${h}`]),
  "baggage",
  "sentry-trace",
  "x-vercel-protection-bypass",
  "ngrok-skip-browser-warning",
  "x-doorman-d1-bookmark",
  "x-doorman-device-token",
  // A setup link's token (enterprise SSO, issue 31): the hosted sso-setup page sends it to the management routes.
  "x-doorman-sso-setup-token",
].join(", ");

const EXPOSED_HEADERS = [
  "content-type",
  "x-stack-actual-status",
  "x-stack-known-error",
  "x-hexclave-actual-status",
  "x-hexclave-known-error",
  "x-stack-request-id",
  "x-hexclave-request-id",
  "x-doorman-d1-bookmark",
  // /users/me answered from the token's claims while D1 was away (services/outage/degraded.ts): a browser app may check it.
  "x-doorman-degraded",
  // The OpenID provider's endpoints (routes/oauth-provider/) answer invalid_client / invalid_token with a challenge
  // a browser-based app (a public client) must be able to read.
  "www-authenticate",
].join(", ");

/** The CORS headers of every answer (set by middleware/response-headers.ts). */
export function setCors(headers: Headers) {
  // Any origin may call: the API authenticates by headers, never by cookies (credentials: omit).
  headers.set("access-control-allow-origin", "*");
  headers.set("access-control-allow-methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
  headers.set("access-control-allow-headers", ALLOWED_HEADERS);
  headers.set("access-control-expose-headers", EXPOSED_HEADERS);
  headers.set("access-control-max-age", "86400");
}

/** The answer to a preflight (OPTIONS): 204 with the CORS headers and the request id, before any route. */
export function preflight(requestId: string): Response {
  const headers = new Headers({ "x-stack-request-id": requestId });
  setCors(headers);
  return new Response(null, { status: 204, headers });
}
