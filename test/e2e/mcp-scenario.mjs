/**
 * An MCP server protected by Doorman, used by the official MCP TypeScript SDK as its client (issue 30):
 * the example server (sdk/examples/mcp-server, behind @doorman/sdk/resource-server/express) is bound
 * to a project with dynamic client registration and client ID metadata documents on. Without a token
 * it answers 401 with a WWW-Authenticate that points at its RFC 9728 metadata; the SDK's client
 * discovers the project's issuer from there, registers (RFC 7591; then, separately, with a CIMD served
 * over https by a local server the worker trusts through the e2e's throwaway CA), signs the user in
 * through the hosted consent page in Chromium, and calls `whoami` with a token bound to the server
 * (aud = its URL). A token the same project issued for another resource, and a Doorman session
 * token, are refused with 401; team_notes answers only for the team a token is bound to. Step names
 * start with "mcp:".
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from "jose";
import * as oidc from "openid-client";
import { assert } from "./harness.mjs";
import { localCa, startLocalHttpsServer } from "./local-ca.mjs";
import { BrowserOAuthClientProvider } from "./mcp-browser-oauth.mjs";
import { authorizeInBrowser, registerClient, setUpProviderProject, signUpEndUser, startCallbackServer } from "./oauth-provider-kit.mjs";

const root = resolve(import.meta.dirname, "../..");
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl-like", version: "1" } },
};
const post = (url, headers = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(INITIALIZE),
  });

/** The example server, from the SDK as an app installs it (the built entries: node sdk/build.mjs). */
async function exampleServer() {
  execFileSync(process.execPath, [join(root, "sdk", "build.mjs")], { cwd: join(root, "sdk"), stdio: "pipe" });
  return import("../../sdk/examples/mcp-server/server.mjs");
}

