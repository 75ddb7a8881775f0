/**
 * The OIDC connection's checks of what an IdP sends (issue 31, FLOW), against a fake IdP whose discovery,
 * key set and token answer are documents on the local document server (test/document-server.mjs): the ID
 * token's signature, `iss`, `aud`/`azp`, `exp`/`iat` (with the small skew), `nonce`, the algorithms (never
 * `none`, never HS* for a public client); and outbound calls that hang or flood (discovery, key set, token
 * endpoint), which end within their bound as SSO_IDP_UNAVAILABLE while GET /api/v1/health keeps answering.
 * Also the shared sign-in step's IdP-initiated branch (the SAML ACS's), called directly.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { findSsoConnection } from "../../worker/db/queries/sso-connections";
import worker from "../../worker/index";
import { makeDeps } from "../../worker/services/deps";
import { loadProject } from "../../worker/services/seed";
import { discoverIssuer } from "../../worker/services/sso/oidc/discovery";
import { finishSsoSignIn } from "../../worker/services/sso/sign-in";
import { call } from "../helpers/api";
import { withHealthPolls } from "../helpers/health";
import { fetchWorker } from "../helpers/oauth";
import {
  type FakeIdp,
  fakeIdp,
  insertOidcConnection,
  publishDocument,
  redirectedError,
  type SsoProject,
  ssoAuthorizeUrl,
  ssoProject,
  startSso,
} from "../helpers/sso-flow";

const CLIENT_ID = "fake-client";
const CLIENT_SECRET = "fake-client-secret-0123456789";

type Keys = { privateKey: CryptoKey; kid: string };
let p: SsoProject;
let rsa: Keys;
let stranger: Keys;

beforeAll(async () => {
  p = await ssoProject();
  const pair = await generateKeyPair("RS256", { extractable: true });
  rsa = { privateKey: pair.privateKey, kid: "k1" };
  stranger = { privateKey: (await generateKeyPair("RS256")).privateKey, kid: "k1" };
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
});
let publicJwk: Record<string, unknown>;

/** A fake IdP with our key set, and a connection to it (confidential unless `publicClient`). */
async function setUp(o: { publicClient?: boolean; algs?: string[] } = {}): Promise<{ idp: FakeIdp; connectionId: string }> {
  const idp = await fakeIdp({ algs: o.algs });
  await publishDocument(`${idp.name}/jwks`, { body: { keys: [publicJwk] } });
  const connectionId = await insertOidcConnection(p, {
    issuer: idp.issuer,
    clientId: CLIENT_ID,
    clientSecret: o.publicClient ? null : CLIENT_SECRET,
  });
  return { idp, connectionId };
}

/** authorize (our IdP URL is not visited: its state and nonce are read from it). */
async function begin(connectionId: string) {
  const url = await startSso(p.client, { connectionId });
  return { state: url.searchParams.get("state")!, nonce: url.searchParams.get("nonce")! };
}

function claims(idp: FakeIdp, nonce: string, extra: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: idp.issuer, aud: CLIENT_ID, sub: "idp-subject-1", iat: now, exp: now + 300, nonce, email: "x@fake.example", ...extra };
}

const sign = (payload: JWTPayload, keys: Keys = rsa, alg = "RS256") =>
  new SignJWT(payload).setProtectedHeader({ alg, kid: keys.kid }).sign(keys.privateKey);

/** The token endpoint answers `idToken`; then our callback; the known error of its redirect (null: signed in). */
async function callbackWith(idp: FakeIdp, connectionId: string, state: string, idToken: string) {
  await publishDocument(`${idp.name}/token`, { body: { access_token: "at", token_type: "Bearer", id_token: idToken } });
  const res = await fetchWorker(`http://localhost/api/v1/auth/sso/oidc/${connectionId}/callback?code=idp-code&state=${state}`);
  const location = new URL(res.headers.get("location") ?? "http://invalid/");
  if (res.status === 303) return { status: res.status, error: null, location };
  expect(res.status).toBe(307);
  return { status: res.status, error: redirectedError(location).code, location };
}

