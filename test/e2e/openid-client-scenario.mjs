/**
 * Doorman as an OpenID provider, driven by a relying party no one here wrote: panva's `openid-client`
 * (6.9.0) in Node, against the e2e stack (issue 30). A project registers a confidential app in its
 * client registry; openid-client discovers the project's issuer, runs the authorization code flow with
 * PKCE through the hosted consent page in Chromium (an end user signed up on the project's hosted
 * pages approves), validates the ID token (plus nonce, auth_time, email), reads userinfo, introspects,
 * refreshes (rotation: the old refresh token refused and, replayed, revoking the grant) and revokes.
 * A replayed code and an unregistered redirect URI are refused. Step names start with "oidc-client:".
 */
import { join } from "node:path";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { assert } from "./harness.mjs";
import { authorizeInBrowser, registerClient, setUpProviderProject, signUpEndUser, startCallbackServer } from "./oauth-provider-kit.mjs";

const SCOPE = "openid profile email offline_access";

export function defineOpenIdClientSteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const user = { email: `oidc-user-${stamp}@example.com`, password: "oidc-user-password" };
  const appName = `OIDC Test App ${stamp}`;
  const s = { project: null, callback: null, app: null, config: null, tokens: null, claims: null, signedUpAt: 0 };
  const insecure = { execute: [oidc.allowInsecureRequests] };
  const invalidGrant = (error) => error?.error === "invalid_grant";

  /** One authorization with fresh PKCE, nonce and state, approved in the browser: the callback URL and its checks. */
  async function authorize({ consent } = {}) {
    const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
    const checks = { pkceCodeVerifier, expectedNonce: oidc.randomNonce(), expectedState: oidc.randomState(), idTokenExpected: true };
    const url = oidc.buildAuthorizationUrl(s.config, {
      redirect_uri: s.callback.redirectUri,
      scope: SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: "S256",
      nonce: checks.expectedNonce,
      state: checks.expectedState,
    });
    const shot = () => page.screenshot({ path: join(shots, "oidc-client-consent.png"), fullPage: true });
    const landed = await authorizeInBrowser(page, url, s.callback.redirectUri, {
      consent: consent ? { appName, email: user.email, projectId: s.project.projectId } : undefined,
      shot,
    });
    return { landed, checks };
  }

  const introspect = async (token) => (await oidc.tokenIntrospection(s.config, token)).active;

  runner.step(
    "oidc-client: a project as OpenID provider, a confidential app in its registry, an end user on its hosted pages",
    async () => {
      s.callback = await startCallbackServer();
      s.project = await setUpProviderProject(page, origin, { label: "oidc", projectName: "OIDC Shop" });
      s.app = await registerClient(s.project.api, {
        name: appName,
        client_type: "confidential",
        token_endpoint_auth_method: "client_secret_basic",
        redirect_uris: [s.callback.redirectUri],
      });
      assert.match(s.app.client_secret, /^dmcs_/, "the secret is shown once, at creation");
      const listed = await s.project.api(`/internal/oauth-clients/${s.app.client_id}`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.client_secret, undefined, "never again after that");
      s.signedUpAt = Math.floor(Date.now() / 1000);
      await signUpEndUser(page, origin, s.project.projectId, user);
    },
  );

  runner.step("oidc-client: discovery of the project's issuer (OpenID Connect Discovery and RFC 8414)", async () => {
    const { issuer } = s.project;
    s.config = await oidc.discovery(
      new URL(issuer),
      s.app.client_id,
      s.app.client_secret,
      oidc.ClientSecretBasic(s.app.client_secret),
      insecure,
    );
    const m = s.config.serverMetadata();
    assert.equal(m.issuer, issuer);
    assert.equal(m.authorization_endpoint, `${issuer}/oauth/authorize`);
    assert.equal(m.token_endpoint, `${issuer}/oauth/token`);
    assert.equal(m.userinfo_endpoint, `${issuer}/oauth/userinfo`);
    assert.equal(m.revocation_endpoint, `${issuer}/oauth/revoke`);
    assert.equal(m.introspection_endpoint, `${issuer}/oauth/introspect`);
    assert.equal(m.jwks_uri, `${issuer}/.well-known/jwks.json`);
    assert.deepEqual(m.response_types_supported, ["code"], "no implicit or hybrid flows");
    assert.ok(m.code_challenge_methods_supported?.includes("S256"));
    assert.ok(!m.code_challenge_methods_supported?.includes("plain"), "PKCE plain is not offered");
    for (const grant of ["implicit", "password"]) assert.ok(!m.grant_types_supported?.includes(grant), `no ${grant} grant`);
    for (const scope of SCOPE.split(" ")) assert.ok(m.scopes_supported?.includes(scope), `scope ${scope} offered`);
    assert.ok(m.id_token_signing_alg_values_supported?.includes("ES256"));
    assert.ok(!m.id_token_signing_alg_values_supported?.includes("none"), "no unsigned ID tokens");
    for (const method of ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]) {
      assert.ok(m.token_endpoint_auth_methods_supported?.includes(method), `token endpoint auth ${method}`);
    }
    assert.equal(m.registration_endpoint, undefined, "no open registration until the owner turns it on");
    // The same document at the RFC 8414 names (the path-insertion form is what MCP clients ask first).
    for (const url of [
      `${issuer}/.well-known/oauth-authorization-server`,
      `${origin}/.well-known/oauth-authorization-server/api/v1/projects/${s.project.projectId}`,
      `${origin}/.well-known/openid-configuration/api/v1/projects/${s.project.projectId}`,
    ]) {
      const res = await fetch(url);
      assert.equal(res.status, 200, url);
      assert.equal((await res.json()).issuer, issuer, url);
    }
  });

  runner.step("oidc-client: authorization code + PKCE through the consent page in Chromium", async () => {
    const { landed, checks } = await authorize({ consent: true });
    assert.equal(landed.origin + landed.pathname, s.callback.redirectUri);
    assert.ok(landed.searchParams.get("code"), "the callback carries a code");
    assert.equal(landed.searchParams.get("state"), checks.expectedState);
    assert.equal(landed.searchParams.get("iss"), s.project.issuer, "RFC 9207: the callback names the issuer");
    s.first = { landed, checks };
  });

  runner.step("oidc-client: the code for tokens; openid-client validates the ID token (and nonce, auth_time, email)", async () => {
    const { landed, checks } = s.first;
    s.tokens = await oidc.authorizationCodeGrant(s.config, landed, checks);
    const claims = s.tokens.claims();
    assert.ok(claims, "an ID token came back");
    s.claims = claims;
    assert.equal(claims.iss, s.project.issuer);
    assert.equal(claims.aud, s.app.client_id);
    assert.equal(claims.nonce, checks.expectedNonce);
    assert.equal(typeof claims.sub, "string");
    assert.equal(typeof claims.auth_time, "number");
    assert.ok(claims.auth_time >= s.signedUpAt - 60 && claims.auth_time <= Math.floor(Date.now() / 1000) + 5, "auth_time is the sign-in");
    assert.equal(claims.email, user.email);
    assert.equal(typeof claims.email_verified, "boolean");
    assert.equal(decodeProtectedHeader(s.tokens.id_token).alg, "ES256");
    assert.match(s.tokens.refresh_token, /^dmrt_/, "offline_access gives a refresh token");
    assert.equal(s.tokens.token_type.toLowerCase(), "bearer");
    // The access token is an RFC 9068 JWT for the issuer (no resource asked for), signed with the project's key.
    const jwks = createRemoteJWKSet(new URL(s.config.serverMetadata().jwks_uri));
    const { payload, protectedHeader } = await jwtVerify(s.tokens.access_token, jwks, {
      issuer: s.project.issuer,
      audience: s.project.issuer,
    });
    assert.equal(protectedHeader.typ, "at+jwt");
    assert.equal(payload.sub, claims.sub);
    assert.equal(payload.client_id, s.app.client_id);
    assert.ok(String(payload.scope).split(" ").includes("openid"));
  });

  runner.step("oidc-client: userinfo answers the user for the access token (GET, POST header, POST body), 401 without", async () => {
    const info = await oidc.fetchUserInfo(s.config, s.tokens.access_token, s.claims.sub);
    assert.equal(info.sub, s.claims.sub);
    assert.equal(info.email, user.email);
    const endpoint = s.config.serverMetadata().userinfo_endpoint;
    const byHeader = await fetch(endpoint, { method: "POST", headers: { authorization: `Bearer ${s.tokens.access_token}` } });
    assert.equal(byHeader.status, 200);
    assert.equal((await byHeader.json()).sub, s.claims.sub);
    const byBody = await fetch(endpoint, { method: "POST", body: new URLSearchParams({ access_token: s.tokens.access_token }) });
    assert.equal(byBody.status, 200);
    assert.equal((await byBody.json()).sub, s.claims.sub);
    const none = await fetch(endpoint);
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
  });

  runner.step("oidc-client: introspection (RFC 7662) of the access and refresh tokens", async () => {
    const access = await oidc.tokenIntrospection(s.config, s.tokens.access_token);
    assert.equal(access.active, true);
    assert.equal(access.client_id, s.app.client_id);
    assert.equal(access.sub, s.claims.sub);
    assert.ok(String(access.scope).split(" ").includes("email"));
    assert.equal(await introspect(s.tokens.refresh_token), true);
    assert.equal(await introspect("not-a-token"), false);
  });

  runner.step("oidc-client: refresh rotates the refresh token; the old one is refused and, replayed, revokes the grant", async () => {
    const old = s.tokens.refresh_token;
    const refreshed = await oidc.refreshTokenGrant(s.config, old);
    assert.ok(refreshed.access_token && refreshed.access_token !== s.tokens.access_token);
    assert.match(refreshed.refresh_token, /^dmrt_/);
    assert.notEqual(refreshed.refresh_token, old, "rotated");
    assert.equal((await oidc.fetchUserInfo(s.config, refreshed.access_token, s.claims.sub)).email, user.email);
    await assert.rejects(oidc.refreshTokenGrant(s.config, old), invalidGrant, "the spent refresh token is refused");
    // Reuse detection (RFC 9700 §4.14.2): the whole grant is gone, the successor and its access token too.
    await assert.rejects(oidc.refreshTokenGrant(s.config, refreshed.refresh_token), invalidGrant);
    assert.equal(await introspect(refreshed.access_token), false);
  });

  runner.step("oidc-client: revocation (RFC 7009): after it, introspection says inactive and the refresh token is refused", async () => {
    // The user consented already: the consent page may send the browser straight back.
    const { landed, checks } = await authorize();
    const tokens = await oidc.authorizationCodeGrant(s.config, landed, checks);
    assert.equal(await introspect(tokens.access_token), true);
    await oidc.tokenRevocation(s.config, tokens.refresh_token);
    assert.equal(await introspect(tokens.refresh_token), false);
    assert.equal(await introspect(tokens.access_token), false);
    await assert.rejects(oidc.refreshTokenGrant(s.config, tokens.refresh_token), invalidGrant);
    // Revoking again, or a token no one issued, is still 200 (RFC 7009 §2.2).
    await oidc.tokenRevocation(s.config, tokens.refresh_token);
    await oidc.tokenRevocation(s.config, "dmrt_unknown");
  });

  runner.step("oidc-client: a replayed authorization code is refused and revokes what it issued", async () => {
    const { landed, checks } = await authorize();
    const tokens = await oidc.authorizationCodeGrant(s.config, landed, checks);
    assert.equal(await introspect(tokens.access_token), true);
    await assert.rejects(oidc.authorizationCodeGrant(s.config, landed, checks), invalidGrant);
    assert.equal(await introspect(tokens.access_token), false);
    assert.equal(await introspect(tokens.refresh_token), false);
  });

  runner.step("oidc-client: a redirect URI that was not registered is never redirected to", async () => {
    const evil = "http://127.0.0.1:9/steal";
    const url = oidc.buildAuthorizationUrl(s.config, {
      redirect_uri: evil,
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
      state: oidc.randomState(),
    });
    const requested = [];
    const record = (request) => requested.push(request.url());
    page.on("request", record);
    try {
      await page.goto(String(url)).catch(() => {});
      await page.waitForLoadState();
    } finally {
      page.off("request", record);
    }
    assert.ok(!requested.some((u) => u.startsWith(evil)), `the browser was never sent to ${evil}: ${requested.join(", ")}`);
    assert.equal(new URL(page.url()).origin, origin, "the error is shown by Doorman");
    await s.callback.close();
  });
}
