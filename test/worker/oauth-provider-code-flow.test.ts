/**
 * The OpenID provider's code flow end to end (issue 30): authorize → (approve, the test stand-in for
 * the consent page) → token, with the ID token validated by jose against the project's JWKS; the
 * session's amr reaching the tokens; refresh rotation and reuse detection; userinfo claims by scope;
 * audience binding (RFC 8707), and Doorman's own API refusing the provider's access tokens.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { DEV_SERVER_SECRET } from "../../worker/config";
import worker from "../../worker/index";
import { call, type SignedUp, signUp } from "../helpers/api";
import {
  ACR_MFA,
  codeFlow,
  insertClient,
  issuerOf,
  type ProviderProject,
  postForm,
  providerProject,
  type TestClient,
} from "../helpers/oauth-provider";
import { workerFetch } from "../helpers/worker-fetch";

type Tokens = { access_token: string; refresh_token: string; id_token: string; scope: string };

let p: ProviderProject;
let client: TestClient;
let user: SignedUp & { sessionId: string };

async function jwks(projectId: string) {
  const res = await workerFetch(`${issuerOf(projectId)}/.well-known/jwks.json`);
  return createLocalJWKSet((await res.json()) as { keys: [] });
}

async function atHashOf(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return btoa(String.fromCharCode(...digest.slice(0, 16)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

const eventsOf = async (projectId: string, type: string) =>
  (
    await env.DB.prepare("SELECT data, user_id FROM events WHERE project_id = ? AND type = ? ORDER BY created_at")
      .bind(projectId, type)
      .all<{ data: string; user_id: string }>()
  ).results.map((r) => ({ ...(JSON.parse(r.data) as Record<string, unknown>), user_id: r.user_id }) as Record<string, unknown>);

const grantOf = async (grantId: string) =>
  env.DB.prepare("SELECT revoked_at, revoked_reason, scope, resource FROM oauth_grants WHERE id = ?")
    .bind(grantId)
    .first<{ revoked_at: number | null; revoked_reason: string | null; scope: string; resource: string | null }>();

beforeAll(async () => {
  p = await providerProject();
  client = await insertClient(p.projectId);
  const signed = await signUp(p.client);
  user = { ...signed, sessionId: decodeJwt(signed.accessToken).refresh_token_id as string };
  await call(`/users/${user.userId}`, {
    ...p.server,
    method: "PATCH",
    body: { display_name: "Ada Lovelace", profile_image_url: "https://img.example/ada.png" },
  });
});

describe("OpenID provider: the code flow", () => {
  it("records the sign-in's amr on the session (RFC 8176: a password is pwd)", async () => {
    const row = await env.DB.prepare("SELECT amr FROM sessions WHERE id = ?").bind(user.sessionId).first<{ amr: string }>();
    expect(JSON.parse(row?.amr ?? "null")).toEqual(["pwd"]);
  });

  it("issues an access token, an ID token valid against the JWKS, and a refresh token", async () => {
    const { res } = await codeFlow(p, client, user);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = res.body as Tokens & { expires_in: number };
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "openid profile email offline_access" });
    expect(String(body.refresh_token)).toMatch(/^dmrt_/);

    const keys = await jwks(p.projectId);
    const { payload: id, protectedHeader } = await jwtVerify(String(body.id_token), keys, {
      issuer: issuerOf(p.projectId),
      audience: client.clientId,
      algorithms: ["ES256"],
    });
    expect(protectedHeader.typ).toBe("JWT");
    expect(id).toMatchObject({
      sub: user.userId,
      azp: client.clientId,
      nonce: "n-456",
      amr: ["pwd"],
      email: user.email,
      email_verified: false,
      name: "Ada Lovelace",
      picture: "https://img.example/ada.png",
      at_hash: await atHashOf(String(body.access_token)),
    });
    expect(id).not.toHaveProperty("acr");
    const session = await env.DB.prepare("SELECT created_at FROM sessions WHERE id = ?")
      .bind(user.sessionId)
      .first<{ created_at: number }>();
    expect(id.auth_time).toBe(Math.floor((session?.created_at ?? 0) / 1000));

    // RFC 9068: typ at+jwt, audience = the issuer (no resource), the grant's id.
    expect(decodeProtectedHeader(String(body.access_token)).typ).toBe("at+jwt");
    const { payload: at } = await jwtVerify(String(body.access_token), keys, {
      issuer: issuerOf(p.projectId),
      audience: issuerOf(p.projectId),
      typ: "at+jwt",
    });
    expect(at).toMatchObject({ sub: user.userId, client_id: client.clientId, scope: "openid profile email offline_access" });
    expect(typeof at.grant_id).toBe("string");
    expect(typeof at.jti).toBe("string");
    const issued = (await eventsOf(p.projectId, "oauth_token.issued")).find((e) => e.grant_id === at.grant_id);
    expect(issued).toMatchObject({ client_id: client.clientId, grant_type: "authorization_code", user_id: user.userId });
  });

  it("puts acr multi-factor and the second factor's amr in the tokens", async () => {
    // No session: the approve writes the amr of an MFA sign-in.
    const { res } = await codeFlow(p, client, { userId: user.userId }, { amr: ["pwd", "otp", "mfa"] });
    const id = decodeJwt(String((res.body as Tokens).id_token));
    expect(id.amr).toEqual(["pwd", "otp", "mfa"]);
    expect(id.acr).toBe(ACR_MFA);
    expect(decodeJwt(String((res.body as Tokens).access_token)).acr).toBe(ACR_MFA);
  });

  it("gives no refresh token without offline_access, and no ID token without openid", async () => {
    const { res } = await codeFlow(p, client, user, { extra: { scope: "profile" } });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("refresh_token");
    expect(res.body).not.toHaveProperty("id_token");
  });

  it("rotates refresh tokens; a spent one presented again revokes the grant (event), and its successor dies with it", async () => {
    const { res } = await codeFlow(p, client, user);
    const first = res.body as Tokens;
    const grantId = decodeJwt(first.access_token).grant_id as string;
    const refreshed = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: first.refresh_token },
      { basic: client },
    );
    expect(refreshed.status, refreshed.text).toBe(200);
    const second = refreshed.body as Tokens;
    expect(second.refresh_token).toMatch(/^dmrt_/);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(second.access_token).grant_id).toBe(grantId);
    // A refreshed ID token has the same auth_time and no nonce (OIDC Core §12.2).
    const id = decodeJwt(second.id_token);
    expect(id).not.toHaveProperty("nonce");
    expect(id.auth_time).toBe(decodeJwt(first.id_token).auth_time);

    const replay = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: first.refresh_token },
      { basic: client },
    );
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error: "invalid_grant" });
    expect(await grantOf(grantId)).toMatchObject({ revoked_reason: "reuse" });
    expect((await eventsOf(p.projectId, "oauth_token.revoked")).filter((e) => e.grant_id === grantId)).toEqual([
      expect.objectContaining({ reason: "reuse", client_id: client.clientId, user_id: user.userId }),
    ]);
    const successor = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: second.refresh_token },
      { basic: client },
    );
    expect(successor.body).toMatchObject({ error: "invalid_grant" });
    const info = await workerFetch(`${issuerOf(p.projectId)}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${second.access_token}` },
    });
    expect(info.status).toBe(401);
  });

  it("lets a refresh narrow the scope, never widen it", async () => {
    const { res } = await codeFlow(p, client, user, { extra: { scope: "openid email offline_access" } });
    const rt = (res.body as Tokens).refresh_token as string;
    const wider = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: rt, scope: "openid profile" },
      { basic: client },
    );
    expect(wider.body).toMatchObject({ error: "invalid_scope" });
    const narrower = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: rt, scope: "openid" },
      { basic: client },
    );
    expect(narrower.status, narrower.text).toBe(200);
    expect(narrower.body).toMatchObject({ scope: "openid" });
    expect(decodeJwt((narrower.body as Tokens).id_token as string)).not.toHaveProperty("email");
  });

  it("refreshes a team-bound grant only while the user is in the team", async () => {
    const team = await call("/teams", { ...p.server, body: { display_name: "Leaving", creator_user_id: user.userId } });
    const { res } = await codeFlow(p, client, user, { extra: { scope: "openid team offline_access" }, teamId: team.body.id });
    const first = res.body as Tokens;
    expect(decodeJwt(first.access_token).team_id).toBe(team.body.id);
    expect(decodeJwt(first.id_token).team_id).toBe(team.body.id);
    const again = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: first.refresh_token },
      { basic: client },
    );
    expect(again.status).toBe(200);
    const left = await call(`/team-memberships/${team.body.id}/${user.userId}`, { ...p.server, method: "DELETE", body: {} });
    expect(left.status, left.text).toBe(200);
    const after = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: (again.body as Tokens).refresh_token },
      { basic: client },
    );
    expect(after.body).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses another client's refresh token without spending it", async () => {
    const other = await insertClient(p.projectId);
    const { res } = await codeFlow(p, client, user);
    const rt = (res.body as Tokens).refresh_token as string;
    const stolen = await postForm(p.projectId, "token", { grant_type: "refresh_token", refresh_token: rt }, { basic: other });
    expect(stolen.body).toMatchObject({ error: "invalid_grant" });
    const own = await postForm(p.projectId, "token", { grant_type: "refresh_token", refresh_token: rt }, { basic: client });
    expect(own.status).toBe(200);
  });
});

describe("OpenID provider: userinfo", () => {
  const userinfo = (token: string, init: RequestInit = {}) =>
    workerFetch(`${issuerOf(p.projectId)}/oauth/userinfo`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    });

  it("answers the claims the scopes allow", async () => {
    const tokenFor = async (scope: string, teamId?: string) =>
      ((await codeFlow(p, client, user, { extra: { scope }, teamId })).res.body as Tokens).access_token as string;
    expect(await (await userinfo(await tokenFor("openid"))).json()).toEqual({ sub: user.userId });
    expect(await (await userinfo(await tokenFor("openid profile"))).json()).toEqual({
      sub: user.userId,
      name: "Ada Lovelace",
      picture: "https://img.example/ada.png",
    });
    expect(await (await userinfo(await tokenFor("openid email"))).json()).toEqual({
      sub: user.userId,
      email: user.email,
      email_verified: false,
    });
    const team = await call("/teams", { ...p.server, body: { display_name: "Team A", creator_user_id: user.userId } });
    expect(await (await userinfo(await tokenFor("openid team", team.body.id))).json()).toEqual({ sub: user.userId, team_id: team.body.id });
  });

  it("takes the token from a POST form, refuses it twice, challenges without one, and needs openid", async () => {
    const { res } = await codeFlow(p, client, user, { extra: { scope: "openid email" } });
    const token = (res.body as Tokens).access_token as string;
    const posted = await postForm(p.projectId, "userinfo", { access_token: token });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({ sub: user.userId, email: user.email });
    const twice = await postForm(p.projectId, "userinfo", { access_token: token }, { headers: { authorization: `Bearer ${token}` } });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ error: "invalid_request" });
    const none = await workerFetch(`${issuerOf(p.projectId)}/oauth/userinfo`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    const bad = await userinfo("not-a-token");
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const noOpenid = ((await codeFlow(p, client, user, { extra: { scope: "profile" } })).res.body as Tokens).access_token as string;
    const insufficient = await userinfo(noOpenid);
    expect(insufficient.status).toBe(403);
    expect(insufficient.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });
});

describe("OpenID provider: audience binding (RFC 8707)", () => {
  const API_A = "https://api-a.example.com/mcp";
  const API_B = "https://api-b.example.com/mcp";

  it("binds the access token to its resource: refused where resource B is expected, by userinfo, and by Doorman's own API", async () => {
    const { res } = await codeFlow(p, client, user, { extra: { resource: API_A } });
    expect(res.status, res.text).toBe(200);
    const token = (res.body as Tokens).access_token as string;
    const keys = await jwks(p.projectId);
    const { payload } = await jwtVerify(token, keys, { issuer: issuerOf(p.projectId), audience: API_A, typ: "at+jwt" });
    expect(payload.aud).toBe(API_A);
    await expect(jwtVerify(token, keys, { issuer: issuerOf(p.projectId), audience: API_B, typ: "at+jwt" })).rejects.toThrow(/aud/);
    // The provider's own userinfo is a resource too: a token for API A is not for it.
    const info = await workerFetch(`${issuerOf(p.projectId)}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });
    expect(info.status).toBe(401);
    expect((await codeFlow(p, client, user, { extra: { resource: API_A } })).res.status).toBe(200);
    // A refresh may name its own resource only.
    const rt = (res.body as Tokens).refresh_token as string;
    const other = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: rt, resource: API_B },
      { basic: client },
    );
    expect(other.body).toMatchObject({ error: "invalid_target" });
    const same = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: rt, resource: API_A },
      { basic: client },
    );
    expect(decodeJwt((same.body as Tokens).access_token as string).aud).toBe(API_A);
  });

  it("Doorman's own API refuses a provider access token as a session token", async () => {
    const { res } = await codeFlow(p, client, user);
    const body = res.body as Tokens;
    for (const token of [body.access_token, body.id_token] as string[]) {
      const me = await call("/users/me", { ...p.client, accessToken: token });
      expect(me.status).toBe(401);
      expect(me.body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
    }
    // The user's own session token still works, of course.
    expect((await call("/users/me", { ...p.client, accessToken: user.accessToken })).status).toBe(200);
  });
});

describe("OpenID provider: a server secret rotation", () => {
  it("keeps tokens signed under SERVER_SECRET_PREVIOUS verifying, and signs new ones with the new key", async () => {
    const { res } = await codeFlow(p, client, user);
    const old = res.body as Tokens;
    const rotated = {
      ...(env as unknown as Record<string, unknown>),
      SERVER_SECRET: `rotated-${crypto.randomUUID()}`,
      SERVER_SECRET_PREVIOUS: DEV_SERVER_SECRET,
    };
    const fetchRotated = async (path: string, init: RequestInit) => {
      const ctx = createExecutionContext();
      const answer = await worker.fetch(new Request(`${issuerOf(p.projectId)}${path}`, init) as never, rotated as never, ctx);
      await waitOnExecutionContext(ctx);
      return answer;
    };
    const info = await fetchRotated("/oauth/userinfo", { headers: { authorization: `Bearer ${old.access_token}` } });
    expect(info.status).toBe(200);
    const refreshed = await fetchRotated("/oauth/token", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${btoa(`${client.clientId}:${client.secret}`)}`,
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: old.refresh_token }).toString(),
    });
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as Tokens;
    expect(decodeProtectedHeader(fresh.access_token).kid).not.toBe(decodeProtectedHeader(old.access_token).kid);
    // The new key is in the rotated JWKS, beside the previous one.
    const keys = (await (await fetchRotated("/.well-known/jwks.json", {})).json()) as { keys: { kid: string }[] };
    expect(keys.keys.map((k) => k.kid)).toEqual(
      expect.arrayContaining([decodeProtectedHeader(fresh.access_token).kid, decodeProtectedHeader(old.access_token).kid]),
    );
  });
});
