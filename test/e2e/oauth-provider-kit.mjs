/**
 * What the scenarios with outside OAuth clients share (openid-client-scenario.mjs, mcp-scenario.mjs):
 * a Doorman project set up as an OpenID provider through the console's admin API, an end user signed
 * up on the project's hosted pages, a local redirect-URI server that receives the app's callback, and
 * the walk through the consent page in Chromium (oauth-design.md: /oauth/authorize → the hosted
 * `oauth-consent` page → approve → the redirect URI with code, state and iss).
 */
import { createServer } from "node:http";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

/** The consent page's approve button (its label is the consent page's to choose; these are the plain ones). */
export const APPROVE_BUTTON = /^(allow|approve|authorize|accept)\b/i;

/**
 * A new owner's project with `doorman.oauthProvider` overridden by `provider` (e.g. { dynamicRegistration: true }):
 * `{ projectId, adminKey, api, issuer }`, where `api` calls the project's admin API.
 */
export async function setUpProviderProject(page, origin, { label, projectName, provider = {} }) {
  const stamp = Date.now().toString(36);
  const project = await signUpOwnerWithProject(page, origin, {
    email: `${label}-owner-${stamp}@example.com`,
    password: "provider-owner-password",
    projectName,
  });
  const api = adminApi(origin, project);
  const override = Object.fromEntries(Object.entries(provider).map(([key, value]) => [`doorman.oauthProvider.${key}`, value]));
  if (Object.keys(override).length) {
    const res = await api("/internal/config/override/environment", {
      method: "PATCH",
      body: { config_override_string: JSON.stringify(override) },
    });
    assert.equal(res.status, 200, `the provider settings were refused: ${JSON.stringify(res.body)}`);
  }
  return { ...project, api, issuer: `${origin}/api/v1/projects/${project.projectId}` };
}

/** Registers an app in the project's client registry (POST /internal/oauth-clients): the client and, once, its secret. */
export async function registerClient(api, body) {
  const res = await api("/internal/oauth-clients", { method: "POST", body });
  assert.ok(res.status === 200 || res.status === 201, `the client registry refused the app: ${res.status} ${JSON.stringify(res.body)}`);
  assert.match(res.body.client_id, /^dmc_/);
  return res.body;
}

/** Signs an end user up on the project's hosted sign-up page: the browser then holds their session there. */
export async function signUpEndUser(page, origin, projectId, { email, password }) {
  const input = (label) => page.getByLabel(label, { exact: true });
  const signUpPath = `/p/${projectId}/handler/sign-up`;
  await page.goto(`${origin}${signUpPath}`);
  await input("Email").fill(email);
  await input("Password").fill(password);
  await input("Repeat password").fill(password);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== signUpPath);
}

/**
 * A local app's redirect URI (`http://127.0.0.1:PORT/callback`, loopback http as RFC 8252 §7.3 allows):
 * it answers a small page and keeps every callback URL it received.
 */
export async function startCallbackServer() {
  const hits = [];
  const server = createServer((req, res) => {
    hits.push(new URL(req.url ?? "/", "http://127.0.0.1"));
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end('<!doctype html><html lang="en"><title>Back at the app</title><h1>Back at the app</h1></html>');
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return {
    redirectUri: `http://127.0.0.1:${server.address().port}/callback`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/**
 * Opens `authorizationUrl` in the browser, approves on the consent page (when it shows: a consent the
 * user already gave may go straight back), and answers the callback URL the browser lands on.
 * `consent`: { appName, email } the page must show (and it must show), or undefined.
 */
export async function authorizeInBrowser(page, authorizationUrl, redirectUri, { consent, shot } = {}) {
  // waitForURL resolves at once when the page is already at the redirect URI (the previous flow's landing):
  // start from a blank page, so only this flow's redirect counts.
  await page.goto("about:blank");
  const landed = page.waitForURL((url) => url.href.startsWith(redirectUri), { timeout: 30_000 });
  landed.catch(() => {});
  await page.goto(String(authorizationUrl));
  const approve = page.getByRole("button", { name: APPROVE_BUTTON });
  const first = await Promise.race([landed.then(() => "landed"), approve.waitFor({ timeout: 30_000 }).then(() => "consent")]);
  if (consent) assert.equal(first, "consent", "the consent page showed");
  if (first === "consent") {
    const { projectId } = consent ?? {};
    const here = new URL(page.url());
    assert.ok(here.pathname.endsWith("/oauth-consent"), `the consent page is the hosted oauth-consent page: ${here.href}`);
    assert.ok(here.searchParams.get("request_id"), "the consent page names the authorization request");
    if (projectId) assert.ok(here.pathname.startsWith(`/p/${projectId}/`), "the consent page is the project's hosted page");
    if (consent?.appName) await page.getByText(consent.appName).first().waitFor();
    if (consent?.email) await page.getByText(consent.email).first().waitFor();
    await shot?.();
    await approve.click();
    await landed;
  }
  return new URL(page.url());
}
