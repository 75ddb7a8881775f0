/**
 * The OpenID provider's consent page in a browser (issue 30): a project registers a public client
 * whose redirect URI is a tiny local app; the browser starts at the project's /oauth/authorize
 * (code + PKCE S256), signs in on the hosted pages, sees the consent page (the app, the account, the
 * scopes; axe at 1100 and 375 px), allows, and lands on the redirect URI with code, state and iss. A
 * second authorization passes at once (the consent is remembered); account settings list the app and
 * revoke it (after a confirmation); then the page asks again, and Deny answers access_denied. An app
 * that registered itself (RFC 7591) is marked as not verified by the project, and one that asks for a
 * team gets the user's choice of team.
 *
 * Needs the whole provider: the client registry (POST /internal/oauth-clients) and /authorize come
 * from the other parts of issue 30, so these steps run once those are merged.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { checkPage } from "./a11y-scenario.mjs";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

/** A stand-in for the third-party app: its redirect URI answers a page the browser can be seen to land on. */
function startCallbackApp() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><title>Tiny Notes</title><h1>Tiny Notes callback</h1></html>`);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      resolve({
        redirectUri: `http://127.0.0.1:${server.address().port}/callback`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(r);
          }),
      });
    });
  });
}

/** A PKCE pair (RFC 7636, S256). */
function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function defineOAuthConsentSteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const owner = { email: `consent-owner-${stamp}@example.com`, password: "consent-owner-password" };
  const endUser = { email: `consent-user-${stamp}@example.com`, password: "consent-user-password-1" };
  const state = { projectId: "", clientId: "", callback: null, state: "", admin: null, userId: "" };
  const input = (label) => page.getByLabel(label, { exact: true });
  const hosted = () => `${origin}/p/${state.projectId}/handler`;
  const issuer = () => `${origin}/api/v1/projects/${state.projectId}`;

  /** Opens /authorize as a third-party app would send the browser there. */
  async function authorize(scope = "openid email", extra = {}) {
    state.state = randomBytes(8).toString("hex");
    const params = new URLSearchParams({
      response_type: "code",
      client_id: state.clientId,
      redirect_uri: state.callback.redirectUri,
      scope,
      state: state.state,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      ...extra,
    });
    await page.goto(`${issuer()}/oauth/authorize?${params}`);
  }

  /** Waits for the app's redirect URI and answers its query. */
  async function landedOnCallback() {
    await page.waitForURL((url) => url.href.startsWith(state.callback.redirectUri));
    await page.getByRole("heading", { name: "Tiny Notes callback" }).waitFor();
    return new URL(page.url()).searchParams;
  }

  runner.step("oauth-consent: a project registers a public client whose redirect URI is a local app", async () => {
    state.callback = await startCallbackApp();
    const created = await signUpOwnerWithProject(page, origin, { ...owner, projectName: "Consent Shop" });
    state.projectId = created.projectId;
    const admin = adminApi(origin, created);
    state.admin = admin;
    const client = await admin("/internal/oauth-clients", {
      method: "POST",
      body: {
        name: "Tiny Notes",
        client_type: "public",
        token_endpoint_auth_method: "none",
        redirect_uris: [state.callback.redirectUri],
        client_uri: "https://tiny-notes.example",
        policy_uri: "https://tiny-notes.example/privacy",
      },
    });
    assert.ok(client.status === 200 || client.status === 201, JSON.stringify(client.body));
    state.clientId = client.body.client_id;
    const user = await admin("/users", {
      method: "POST",
      body: { primary_email: endUser.email, primary_email_auth_enabled: true, password: endUser.password },
    });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    state.userId = user.body.id;
  });

  runner.step("oauth-consent: /authorize sends a signed-out browser to sign in, then to the consent page", async () => {
    await authorize();
    await page.waitForURL((url) => url.pathname === `/p/${state.projectId}/handler/sign-in`);
    await input("Email").fill(endUser.email);
    await input("Password").fill(endUser.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/p/${state.projectId}/handler/oauth-consent` && url.searchParams.has("request_id"));
    await page.getByRole("heading", { name: "Tiny Notes wants to access your account" }).waitFor();
  });

  runner.step("oauth-consent: the page shows the account, the scopes and the app's links; axe passes", async () => {
    await page.getByText(`Signed in as ${endUser.email}`).waitFor();
    const scopes = page.getByRole("list", { name: "This will allow Tiny Notes to:" });
    assert.deepEqual(await scopes.getByRole("listitem").allTextContents(), ["Know who you are", "See your email address"]);
    assert.equal(await page.getByRole("link", { name: "Privacy policy" }).getAttribute("href"), "https://tiny-notes.example/privacy");
    await page.getByText(`You will return to ${new URL(state.callback.redirectUri).host}.`).waitFor();
    assert.match(await page.title(), /Authorize an app · Consent Shop/);
    await page.screenshot({ path: `${shots}/oauth-consent.png`, fullPage: true });
    assert.deepEqual(await checkPage(page, "oauth-consent"), []);
  });

  runner.step("oauth-consent: Allow lands on the redirect URI with a code, the state and the issuer", async () => {
    await page.getByRole("button", { name: "Allow", exact: true }).click();
    const query = await landedOnCallback();
    assert.match(query.get("code") ?? "", /^[0-9a-z]{43}$/);
    assert.equal(query.get("state"), state.state);
    assert.equal(query.get("iss"), issuer());
  });

  runner.step("oauth-consent: the same app again passes at once (the consent is remembered)", async () => {
    await authorize();
    const query = await landedOnCallback();
    assert.ok(query.get("code"), "a code without asking again");
    assert.equal(query.get("state"), state.state);
  });

  runner.step("oauth-consent: account settings list the app; Revoke asks, then removes it", async () => {
    await page.goto(`${hosted()}/account-settings`);
    const section = page.getByRole("region", { name: "Authorized apps" });
    const item = section.getByTestId("authorized-app").filter({ hasText: "Tiny Notes" });
    await item.waitFor();
    await item.getByText("email").first().waitFor();
    assert.equal(await checkPage(page, "account-settings with an authorized app").then((p) => p.length), 0);
    await item.getByRole("button", { name: "Revoke" }).click();
    await item.getByText("Tiny Notes loses access at once.").waitFor();
    // Focus moved to Cancel, so a keyboard user does not revoke by pressing Enter twice.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel");
    await item.getByRole("button", { name: "Revoke" }).click();
    await section.getByRole("status").filter({ hasText: "Tiny Notes no longer has access." }).waitFor();
    await section.getByText("No app has access to your account.").waitFor();
  });

  runner.step("oauth-consent: after revoking, the page asks again, and Deny answers access_denied", async () => {
    await authorize("openid");
    await page.getByRole("heading", { name: "Tiny Notes wants to access your account" }).waitFor();
    await page.getByRole("button", { name: "Deny", exact: true }).click();
    const query = await landedOnCallback();
    assert.equal(query.get("error"), "access_denied");
    assert.equal(query.get("state"), state.state);
    assert.equal(query.get("code"), null);
  });

  runner.step("oauth-consent: a self-registered app is marked unverified; a team-scoped one lets the user choose the team", async () => {
    const team = await state.admin("/teams", { method: "POST", body: { display_name: "Night Shift", creator_user_id: state.userId } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const on = await state.admin("/internal/config/override/environment", {
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "doorman.oauthProvider.dynamicRegistration": true }) },
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    // RFC 7591: the app names itself.
    const registered = await fetch(`${issuer()}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Self Named Agent",
        redirect_uris: [state.callback.redirectUri],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
      }),
    });
    const body = await registered.json();
    assert.equal(registered.status, 201, JSON.stringify(body));
    state.clientId = body.client_id;
    await authorize("openid team");
    await page.getByRole("heading", { name: "Self Named Agent wants to access your account" }).waitFor();
    await page
      .getByText(`Not verified by Consent Shop: this app named itself. It is at ${new URL(state.callback.redirectUri).host}.`)
      .waitFor();
    await page.getByRole("listitem").filter({ hasText: "Act for one of your teams" }).waitFor();
    await input("Team").selectOption({ label: "Night Shift" });
    await page.screenshot({ path: `${shots}/oauth-consent-unverified-team.png`, fullPage: true });
    assert.deepEqual(await checkPage(page, "oauth-consent (unverified, team)"), []);
    await page.getByRole("button", { name: "Allow", exact: true }).click();
    const query = await landedOnCallback();
    assert.match(query.get("code") ?? "", /^[0-9a-z]{43}$/);
  });

  runner.step(
    "oauth-consent: prompt=login signs the user in again, then passes; prompt=none signed out answers login_required",
    async () => {
      await authorize("openid", { prompt: "login" });
      await page.waitForURL((url) => url.pathname === `/p/${state.projectId}/handler/sign-in`);
      await input("Email").fill(endUser.email);
      await input("Password").fill(endUser.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      // Back on the consent page with a fresh session: the remembered consent lets it through.
      assert.ok((await landedOnCallback()).get("code"), "a code after signing in again");

      await page.goto(`${hosted()}/sign-out`);
      await page.waitForURL((url) => !url.pathname.endsWith("/sign-out"));
      await authorize("openid", { prompt: "none" });
      const query = await landedOnCallback();
      assert.equal(query.get("error"), "login_required");
      assert.equal(query.get("state"), state.state);
      await state.callback.close();
    },
  );
}