describe("the ID token", () => {
  it("a well-signed token for us, with our nonce, signs in", async () => {
    const { idp, connectionId } = await setUp();
    const { state, nonce } = await begin(connectionId);
    const ok = await callbackWith(idp, connectionId, state, await sign(claims(idp, nonce)));
    expect(ok.error).toBeNull();
    expect(ok.location.searchParams.get("code")).toHaveLength(45);
  });

  const refusals: [string, (idp: FakeIdp, nonce: string) => Promise<string>][] = [
    ["a wrong iss", (idp, nonce) => sign(claims(idp, nonce, { iss: "http://127.0.0.1:1/another-issuer" }))],
    ["a wrong aud", (idp, nonce) => sign(claims(idp, nonce, { aud: "someone-else" }))],
    ["several audiences without azp = us", (idp, nonce) => sign(claims(idp, nonce, { aud: [CLIENT_ID, "other"] }))],
    ["another request's nonce", (idp) => sign(claims(idp, "a-nonce-of-another-request"))],
    ["no nonce", (idp) => sign(claims(idp, "", { nonce: undefined }))],
    ["an expired token (past the skew)", (idp, nonce) => sign(claims(idp, nonce, { exp: Math.floor(Date.now() / 1000) - 600 }))],
    [
      "a token issued in the future (past the skew)",
      (idp, nonce) => sign(claims(idp, nonce, { iat: Math.floor(Date.now() / 1000) + 600 })),
    ],
    ["a stale token (issued long ago)", (idp, nonce) => sign(claims(idp, nonce, { iat: Math.floor(Date.now() / 1000) - 3600 }))],
    ["a signature by a key the IdP does not publish", (idp, nonce) => sign(claims(idp, nonce), stranger)],
    [
      "alg none",
      async (idp, nonce) =>
        `${btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")}.${btoa(JSON.stringify(claims(idp, nonce))).replace(/=+$/, "")}.`,
    ],
  ];
  for (const [label, token] of refusals) {
    it(`refuses ${label} (SSO_IDP_ERROR at the error URL; sso.sign_in_refused id_token_invalid)`, async () => {
      const { idp, connectionId } = await setUp();
      const { state, nonce } = await begin(connectionId);
      const result = await callbackWith(idp, connectionId, state, await token(idp, nonce));
      expect(result.error).toBe("SSO_IDP_ERROR");
      // Which check failed is the event's (and the log's), never the answer's: it would help an attacker.
      expect(result.location.searchParams.get("message")).not.toMatch(/nonce|aud|iss|signature/i);
      const events = await call("/internal/events?type=sso.sign_in_refused", p.admin);
      expect(events.body.items[0]).toMatchObject({ team_id: p.teamId, data: { connection_id: connectionId, reason: "id_token_invalid" } });
    });
  }

  it("refuses an alg the IdP's discovery does not announce (RS256 where only ES256 is)", async () => {
    const { idp, connectionId } = await setUp({ algs: ["ES256"] });
    const { state, nonce } = await begin(connectionId);
    expect((await callbackWith(idp, connectionId, state, await sign(claims(idp, nonce)))).error).toBe("SSO_IDP_ERROR");
  });

  it("a token within the small skew is accepted (exp 30 s ago)", async () => {
    const { idp, connectionId } = await setUp();
    const { state, nonce } = await begin(connectionId);
    const result = await callbackWith(
      idp,
      connectionId,
      state,
      await sign(claims(idp, nonce, { exp: Math.floor(Date.now() / 1000) - 30 })),
    );
    expect(result.error).toBeNull();
  });

  it("several audiences with azp = us is accepted", async () => {
    const { idp, connectionId } = await setUp();
    const { state, nonce } = await begin(connectionId);
    const token = await sign(claims(idp, nonce, { aud: [CLIENT_ID, "api"], azp: CLIENT_ID }));
    expect((await callbackWith(idp, connectionId, state, token)).error).toBeNull();
  });

  it("HS256: refused for a public client (anyone could mint it); keyed by the secret of a confidential one", async () => {
    const hmac = (secret: string, payload: JWTPayload) =>
      new SignJWT(payload).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(secret));
    const pub = await setUp({ publicClient: true });
    const a = await begin(pub.connectionId);
    expect((await callbackWith(pub.idp, pub.connectionId, a.state, await hmac("guessable", claims(pub.idp, a.nonce)))).error).toBe(
      "SSO_IDP_ERROR",
    );
    const conf = await setUp();
    const b = await begin(conf.connectionId);
    expect((await callbackWith(conf.idp, conf.connectionId, b.state, await hmac("not-the-secret", claims(conf.idp, b.nonce)))).error).toBe(
      "SSO_IDP_ERROR",
    );
    const c = await begin(conf.connectionId);
    expect(
      (await callbackWith(conf.idp, conf.connectionId, c.state, await hmac(CLIENT_SECRET, claims(conf.idp, c.nonce)))).error,
    ).toBeNull();
  });

  it("a token endpoint that refuses the code, or answers no id_token, is SSO_IDP_ERROR", async () => {
    const { idp, connectionId } = await setUp();
    const a = await begin(connectionId);
    await publishDocument(`${idp.name}/token`, { status: 400, body: { error: "invalid_grant" } });
    const res = await fetchWorker(`http://localhost/api/v1/auth/sso/oidc/${connectionId}/callback?code=c&state=${a.state}`);
    expect(redirectedError(new URL(res.headers.get("location")!)).code).toBe("SSO_IDP_ERROR");
    const b = await begin(connectionId);
    await publishDocument(`${idp.name}/token`, { body: { access_token: "at", token_type: "Bearer" } });
    const res2 = await fetchWorker(`http://localhost/api/v1/auth/sso/oidc/${connectionId}/callback?code=c&state=${b.state}`);
    expect(redirectedError(new URL(res2.headers.get("location")!)).code).toBe("SSO_IDP_ERROR");
  });

  it("a discovery document naming another issuer is refused at authorize", async () => {
    const idp = await fakeIdp();
    await publishDocument(`${idp.name}/.well-known/openid-configuration`, {
      body: { issuer: "http://127.0.0.1:1/other", authorization_endpoint: "http://a/", token_endpoint: "http://t/", jwks_uri: "http://j/" },
    });
    const connectionId = await insertOidcConnection(p, { issuer: idp.issuer, clientId: CLIENT_ID });
    const res = await fetchWorker(ssoAuthorizeUrl(p.client, { connectionId }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("SSO_IDP_ERROR");
  });
});

describe("the issuer's URLs (SSRF)", () => {
  it("outside development (or for a production-mode project) a local or plain-http issuer is refused before any fetch", async () => {
    const idp = await fakeIdp();
    const deps = makeDeps(env as never, { origin: "http://localhost" });
    const refused = await discoverIssuer(deps, idp.issuer, false);
    expect(refused).toMatchObject({ ok: false, kind: "invalid" });
    const requests = await fetch(`${idp.issuer.replace("/docs/", "/control/")}/.well-known/openid-configuration`);
    expect(((await requests.json()) as { requests: number }).requests).toBe(0);
    expect(await discoverIssuer(deps, idp.issuer, true)).toMatchObject({ ok: true, discovery: { tokenEndpoint: idp.tokenEndpoint } });
  });
});

describe("hostile IdPs: bounded outbound calls while /health answers", () => {
  /** The worker with OAUTH_TIMEOUT_MS small (the OIDC calls' bound), on a copy of the test env. */
  function workerWith(vars: Record<string, string>) {
    const changed = { ...(env as unknown as Record<string, unknown>), ...vars };
    return async (url: string): Promise<Response> => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(url, { redirect: "manual" }) as never, changed as never, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
  }
  const fast = workerWith({ OAUTH_TIMEOUT_MS: "1500" });

  async function bounded<T>(label: string, work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    const { result, polls, failures, maxMs } = await withHealthPolls(work);
    console.log(`[sso-flow-id-token] ${label}: ${Date.now() - started} ms; /health polled ${polls}×, max ${maxMs} ms`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(polls).toBeGreaterThan(0);
    expect(failures).toBe(0);
    return result;
  }

  for (const mode of ["hang", "big"] as const) {
    it(`discovery that does "${mode}": authorize answers SSO_IDP_UNAVAILABLE within the bound`, async () => {
      const idp = await fakeIdp();
      await publishDocument(`${idp.name}/.well-known/openid-configuration`, { mode });
      const connectionId = await insertOidcConnection(p, { issuer: idp.issuer, clientId: CLIENT_ID });
      const res = await bounded(`discovery ${mode}`, () => fast(ssoAuthorizeUrl(p.client, { connectionId })));
      expect(res.status).toBe(502);
      expect(((await res.json()) as { code: string }).code).toBe("SSO_IDP_UNAVAILABLE");
    });

    it(`a token endpoint that does "${mode}": the callback ends at the error URL with SSO_IDP_UNAVAILABLE`, async () => {
      const { idp, connectionId } = await setUp();
      const { state } = await begin(connectionId);
      await publishDocument(`${idp.name}/token`, { mode });
      const res = await bounded(`token ${mode}`, () =>
        fast(`http://localhost/api/v1/auth/sso/oidc/${connectionId}/callback?code=c&state=${state}`),
      );
      expect(res.status).toBe(307);
      expect(redirectedError(new URL(res.headers.get("location")!)).code).toBe("SSO_IDP_UNAVAILABLE");
    });

    it(`a key set that does "${mode}": the callback ends with SSO_IDP_UNAVAILABLE`, async () => {
      const { idp, connectionId } = await setUp();
      const { state, nonce } = await begin(connectionId);
      await publishDocument(`${idp.name}/jwks`, { mode });
      await publishDocument(`${idp.name}/token`, {
        body: { access_token: "at", token_type: "Bearer", id_token: await sign(claims(idp, nonce)) },
      });
      const res = await bounded(`jwks ${mode}`, () =>
        fast(`http://localhost/api/v1/auth/sso/oidc/${connectionId}/callback?code=c&state=${state}`),
      );
      expect(res.status).toBe(307);
      expect(redirectedError(new URL(res.headers.get("location")!)).code).toBe("SSO_IDP_UNAVAILABLE");
    });
  }
});

describe("the shared sign-in step: IdP-initiated responses", () => {
  it("are refused unless the connection allows them, and otherwise bounce to the hosted sign-in page with sso_connection_id", async () => {
    const connectionId = await insertOidcConnection(p);
    const deps = makeDeps(env as never, { origin: "http://localhost" });
    const project = (await loadProject(deps, p.projectId))!;
    const connection = (await findSsoConnection(deps.db, p.projectId, connectionId))!;
    const profile = { subject: "unsolicited", email: "u@fake.example", displayName: null, groups: [] };
    const input = { project, connection, profile, requestCode: null, inResponseTo: null, idpInitiated: true };
    expect(await finishSsoSignIn(deps, input)).toMatchObject({ ok: false, reason: "sso_idp_initiated_refused" });
    const allowed = await finishSsoSignIn(deps, { ...input, connection: { ...connection, allowIdpInitiated: true } });
    expect(allowed.ok).toBe(true);
    const location = new URL((allowed as { location: string }).location);
    expect(location.pathname).toBe(`/p/${p.projectId}/handler/sign-in`);
    expect(location.searchParams.get("sso_connection_id")).toBe(connectionId);
    // Nobody was signed in by it: no identity for the unsolicited subject.
    const identity = await env.DB.prepare("SELECT id FROM sso_identities WHERE subject = 'unsolicited'").first();
    expect(identity).toBeNull();
    // An SP-initiated response without its request is refused.
    expect(await finishSsoSignIn(deps, { ...input, idpInitiated: false })).toMatchObject({ ok: false, reason: "sso_request_invalid" });
    expect(await finishSsoSignIn(deps, { ...input, idpInitiated: false, requestCode: "x".repeat(45) })).toMatchObject({
      ok: false,
      reason: "sso_request_invalid",
    });
  });
});
