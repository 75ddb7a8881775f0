/**
 * /auth/sso/saml/{connection_id} (issue 31): a SAML connection's SP metadata, and its Assertion Consumer
 * Service (HTTP-POST binding). The ACS is where a browser lands from the IdP: a success is a 303 to the
 * app (or, IdP-initiated, to the hosted sign-in page); a refusal is a plain HTML page with the known
 * error's code (never the reason, which goes to the `sso.sign_in_refused` event and the log).
 */
import { KnownError } from "@doorman/shared/known-errors";
import type { Context, ErrorHandler } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/hono-env";
import { problemError, unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import type { Problem } from "../../services/result";
import { completeSamlAcs } from "../../services/sso/saml/acs";
import { samlSpMetadata } from "../../services/sso/saml/metadata";
import { MAX_SAML_RESPONSE_LENGTH } from "../../services/sso/saml/response";

const params = z.strictObject({ connection_id: z.string().min(1).max(64) });

const metadata = defineRoute({
  method: "get",
  path: "/saml/{connection_id}/metadata",
  summary: "A SAML SSO connection's service provider metadata",
  description:
    "The SP metadata XML to give the identity provider: entity ID (this URL), the ACS URL (HTTP-POST), the connection's " +
    "certificate for signing and encryption, and the NameID formats read.",
  access: "public",
  params,
  response: { status: 200, description: "SAML 2.0 metadata (XML)", schema: z.string(), contentType: "application/samlmetadata+xml" },
  errors: ["SSO_CONNECTION_NOT_FOUND"],
});

const page = (status: number, description: string) => ({ status, description, schema: z.string(), contentType: "text/html" }) as const;

const acs = defineRoute({
  method: "post",
  path: "/saml/{connection_id}/acs",
  summary: "A SAML SSO connection's Assertion Consumer Service",
  description:
    "The identity provider's browser POST (SAMLResponse, RelayState). A verified response continues the sign-in its RelayState " +
    "started (303 to the app with a code), or, unsolicited (IdP-initiated) and allowed by the connection, 303 to the hosted " +
    "sign-in page, which starts an SP-initiated sign-in. Refusals are an HTML page with the error code.",
  access: "public",
  params,
  // Unknown form fields are ignored: IdPs post extras. A missing SAMLResponse is answered as the HTML page too.
  body: z.looseObject({
    SAMLResponse: z.string().max(MAX_SAML_RESPONSE_LENGTH * 2),
    RelayState: z.string().max(1024).optional(),
  }),
  bodyMediaTypes: ["application/x-www-form-urlencoded"],
  maxBodyBytes: MAX_SAML_RESPONSE_LENGTH * 3,
  response: [
    { status: 303, description: "To the app's redirect URI with a code, to its error URL, or (IdP-initiated) to the hosted sign-in page" },
    page(400, "The response was refused: an HTML page with the known error's code"),
    page(403, "IdP-initiated sign-in not allowed, or the user is deactivated: an HTML page"),
    page(404, "No enabled SAML connection with this id: an HTML page"),
  ],
  errors: [
    "SAML_RESPONSE_INVALID",
    "SSO_CONNECTION_NOT_FOUND",
    "SSO_REQUEST_INVALID",
    "SSO_IDP_INITIATED_NOT_ALLOWED",
    "REDIRECT_URL_NOT_WHITELISTED",
  ],
  rateLimit: { ip: "SSO_AUTHORIZE_PER_IP" },
});

const escapeHtml = (v: string) =>
  v.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

/** The refusal page: the error's message and code, nothing from the request. */
function errorPage(error: KnownError): Response {
  const doc = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Single sign-on failed</title>
<style>body{margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f5f6fa;color:#1f2937}
main{max-width:30rem;margin:12vh auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002}
h1{font-size:1.35rem;margin:0 0 1rem}p{line-height:1.5}code{font-size:.95em}</style></head>
<body><main><h1>Single sign-on failed</h1><p>${escapeHtml(error.message)}</p><p>Error code: <code id="error-code">${escapeHtml(error.code)}</code></p></main></body></html>`;
  // Why: no script, no framing, no form target: the page is inert whatever an IdP posted.
  return new Response(doc, {
    status: error.status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'",
    },
  });
}

/** Any known error of the ACS (bad form, schema, rate limit, refusal) as the HTML page; a 400 for the rest of the 4xx family. */
const acsErrorHandler: ErrorHandler<AppEnv> = (err) => {
  if (err instanceof KnownError) return errorPage(err);
  throw err;
};

/** A problem once the request is known goes back to the app's error URL, as the OAuth callback does, but with 303: the browser must not re-POST the SAMLResponse there. */
function redirectToApp(c: Context<AppEnv>, result: Problem & { errorRedirectUrl: string }): Response {
  const error = problemError(result);
  if (!(error instanceof KnownError)) throw error;
  const target = new URL(result.errorRedirectUrl);
  target.searchParams.set("error", "server_error");
  target.searchParams.set("error_description", error.message);
  target.searchParams.set("errorCode", error.code);
  target.searchParams.set("message", error.message);
  target.searchParams.set("details", JSON.stringify(error.details ?? {}));
  return c.redirect(target.toString(), 303);
}

export const ssoSamlMetadataRoutes = routeGroup();
addRoute(ssoSamlMetadataRoutes, metadata, async (c, { params: p }) => {
  const result = unwrap(await samlSpMetadata(c.get("deps"), p.connection_id));
  return c.body(result.xml, 200, { "content-type": "application/samlmetadata+xml; charset=utf-8" });
});

export const ssoSamlAcsRoutes = routeGroup();
addRoute(ssoSamlAcsRoutes, acs, async (c, { params: p, body }) => {
  const result = await completeSamlAcs(c.get("deps"), {
    connectionId: p.connection_id,
    samlResponse: body.SAMLResponse,
    relayState: body.RelayState ?? null,
  });
  if (result.ok) return c.redirect(result.location, 303);
  if ("errorRedirectUrl" in result && result.errorRedirectUrl) return redirectToApp(c, result);
  throw problemError(result);
});
ssoSamlAcsRoutes.onError(acsErrorHandler);
