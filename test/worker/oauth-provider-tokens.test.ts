/**
 * The OpenID provider's token management endpoints (issue 30): introspection (RFC 7662) for the
 * client's own tokens, another client's, and the project's server key; revocation (RFC 7009) of a
 * grant through either of its tokens, and the 200 that changes nothing; the daily clean-up.
 */
import { createExecutionContext, env } from "cloudflare:test";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { DEV_SCHEDULED_PATH } from "../../worker/scheduled";
import { call, type SignedUp, signUp } from "../helpers/api";
import {
  codeFlow,
  insertClient,
  issuerOf,
  type ProviderProject,
  postForm,
  providerProject,
  type TestClient,
} from "../helpers/oauth-provider";

let p: ProviderProject;
let client: TestClient;
let otherClient: TestClient;
let publicClient: TestClient;
let user: SignedUp;

const serverHeaders = () => ({
  "x-stack-project-id": p.projectId,
  "x-stack-access-type": "server",
  "x-stack-secret-server-key": p.server.secretServerKey,
});

async function tokensFor(c: TestClient, extra: Record<string, string> = {}) {
  const { res } = await codeFlow(p, c, { userId: user.userId }, { extra });
  expect(res.status, res.text).toBe(200);
  return res.body as { access_token: string; refresh_token: string; id_token: string };
}

beforeAll(async () => {
  p = await providerProject();
  [client, otherClient, publicClient] = await Promise.all([
    insertClient(p.projectId),
    insertClient(p.projectId),
    insertClient(p.projectId, { type: "public" }),
  ]);
  user = await signUp(p.client);
});

describe("introspection (RFC 7662)", () => {
  it("tells a client about its own tokens, and nothing about another client's", async () => {
    const t = await tokensFor(client, { resource: "https://api.example.com/mcp" });
    const own = await postForm(p.projectId, "introspect", { token: t.access_token }, { basic: client });
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toBe("no-store");
    expect(own.body).toMatchObject({
      active: true,
      client_id: client.clientId,
      sub: user.userId,
      aud: "https://api.example.com/mcp",
      iss: issuerOf(p.projectId),
      scope: "openid profile email offline_access",
      token_type: "Bearer",
      exp: decodeJwt(t.access_token).exp,
      iat: decodeJwt(t.access_token).iat,
    });
    const refresh = await postForm(
      p.projectId,
      "introspect",
      { token: t.refresh_token, token_type_hint: "refresh_token" },
      { basic: client },
    );
    expect(refresh.body).toMatchObject({ active: true, token_type: "refresh_token", client_id: client.clientId, sub: user.userId });
    // A wrong hint still finds the token.
    expect(
      (await postForm(p.projectId, "introspect", { token: t.refresh_token, token_type_hint: "access_token" }, { basic: client })).body,
    ).toMatchObject({
      active: true,
    });
    expect((await postForm(p.projectId, "introspect", { token: t.access_token }, { basic: otherClient })).body).toEqual({ active: false });
    expect((await postForm(p.projectId, "introspect", { token: t.refresh_token }, { basic: otherClient })).body).toEqual({ active: false });
    for (const token of ["garbage", "dmrt_unknown", user.accessToken])
      expect((await postForm(p.projectId, "introspect", { token }, { basic: client })).body, token).toEqual({ active: false });
  });

  it("tells the project's server key about any of its tokens, and a team-bound token's team", async () => {
    const t = await tokensFor(otherClient);
    const res = await postForm(p.projectId, "introspect", { token: t.access_token }, { headers: serverHeaders() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ active: true, client_id: otherClient.clientId, aud: issuerOf(p.projectId) });
    expect(res.body).not.toHaveProperty("team_id");
    const team = await call("/teams", { ...p.server, body: { display_name: "Bound", creator_user_id: user.userId } });
    const bound = await codeFlow(
      p,
      client,
      { userId: user.userId },
      { extra: { scope: "openid team offline_access" }, teamId: team.body.id },
    );
    for (const token of [bound.res.body.access_token, bound.res.body.refresh_token])
      expect((await postForm(p.projectId, "introspect", { token }, { headers: serverHeaders() })).body).toMatchObject({
        active: true,
        team_id: team.body.id,
      });
    // Another project's server key is nobody here.
    const q = await providerProject();
    const foreign = await postForm(q.projectId, "introspect", { token: t.access_token }, { headers: { ...serverHeaders() } });
    expect(foreign.status).toBe(401);
    expect(foreign.body).toMatchObject({ error: "invalid_client" });
  });

  it("refuses public clients and callers without credentials, and wants a token", async () => {
    const t = await tokensFor(client);
    const pub = await postForm(p.projectId, "introspect", { token: t.access_token, client_id: publicClient.clientId });
    expect(pub.status).toBe(401);
    expect(pub.body).toMatchObject({ error: "invalid_client" });
    expect((await postForm(p.projectId, "introspect", { token: t.access_token })).status).toBe(401);
    const noToken = await postForm(p.projectId, "introspect", {}, { basic: client });
    expect(noToken.status).toBe(400);
    expect(noToken.body).toMatchObject({ error: "invalid_request" });
  });

  it("answers active:false once a token expired", async () => {
    const t = await tokensFor(client);
    const later = await postForm(p.projectId, "introspect", { token: t.access_token }, { basic: client, nowMs: Date.now() + 3601_000 });
    expect(later.body).toEqual({ active: false });
  });
});

