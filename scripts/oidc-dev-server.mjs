#!/usr/bin/env node
// The bundled OpenID provider for local development and tests (npm `oidc-provider`). Every
// "shared" OAuth provider of a project talks to it when the worker has OAUTH_MOCK_ISSUER set,
// so OAuth sign-in works offline end to end.
//   - one public client, id "MOCK" (no secret needed; PKCE S256 required), any redirect URI;
//   - one confidential client, id "DOORMAN-SSO" (secret SSO_CLIENT_SECRET, client_secret_basic): an
//     enterprise SSO OIDC connection's client (issue 31; test/worker/sso-flow-*.test.ts, the sso e2e);
//   - the form sign-in reports amr ["pwd"] (a password-like sign-in) in the ID token;
//   - sign-in: a one-field form where any email is accepted; the subject is derived from the
//     email (stable across restarts), the email is reported as verified;
//   - refresh tokens are issued (grant type refresh_token), so connected accounts can refresh.
// Used by scripts/start.mjs, test/global-setup.ts and test/e2e/stack.mjs.
// Standalone: `node scripts/oidc-dev-server.mjs` (PORT, default 8114).
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import Provider from "oidc-provider";

export const MOCK_CLIENT_ID = "MOCK";
/** The enterprise SSO test connection's client (confidential: its secret is sealed in the connection's config). */
export const SSO_CLIENT_ID = "DOORMAN-SSO";
export const SSO_CLIENT_SECRET = "doorman-sso-dev-client-secret";