/** The MCP SDK's own sign-in: connect → 401 → discovery, registration, the browser → finishAuth → connect again. */
async function connectWithSignIn(url, provider) {
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  await assert.rejects(new Client({ name: "doorman-e2e", version: "1.0.0" }).connect(first), UnauthorizedError);
  assert.ok(provider.code, "the browser came back with a code");
  await first.finishAuth(provider.code);
  await first.close();
  const client = new Client({ name: "doorman-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return client;
}

async function whoami(client) {
  const result = await client.callTool({ name: "whoami", arguments: {} });
  assert.ok(!result.isError, JSON.stringify(result));
  return JSON.parse(result.content[0].text);
}

export function defineMcpSteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const user = { email: `mcp-user-${stamp}@example.com`, password: "mcp-user-password" };
  const s = { project: null, mcp: null, callback: null, startMcpServer: null, cimd: null, cimdFetches: 0, others: [] };

  runner.step("mcp: a project with open registration and metadata documents, the example MCP server bound to it", async () => {
    ({ startMcpServer: s.startMcpServer } = await exampleServer());
    s.project = await setUpProviderProject(page, origin, {
      label: "mcp",
      projectName: "MCP Shop",
      provider: { dynamicRegistration: true, clientIdMetadataDocuments: true },
    });
    s.mcp = await s.startMcpServer({ doormanApiUrl: origin, projectId: s.project.projectId, port: 0 });
    s.callback = await startCallbackServer();
    await signUpEndUser(page, origin, s.project.projectId, user);
  });

  runner.step(
    "mcp: without a token the server answers 401, its WWW-Authenticate pointing at RFC 9728 metadata that names the issuer",
    async () => {
      const res = await post(s.mcp.url);
      assert.equal(res.status, 401);
      const challenge = extractWWWAuthenticateParams(res);
      assert.equal(challenge.resourceMetadataUrl?.href, s.mcp.resourceMetadataUrl, res.headers.get("www-authenticate"));
      assert.equal(challenge.error, undefined, "no error code when no token was sent (RFC 6750 §3.1)");
      // The SDK finds the same document from the server URL alone (the path-suffixed well-known URL first).
      const metadata = await discoverOAuthProtectedResourceMetadata(s.mcp.url);
      assert.equal(metadata.resource, s.mcp.url);
      assert.deepEqual(metadata.authorization_servers, [s.project.issuer]);
      assert.ok(metadata.scopes_supported?.includes("openid"));
      const root = await fetch(new URL("/.well-known/oauth-protected-resource", s.mcp.url));
      assert.equal(root.status, 200);
      assert.equal(root.headers.get("access-control-allow-origin"), "*");
    },
  );

  runner.step("mcp: a Doorman session token of the same project, and a garbage token, are refused with 401 invalid_token", async () => {
    const signIn = await fetch(`${origin}/api/v1/auth/password/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": s.project.projectId, "x-stack-access-type": "client" },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    assert.equal(signIn.status, 200, await signIn.clone().text());
    const session = (await signIn.json()).access_token;
    for (const token of [session, "garbage"]) {
      const res = await post(s.mcp.url, { authorization: `Bearer ${token}` });
      assert.equal(res.status, 401);
      const challenge = extractWWWAuthenticateParams(res);
      assert.equal(challenge.error, "invalid_token");
      assert.equal(challenge.resourceMetadataUrl?.href, s.mcp.resourceMetadataUrl);
    }
  });

  runner.step(
    "mcp: discovery failures end cleanly: an unknown project (no redirect), an unreachable issuer (503, no challenge)",
    async () => {
      const ghost = await s.startMcpServer({ doormanApiUrl: origin, projectId: "00000000-0000-4000-8000-000000000000", port: 0 });
      s.others.push(ghost);
      const provider = new BrowserOAuthClientProvider({ page, redirectUri: s.callback.redirectUri, clientName: "Ghost client" });
      const transport = new StreamableHTTPClientTransport(new URL(ghost.url), { authProvider: provider });
      await assert.rejects(new Client({ name: "doorman-e2e", version: "1.0.0" }).connect(transport));
      assert.equal(provider.authorizationUrls.length, 0, "the user is never sent to sign in at an issuer that does not exist");
      await transport.close();
      // The issuer's JWKS out of reach: a token cannot be checked, which is not the client's fault.
      const offline = await s.startMcpServer({ doormanApiUrl: "http://127.0.0.1:9", projectId: s.project.projectId, port: 0 });
      s.others.push(offline);
      const res = await post(offline.url, { authorization: "Bearer eyJhbGciOiJFUzI1NiIsImtpZCI6ImsiLCJ0eXAiOiJhdCtqd3QifQ.e30.c2ln" });
      assert.equal(res.status, 503);
      assert.equal(res.headers.get("www-authenticate"), null);
    },
  );

  runner.step("mcp: team_notes serves only the team a token is bound to (tokens of a local ES256 issuer)", async () => {
    // The example's organization scoping, apart from Doorman: a local key and JWKS stand in for a project's.
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "local-1", alg: "ES256", use: "sig" }] });
    const issuerServer = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(jwks));
    await new Promise((done) => issuerServer.listen(0, "127.0.0.1", done));
    s.others.push({ close: () => new Promise((done) => issuerServer.close(done)) });
    const local = await s.startMcpServer({ doormanApiUrl: `http://127.0.0.1:${issuerServer.address().port}`, projectId: "local", port: 0 });
    s.others.push(local);
    const mint = (claims) =>
      new SignJWT({ sub: "user_local", client_id: "dmc_local", scope: "openid team", jti: randomUUID(), ...claims })
        .setProtectedHeader({ alg: "ES256", kid: "local-1", typ: "at+jwt" })
        .setIssuer(local.issuer)
        .setAudience(local.url)
        .setIssuedAt()
        .setExpirationTime("10m")
        .sign(privateKey);
    const connect = async (token) => {
      const client = new Client({ name: "doorman-e2e", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(local.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      );
      return client;
    };
    const notes = async (client, args = {}) => {
      const result = await client.callTool({ name: "team_notes", arguments: args });
      return { isError: Boolean(result.isError), body: JSON.parse(result.content[0].text) };
    };
    const teamA = await connect(await mint({ team_id: "team_a" }));
    assert.deepEqual(
      (await notes(teamA, { add: "for A only" })).body.notes.map((n) => n.text),
      ["for A only"],
    );
    const teamB = await connect(await mint({ team_id: "team_b" }));
    assert.deepEqual((await notes(teamB)).body, { team_id: "team_b", notes: [] });
    const unbound = await connect(await mint({}));
    assert.equal((await notes(unbound)).isError, true, "a token bound to no team reaches no team's notes");
    assert.equal((await whoami(teamA)).team_id, "team_a");
    for (const client of [teamA, teamB, unbound]) await client.close();
  });

  runner.step("mcp: the SDK discovers the authorization server through the resource metadata (RFC 8414, path-inserted)", async () => {
    const metadata = await discoverAuthorizationServerMetadata(s.project.issuer);
    assert.ok(metadata, "the project's authorization server metadata");
    assert.equal(metadata.issuer, s.project.issuer);
    assert.equal(metadata.registration_endpoint, `${s.project.issuer}/oauth/register`, "open registration is on");
    assert.equal(metadata.client_id_metadata_document_supported, true);
    assert.ok(metadata.code_challenge_methods_supported?.includes("S256"));
  });

  runner.step("mcp: DCR: the SDK registers, the user approves in Chromium, whoami answers with a token bound to the server", async () => {
    const provider = new BrowserOAuthClientProvider({
      page,
      redirectUri: s.callback.redirectUri,
      clientName: `MCP e2e client ${stamp}`,
      consent: { appName: `MCP e2e client ${stamp}`, email: user.email, projectId: s.project.projectId },
    });
    const client = await connectWithSignIn(s.mcp.url, provider);
    await page.screenshot({ path: join(shots, "mcp-dcr-signed-in.png") });
    // Registered by RFC 7591, with the issuer it came from.
    const [registered] = provider.registrations;
    assert.match(registered.client_id, /^dmc_/);
    const row = await s.project.api(`/internal/oauth-clients/${encodeURIComponent(registered.client_id)}`);
    assert.equal(row.status, 200);
    assert.equal(row.body.source, "dynamic");
    // The authorization asked for this server (RFC 8707) with PKCE S256.
    const asked = provider.authorizationUrls[0];
    assert.equal(`${asked.origin}${asked.pathname}`, `${s.project.issuer}/oauth/authorize`);
    assert.equal(asked.searchParams.get("resource"), s.mcp.url);
    assert.equal(asked.searchParams.get("code_challenge_method"), "S256");
    // The token: RFC 9068, for this server only.
    const accessToken = provider.tokens().access_token;
    assert.equal(decodeProtectedHeader(accessToken).typ, "at+jwt");
    const claims = decodeJwt(accessToken);
    assert.ok([claims.aud].flat().includes(s.mcp.url), `aud is the MCP server: ${JSON.stringify(claims.aud)}`);
    assert.equal(claims.iss, s.project.issuer);
    const me = await whoami(client);
    assert.equal(me.user_id, claims.sub);
    assert.equal(me.client_id, registered.client_id);
    assert.equal(me.resource, s.mcp.url);
    assert.ok(me.scopes.includes("openid"), JSON.stringify(me.scopes));
    s.userId = claims.sub;
    await client.close();
  });

  runner.step("mcp: CIMD: the SDK presents an https client ID metadata document, the worker fetches it, whoami answers", async () => {
    let ca;
    try {
      ca = localCa();
    } catch (error) {
      assert.fail(`no throwaway CA (openssl missing?): the worker cannot fetch an https metadata document locally: ${error.message}`);
    }
    assert.ok(ca.caFile, "stack.mjs handed this CA to wrangler (NODE_EXTRA_CA_CERTS)");
    const name = `MCP CIMD client ${stamp}`;
    s.cimd = await startLocalHttpsServer((req, res) => {
      if (req.url !== "/mcp-client.json") {
        res.writeHead(404).end();
        return;
      }
      s.cimdFetches += 1;
      res.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=300" });
      res.end(
        JSON.stringify({
          client_id: `${s.cimd.origin}/mcp-client.json`,
          client_name: name,
          redirect_uris: [s.callback.redirectUri],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none",
        }),
      );
    });
    const clientMetadataUrl = `${s.cimd.origin}/mcp-client.json`;
    const provider = new BrowserOAuthClientProvider({
      page,
      redirectUri: s.callback.redirectUri,
      clientName: name,
      clientMetadataUrl,
      consent: { appName: name, email: user.email, projectId: s.project.projectId },
    });
    const client = await connectWithSignIn(s.mcp.url, provider);
    // No registration: the client id is the document's URL, which the worker fetched over https.
    assert.deepEqual(
      provider.registrations.map((r) => r.client_id),
      [clientMetadataUrl],
    );
    assert.equal(provider.authorizationUrls[0].searchParams.get("client_id"), clientMetadataUrl);
    assert.ok(s.cimdFetches >= 1, "the worker fetched the metadata document");
    const me = await whoami(client);
    assert.equal(me.client_id, clientMetadataUrl);
    assert.equal(me.user_id, s.userId);
    assert.equal(me.resource, s.mcp.url);
    await client.close();
    await s.cimd.close();
  });

  runner.step("mcp: a token the project issued for another resource is refused by the MCP server (401 invalid_token)", async () => {
    const otherResource = "http://localhost:4999/other-api";
    const app = await registerClient(s.project.api, {
      name: `Other API app ${stamp}`,
      client_type: "public",
      token_endpoint_auth_method: "none",
      redirect_uris: [s.callback.redirectUri],
    });
    const config = await oidc.discovery(new URL(s.project.issuer), app.client_id, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
    const checks = { pkceCodeVerifier, expectedState: oidc.randomState() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: s.callback.redirectUri,
      scope: "openid",
      resource: otherResource,
      code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: "S256",
      state: checks.expectedState,
    });
    const landed = await authorizeInBrowser(page, url, s.callback.redirectUri);
    const tokens = await oidc.authorizationCodeGrant(config, landed, checks, { resource: otherResource });
    const claims = decodeJwt(tokens.access_token);
    assert.deepEqual([claims.aud].flat(), [otherResource]);
    // A valid token of the same issuer and user, good at the other API (the SDK's verifier says so)…
    const { createResourceServerVerifier } = await import("../../sdk/dist/resource-server.js");
    const atOther = await createResourceServerVerifier({ issuer: s.project.issuer, audience: otherResource })(tokens.access_token);
    assert.equal(atOther.status, "ok", JSON.stringify(atOther));
    // …and refused here: its audience is not this server.
    const res = await post(s.mcp.url, { authorization: `Bearer ${tokens.access_token}` });
    assert.equal(res.status, 401);
    const challenge = extractWWWAuthenticateParams(res);
    assert.equal(challenge.error, "invalid_token");
    assert.equal(challenge.resourceMetadataUrl?.href, s.mcp.resourceMetadataUrl);
    assert.match(res.headers.get("www-authenticate") ?? "", /not for this resource/);
    const transport = new StreamableHTTPClientTransport(new URL(s.mcp.url), {
      requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
    });
    await assert.rejects(new Client({ name: "doorman-e2e", version: "1.0.0" }).connect(transport));
    await transport.close();
    for (const other of s.others) await other.close();
    await s.mcp.close();
    await s.callback.close();
  });
}