describe("revocation (RFC 7009)", () => {
  it("revoking the refresh token revokes the grant: every token of it goes inactive (event, reason client)", async () => {
    const t = await tokensFor(client);
    const grantId = decodeJwt(t.access_token).grant_id as string;
    const res = await postForm(p.projectId, "revoke", { token: t.refresh_token, token_type_hint: "refresh_token" }, { basic: client });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    for (const token of [t.access_token, t.refresh_token])
      expect((await postForm(p.projectId, "introspect", { token }, { basic: client })).body).toEqual({ active: false });
    expect(
      (await postForm(p.projectId, "token", { grant_type: "refresh_token", refresh_token: t.refresh_token }, { basic: client })).body,
    ).toMatchObject({
      error: "invalid_grant",
    });
    const event = await env.DB.prepare(
      "SELECT data, user_id FROM events WHERE project_id = ? AND type = 'oauth_token.revoked' AND data LIKE ?",
    )
      .bind(p.projectId, `%${grantId}%`)
      .all<{ data: string; user_id: string }>();
    expect(event.results.map((e) => ({ ...JSON.parse(e.data), user_id: e.user_id }))).toEqual([
      { client_id: client.clientId, grant_id: grantId, reason: "client", user_id: user.userId },
    ]);
    // Revoking again changes nothing and writes no second event.
    expect((await postForm(p.projectId, "revoke", { token: t.refresh_token }, { basic: client })).status).toBe(200);
    const again = await env.DB.prepare("SELECT COUNT(*) AS n FROM events WHERE type = 'oauth_token.revoked' AND data LIKE ?")
      .bind(`%${grantId}%`)
      .first();
    expect(again).toEqual({ n: 1 });
  });

  it("revoking an access token revokes its grant too; a public client names itself with client_id", async () => {
    const t = await tokensFor(publicClient);
    const res = await postForm(p.projectId, "revoke", { token: t.access_token, client_id: publicClient.clientId });
    expect(res.status).toBe(200);
    expect((await postForm(p.projectId, "introspect", { token: t.refresh_token }, { headers: serverHeaders() })).body).toEqual({
      active: false,
    });
  });

  it("another client's token, or an unknown one, answers 200 and changes nothing", async () => {
    const t = await tokensFor(client);
    expect((await postForm(p.projectId, "revoke", { token: t.refresh_token }, { basic: otherClient })).status).toBe(200);
    expect((await postForm(p.projectId, "revoke", { token: t.access_token }, { basic: otherClient })).status).toBe(200);
    expect((await postForm(p.projectId, "revoke", { token: "dmrt_nothing" }, { basic: client })).status).toBe(200);
    expect((await postForm(p.projectId, "introspect", { token: t.access_token }, { basic: client })).body).toMatchObject({ active: true });
  });

  it("needs client authentication and a token", async () => {
    const unauthenticated = await postForm(p.projectId, "revoke", { token: "x" });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect((await postForm(p.projectId, "revoke", {}, { basic: client })).body).toMatchObject({ error: "invalid_request" });
  });
});

describe("the daily clean-up", () => {
  it("deletes expired authorization requests and used client-assertion jtis, and keeps live ones", async () => {
    const now = Date.now();
    const insertRequest = (id: string, expiresAt: number) =>
      env.DB.prepare(
        `INSERT INTO oauth_authorization_requests (id, project_id, client_id, redirect_uri, scope, code_challenge, status, created_at, expires_at)
         VALUES (?, ?, ?, 'https://app.example.com/callback', 'openid', 'c', 'pending', ?, ?)`,
      )
        .bind(id, p.projectId, client.clientId, now - 3_600_000, expiresAt)
        .run();
    const [expired, live] = [crypto.randomUUID(), crypto.randomUUID()];
    await insertRequest(expired, now - 60_000);
    await insertRequest(live, now + 600_000);
    const insertJti = (jti: string, expiresAt: number) =>
      env.DB.prepare("INSERT INTO oauth_client_assertion_jtis (project_id, client_id, jti, expires_at) VALUES (?, ?, ?, ?)")
        .bind(p.projectId, client.clientId, jti, expiresAt)
        .run();
    await insertJti("old-jti", now - 1000);
    await insertJti("new-jti", now + 300_000);
    const ran = await worker.fetch(
      new Request(`http://localhost${DEV_SCHEDULED_PATH}?cron=${encodeURIComponent("17 3 * * *")}`, { method: "POST" }),
      env as never,
      createExecutionContext(),
    );
    expect(ran.status).toBe(200);
    const result = (await ran.json()) as Record<string, number>;
    expect(result.expiredAuthorizationRequestsDeleted).toBeGreaterThanOrEqual(1);
    expect(result.expiredClientAssertionJtisDeleted).toBeGreaterThanOrEqual(1);
    const ids = await env.DB.prepare("SELECT id FROM oauth_authorization_requests WHERE id IN (?, ?)")
      .bind(expired, live)
      .all<{ id: string }>();
    expect(ids.results.map((r) => r.id)).toEqual([live]);
    const jtis = await env.DB.prepare("SELECT jti FROM oauth_client_assertion_jtis WHERE project_id = ?")
      .bind(p.projectId)
      .all<{ jti: string }>();
    expect(jtis.results.map((r) => r.jti)).toEqual(["new-jti"]);
  });
});