/** The stable subject of an email: the same person always gets the same account id. */
export function subjectOf(email) {
  return `mock-${createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 24)}`;
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid, clientId, error) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Doorman dev OpenID provider</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}
input,button{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;margin:.25rem 0}</style></head>
<body><h1>Dev sign-in</h1>
<p>Local OpenID provider for <code>${escapeHtml(clientId)}</code>. Any email signs in; nothing leaves this machine.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required autofocus>
<button type="submit">Sign in</button>
</form></body></html>`;
}

async function readForm(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** Starts the provider on 127.0.0.1:`port` (0 = any free port). */
export async function startOidcDevServer({ port = 0, host = "127.0.0.1", issuerHost = host } = {}) {
  const emails = new Map(); // subject -> email, for the claims of signed-in subjects
  let issuer = "";
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  issuer = `http://${issuerHost}:${server.address().port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: MOCK_CLIENT_ID,
        token_endpoint_auth_method: "none",
        redirect_uris: ["http://localhost/api/v1/auth/oauth/callback/mock"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
      {
        client_id: SSO_CLIENT_ID,
        client_secret: SSO_CLIENT_SECRET,
        token_endpoint_auth_method: "client_secret_basic",
        redirect_uris: ["http://localhost/api/v1/auth/sso/oidc/connection/callback"],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    scopes: ["openid", "email", "profile", "offline_access"],
    claims: { openid: ["sub", "amr"], email: ["email", "email_verified"], profile: ["name"] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ["doorman-dev-oidc-cookie-key"] },
    conformIdTokenClaims: false,
    ttl: {
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 86_400,
      Grant: 86_400,
      AccessToken: 3600,
      IdToken: 3600,
      RefreshToken: 14 * 86_400,
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const email = emails.get(sub);
      if (!email) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email, email_verified: true, name: email.split("@")[0] }) };
    },
  });
  // A dev/test stand-in for many providers: any redirect URI of any Doorman instance is fine.
  provider.Client.prototype.redirectUriAllowed = () => true;
  const callback = provider.callback();

  // Test hooks of the reference suite's mock OAuth server (npm run compat:reference), on this
  // loopback-only dev provider: the next refresh of a grant fails with a chosen OAuth error, or a
  // grant / an access token is revoked, as if the user had done it at the provider.
  const refreshErrorsByGrant = new Map();
  const REFRESH_ERRORS = {
    invalid_grant: "The refresh token is invalid or expired",
    access_denied: "The resource owner denied the request",
    consent_required: "User consent is required",
    invalid_token: "The token is invalid",
    unauthorized_client: "The client is not authorized",
  };
  const json = (res, status, body) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  async function testHook(req, res, path) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body = {};
    try {
      body = raw.trim().startsWith("{") ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw));
    } catch {}
    const accessToken = body.token ? await provider.AccessToken.find(String(body.token)).catch(() => undefined) : undefined;
    if (!body.token) return json(res, 400, { error: "invalid_request", error_description: "Missing token parameter" });
    if (path === "/revoke-access-token") {
      await accessToken?.destroy();
      return json(res, 200, { success: true });
    }
    if (!accessToken?.grantId) return json(res, 400, { error: "invalid_token", error_description: "Access token not found" });
    if (path === "/revoke-refresh-token") {
      await (await provider.Grant.find(accessToken.grantId))?.destroy();
      return json(res, 200, { success: true });
    }
    const description = REFRESH_ERRORS[body.error_type];
    if (!description) return json(res, 400, { error: "invalid_request", error_description: "Invalid error_type" });
    refreshErrorsByGrant.set(accessToken.grantId, { error: body.error_type, error_description: description });
    return json(res, 200, { success: true });
  }

  server.on("request", async (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "POST" && ["/simulate-refresh-error", "/revoke-refresh-token", "/revoke-access-token"].includes(path)) {
      return testHook(req, res, path).catch((err) => json(res, 500, { error: "server_error", error_description: err.message }));
    }
    if (req.method === "POST" && path === "/token" && refreshErrorsByGrant.size > 0) {
      // Read the form here (oidc-provider takes a parsed req.body) to see whether a simulated error is due.
      const form = await readForm(req);
      req.body = Object.fromEntries(form);
      if (form.get("grant_type") === "refresh_token" && form.get("refresh_token")) {
        const refreshToken = await provider.RefreshToken.find(form.get("refresh_token")).catch(() => undefined);
        const simulated = refreshToken?.grantId ? refreshErrorsByGrant.get(refreshToken.grantId) : undefined;
        if (simulated) {
          refreshErrorsByGrant.delete(refreshToken.grantId);
          return json(res, 400, simulated);
        }
      }
      return callback(req, res);
    }
    const match = /^\/interaction\/([^/?]+)(\/login)?/.exec(req.url ?? "");
    if (!match) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (req.method === "GET" && !match[2]) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(loginPage(details.uid, details.params.client_id));
      }
      const form = await readForm(req);
      // oidc-provider's development-interaction protocol (the reference suite's mock OAuth server
      // speaks it: npm run compat:reference): POST /interaction/{uid} with prompt=login (login=email),
      // then, as a second interaction, prompt=consent.
      if (!match[2] && form.get("prompt") === "consent") {
        const grant = details.grantId
          ? await provider.Grant.find(details.grantId)
          : new provider.Grant({ accountId: details.session?.accountId, clientId: details.params.client_id });
        grant.addOIDCScope(String(details.params.scope ?? "openid"));
        const grantId = await grant.save();
        return await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      }
      const fromPrompt = !match[2] && form.get("prompt") === "login";
      const email = (fromPrompt ? form.get("login") : form.get("email"))?.trim().toLowerCase() ?? "";
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
        res.writeHead(400, { "content-type": "text/html; charset=utf-8" });
        return res.end(loginPage(details.uid, details.params.client_id, "Enter an email address."));
      }
      const accountId = subjectOf(email);
      emails.set(accountId, email);
      if (fromPrompt) return await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
      const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
      grant.addOIDCScope(String(details.params.scope ?? "openid"));
      const grantId = await grant.save();
      // amr: the form is the user's own sign-in (an SSO connection passes RFC 8176 values through to its sessions).
      const login = { accountId, amr: ["pwd"] };
      await provider.interactionFinished(req, res, { login, consent: { grantId } }, { mergeWithLastSubmission: false });
    } catch (err) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
      res.end(`Interaction failed: ${err.message}`);
    }
  });

  return {
    issuer,
    port: server.address().port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { issuer } = await startOidcDevServer({ port: Number(process.env.PORT || 8114) });
  console.log(`Doorman dev OpenID provider on ${issuer} (client id ${MOCK_CLIENT_ID})`);
}
