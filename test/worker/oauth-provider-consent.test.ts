/**
 * The OpenID provider's consent API (issue 30), through the front door: the consent page's view of a
 * pending authorization request, approve (code, state, iss; the consent remembered) and deny, the
 * races between answers, team-bound requests, prompt=login / prompt=none / max_age, and the user's
 * authorized apps (list, revoke → grants revoked), with their events and access levels. The pending
 * requests, clients and grants are written into D1 as /authorize, the registry and /token leave them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type CallOptions, call, createProjectWithKeys, type SignedUp, signUp } from "../helpers/api";
import {
  consentRow,
  eventsOf,
  grantRow,
  insertClient,
  insertGrant,
  insertPendingRequest,
  requestRow,
  sessionOf,
  setSessionAmr,
  sha256Hex,
  type TestClient,
} from "../helpers/oauth-provider-consent";
import { createTeamAs } from "../helpers/teams";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const REQUESTS = "/oauth-provider/authorization-requests";
const APPS = "/oauth-provider/authorized-apps";
const MFA_ACR = "http://schemas.openid.net/pape/policies/2007/06/multi-factor";

let p: Project;
const as = (user: SignedUp, extra: CallOptions = {}): CallOptions => ({ ...p.client, accessToken: user.accessToken, ...extra });
const issuerOf = (projectId: string) => `http://localhost/api/v1/projects/${projectId}`;

beforeAll(async () => {
  p = await createProjectWithKeys({ client_team_creation_enabled: true });
  const scopes = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: {
      config_override_string: JSON.stringify({
        "doorman.oauthProvider.scopes": { "notes:read": { description: "Read your notes" } },
        // An app whose client id is a URL (a metadata document) is one only while the project accepts them.
        "doorman.oauthProvider.clientIdMetadataDocuments": true,
      }),
    },
  });
  expect(scopes.status, scopes.text).toBe(200);
}, 60_000);

async function freshUser(): Promise<SignedUp> {
  return signUp(p.client);
}

describe("the consent page's view of a request", () => {
  it("shows the app, the scopes (custom ones with the owner's words), the resource and the prompt", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId, {
      name: "Notes App",
      clientUri: "https://notes.example",
      policyUri: "https://notes.example/privacy",
      tosUri: "https://notes.example/terms",
      logoUri: "https://notes.example/logo.png",
    });
    const id = await insertPendingRequest(p.projectId, client, {
      scope: "notes:read email openid offline_access",
      resource: "https://api.notes.example/",
      prompt: "select_account",
    });
    const res = await call(`${REQUESTS}/${id}`, as(user));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id,
      client: {
        client_id: client.clientId,
        name: "Notes App",
        logo_uri: "https://notes.example/logo.png",
        client_uri: "https://notes.example",
        policy_uri: "https://notes.example/privacy",
        tos_uri: "https://notes.example/terms",
        source: "console",
      },
      resource: "https://api.notes.example/",
      redirect_uri: client.redirectUri,
      team_requested: false,
      teams: [],
      prompt: ["select_account"],
      consent_required: true,
      reauthentication_required: false,
    });
    // Standard scopes first, in the provider's order, with no description (the page words them); then custom ones.
    expect(res.body.scopes).toEqual([
      { name: "openid", description: null },
      { name: "email", description: null },
      { name: "offline_access", description: null },
      { name: "notes:read", description: "Read your notes" },
    ]);
    expect(res.body.expires_at_millis).toBeGreaterThan(Date.now());
    // Never a secret of the client.
    expect(res.text).not.toMatch(/secret|jwks|code_challenge/);
  });

  it("is not found when unknown, expired, answered, another project's, or its app is gone", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const unknown = await call(`${REQUESTS}/req_nope`, as(user));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");
    expect(unknown.body.details).toEqual({ request_id: "req_nope" });

    const expired = await insertPendingRequest(p.projectId, client, { createdAt: Date.now() - 11 * 60_000 });
    expect((await call(`${REQUESTS}/${expired}`, as(user))).body.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");

    const answered = await insertPendingRequest(p.projectId, client);
    expect((await call(`${REQUESTS}/${answered}/deny`, { ...as(user), body: {} })).status).toBe(200);
    expect((await call(`${REQUESTS}/${answered}`, as(user))).body.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");

    const other = await createProjectWithKeys();
    const otherUser = await signUp(other.client);
    const mine = await insertPendingRequest(p.projectId, client);
    const foreign = await call(`${REQUESTS}/${mine}`, { ...other.client, accessToken: otherUser.accessToken });
    expect(foreign.body.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");
    const foreignApprove = await call(`${REQUESTS}/${mine}/approve`, { ...other.client, accessToken: otherUser.accessToken, body: {} });
    expect(foreignApprove.body.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");
    expect((await requestRow(mine)).status).toBe("pending");

    const orphanClient = await insertClient(p.projectId);
    const orphan = await insertPendingRequest(p.projectId, orphanClient);
    await call(`${REQUESTS}/${orphan}`, as(user)); // still there
    const { env } = await import("cloudflare:test");
    await env.DB.prepare("DELETE FROM oauth_clients WHERE client_id = ?").bind(orphanClient.clientId).run();
    expect((await call(`${REQUESTS}/${orphan}`, as(user))).body.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");
  });

  it("needs the client level and a signed-in user", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client);
    const server = await call(`${REQUESTS}/${id}`, { ...p.server, accessToken: user.accessToken });
    expect(server.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    const admin = await call(`${REQUESTS}/${id}/approve`, { ...p.adminKey, accessToken: user.accessToken, body: {} });
    expect(admin.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    const nobody = await call(`${REQUESTS}/${id}`, p.client);
    expect(nobody.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const nobodyApproves = await call(`${REQUESTS}/${id}/approve`, { ...p.client, body: {} });
    expect(nobodyApproves.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    expect((await requestRow(id)).status).toBe("pending");
  });
});

describe("approve", () => {
  it("answers the redirect URI with code, state and iss; stores only the code's hash, valid 60 s", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId, { redirectUri: "https://notes.example/cb?tenant=7" });
    const id = await insertPendingRequest(p.projectId, client, { scope: "openid email", state: "s-123" });
    const session = await sessionOf(user.userId);
    const before = Date.now();
    const res = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} });
    expect(res.status, res.text).toBe(200);
    const url = new URL(res.body.redirect_url);
    expect(`${url.origin}${url.pathname}`).toBe("https://notes.example/cb");
    // The app's own query stays (RFC 6749 §3.1.2); iss per RFC 9207.
    expect(url.searchParams.get("tenant")).toBe("7");
    expect(url.searchParams.get("state")).toBe("s-123");
    expect(url.searchParams.get("iss")).toBe(issuerOf(p.projectId));
    const code = url.searchParams.get("code") ?? "";
    expect(code).toMatch(/^[0-9a-z]{43}$/);

    const row = await requestRow(id);
    expect(row).toMatchObject({ status: "approved", user_id: user.userId, team_id: null, auth_time: session.created_at, acr: null });
    expect(row.code_hash).toBe(await sha256Hex(code));
    expect(res.text).not.toContain(row.code_hash);
    expect(row.expires_at).toBeGreaterThanOrEqual(before + 60_000);
    expect(row.expires_at).toBeLessThanOrEqual(Date.now() + 60_000);

    expect(await consentRow(p.projectId, user.userId, client.clientId)).toMatchObject({ scope: "email openid", team_id: null });
    const events = (await eventsOf(p.projectId, "oauth_app.authorized")).filter((e) => e.userId === user.userId);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({ client_id: client.clientId, client_name: client.name, scope: "openid email" });

    // Answered once: a second approval (or a deny) finds nothing pending.
    const again = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");
    expect((await call(`${REQUESTS}/${id}/deny`, { ...as(user), body: {} })).status).toBe(404);
  });

  it("leaves out state when the app sent none, and carries amr and the multi-factor acr of the session", async () => {
    const user = await freshUser();
    const session = await sessionOf(user.userId);
    await setSessionAmr(session.id, ["pwd", "otp", "mfa"]);
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client, { state: null });
    const res = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} });
    expect(res.status, res.text).toBe(200);
    expect(new URL(res.body.redirect_url).searchParams.has("state")).toBe(false);
    const row = await requestRow(id);
    expect(JSON.parse(row.amr ?? "null")).toEqual(["pwd", "otp", "mfa"]);
    expect(row.acr).toBe(MFA_ACR);
  });

  it("of concurrent approvals exactly one wins; the others get the not-found error", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client);
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} })));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect(lost.status).toBe(404);
      expect(lost.body.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");
    }
    const code = new URL(won[0]?.body.redirect_url).searchParams.get("code") ?? "";
    expect((await requestRow(id)).code_hash).toBe(await sha256Hex(code));
    expect((await eventsOf(p.projectId, "oauth_app.authorized")).filter((e) => e.userId === user.userId)).toHaveLength(1);
  });

  it("races an approval against a deny: one answer lands, the other is not found", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client);
    const [a, d] = await Promise.all([
      call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} }),
      call(`${REQUESTS}/${id}/deny`, { ...as(user), body: {} }),
    ]);
    expect([a.status, d.status].sort()).toEqual([200, 404]);
    expect((await requestRow(id)).status).toBe(a.status === 200 ? "approved" : "denied");
  });

  it("refuses a code after the request expired", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client, { expiresAt: Date.now() + 30_000 });
    const late = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {}, nowMs: Date.now() + 31_000 });
    expect(late.body.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");
    expect((await requestRow(id)).status).toBe("pending");
  });
});

describe("consent memory and prompts", () => {
  it("remembers the consent: the same scopes again need no consent, new ones or prompt=consent do; scopes accumulate", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const first = await insertPendingRequest(p.projectId, client, { scope: "openid" });
    expect((await call(`${REQUESTS}/${first}`, as(user))).body.consent_required).toBe(true);
    expect((await call(`${REQUESTS}/${first}/approve`, { ...as(user), body: {} })).status).toBe(200);

    const same = await insertPendingRequest(p.projectId, client, { scope: "openid" });
    expect((await call(`${REQUESTS}/${same}`, as(user))).body.consent_required).toBe(false);
    const forced = await insertPendingRequest(p.projectId, client, { scope: "openid", prompt: "consent" });
    expect((await call(`${REQUESTS}/${forced}`, as(user))).body.consent_required).toBe(true);
    const wider = await insertPendingRequest(p.projectId, client, { scope: "openid email" });
    expect((await call(`${REQUESTS}/${wider}`, as(user))).body.consent_required).toBe(true);
    expect((await call(`${REQUESTS}/${wider}/approve`, { ...as(user), body: {} })).status).toBe(200);
    // The union, sorted: asking for less later never narrows what was consented.
    const narrower = await insertPendingRequest(p.projectId, client, { scope: "email" });
    expect((await call(`${REQUESTS}/${narrower}`, as(user))).body.consent_required).toBe(false);
    expect((await call(`${REQUESTS}/${narrower}/approve`, { ...as(user), body: {} })).status).toBe(200);
    expect((await consentRow(p.projectId, user.userId, client.clientId))?.scope).toBe("email openid");

    // Another user's consent is theirs alone.
    const other = await freshUser();
    const theirs = await insertPendingRequest(p.projectId, client, { scope: "openid" });
    expect((await call(`${REQUESTS}/${theirs}`, as(other))).body.consent_required).toBe(true);
  });

  it("prompt=login: a session from before the request must sign in again; a new sign-in is fresh", async () => {
    const user = await freshUser();
    const session = await sessionOf(user.userId);
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client, { prompt: "login consent", createdAt: session.created_at + 1000 });
    const view = await call(`${REQUESTS}/${id}`, as(user));
    expect(view.body.reauthentication_required).toBe(true);
    expect(view.body.prompt).toEqual(["login", "consent"]);
    const refused = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("OAUTH_REAUTHENTICATION_REQUIRED");
    expect((await requestRow(id)).status).toBe("pending");

    // Signed in again after the request: fresh.
    const earlier = await insertPendingRequest(p.projectId, client, { prompt: "login", createdAt: Date.now() - 1000 });
    const again = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    expect(again.status, again.text).toBe(200);
    const fresh = { ...user, accessToken: again.body.access_token as string };
    expect((await call(`${REQUESTS}/${earlier}`, as(fresh))).body.reauthentication_required).toBe(false);
    const approved = await call(`${REQUESTS}/${earlier}/approve`, { ...as(fresh), body: {} });
    expect(approved.status, approved.text).toBe(200);
    expect((await requestRow(earlier)).auth_time).toBe((await sessionOf(user.userId)).created_at);
  });

  it("an admin's impersonation session never approves an app for the user", async () => {
    const user = await freshUser();
    const opened = await call("/auth/sessions", { ...p.server, body: { user_id: user.userId, is_impersonation: true } });
    expect(opened.status, opened.text).toBe(200);
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client, { createdAt: Date.now() - 60_000 });
    const impersonating = { ...user, accessToken: opened.body.access_token as string };
    expect((await call(`${REQUESTS}/${id}`, as(impersonating))).body.reauthentication_required).toBe(true);
    const refused = await call(`${REQUESTS}/${id}/approve`, { ...as(impersonating), body: {} });
    expect(refused.body.code).toBe("OAUTH_REAUTHENTICATION_REQUIRED");
    expect((await requestRow(id)).status).toBe("pending");
  });

  it("max_age: a session older than it must sign in again", async () => {
    const user = await freshUser();
    const session = await sessionOf(user.userId);
    const client = await insertClient(p.projectId);
    const at = session.created_at + 120_000;
    const strict = await insertPendingRequest(p.projectId, client, { maxAge: 60, createdAt: session.created_at + 1 });
    const lax = await insertPendingRequest(p.projectId, client, { maxAge: 600, createdAt: session.created_at + 1 });
    expect((await call(`${REQUESTS}/${strict}`, as(user, { nowMs: at }))).body.reauthentication_required).toBe(true);
    expect((await call(`${REQUESTS}/${lax}`, as(user, { nowMs: at }))).body.reauthentication_required).toBe(false);
    expect((await call(`${REQUESTS}/${strict}/approve`, { ...as(user, { nowMs: at }), body: {} })).body.code).toBe(
      "OAUTH_REAUTHENTICATION_REQUIRED",
    );
    expect((await call(`${REQUESTS}/${lax}/approve`, { ...as(user, { nowMs: at }), body: {} })).status).toBe(200);
  });
});

describe("team-bound requests", () => {
  let user: SignedUp;
  let teamId: string;
  let client: TestClient;
  beforeAll(async () => {
    user = await freshUser();
    teamId = await createTeamAs(p, user, "Acme");
    client = await insertClient(p.projectId, { name: "Team Tool" });
  });

  it("lists the user's teams, and requires one of them", async () => {
    const id = await insertPendingRequest(p.projectId, client, { scope: "openid team", teamRequested: true });
    const view = await call(`${REQUESTS}/${id}`, as(user));
    expect(view.body.team_requested).toBe(true);
    expect(view.body.teams).toContainEqual({ id: teamId, display_name: "Acme" });

    const none = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe("OAUTH_TEAM_REQUIRED");

    const stranger = await freshUser();
    const strangersTeam = await createTeamAs(p, stranger, "Not yours");
    const notMine = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: { team_id: strangersTeam } });
    expect(notMine.body.code).toBe("TEAM_MEMBERSHIP_NOT_FOUND");

    const other = await createProjectWithKeys({ client_team_creation_enabled: true });
    const otherUser = await signUp(other.client);
    const foreignTeam = (
      await call("/teams", { ...other.client, accessToken: otherUser.accessToken, body: { display_name: "F", creator_user_id: "me" } })
    ).body.id as string;
    expect((await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: { team_id: foreignTeam } })).body.code).toBe(
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    expect((await requestRow(id)).status).toBe("pending");

    const ok = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: { team_id: teamId } });
    expect(ok.status, ok.text).toBe(200);
    expect((await requestRow(id)).team_id).toBe(teamId);
    expect((await consentRow(p.projectId, user.userId, client.clientId))?.team_id).toBe(teamId);
    const event = (await eventsOf(p.projectId, "oauth_app.authorized")).find((e) => e.userId === user.userId);
    expect(event?.teamId).toBe(teamId);
    expect(event?.data.team_id).toBe(teamId);
  });

  it("a remembered team lets the page approve at once without naming it again", async () => {
    const id = await insertPendingRequest(p.projectId, client, { scope: "openid team", teamRequested: true });
    expect((await call(`${REQUESTS}/${id}`, as(user))).body.consent_required).toBe(false);
    const res = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} });
    expect(res.status, res.text).toBe(200);
    expect((await requestRow(id)).team_id).toBe(teamId);
  });

  it("a request without a team ignores team_id and keeps the remembered team", async () => {
    const id = await insertPendingRequest(p.projectId, client, { scope: "openid" });
    const res = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: { team_id: teamId } });
    expect(res.status, res.text).toBe(200);
    expect((await requestRow(id)).team_id).toBeNull();
    expect((await consentRow(p.projectId, user.userId, client.clientId))?.team_id).toBe(teamId);
  });
});

describe("deny", () => {
  it("answers access_denied with state and iss, and records who refused", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client, { state: "st" });
    const res = await call(`${REQUESTS}/${id}/deny`, { ...as(user), body: {} });
    expect(res.status, res.text).toBe(200);
    const url = new URL(res.body.redirect_url);
    expect(Object.fromEntries(url.searchParams)).toEqual({ error: "access_denied", state: "st", iss: issuerOf(p.projectId) });
    expect(await requestRow(id)).toMatchObject({ status: "denied", user_id: user.userId, code_hash: null });
    const events = (await eventsOf(p.projectId, "oauth_app.denied")).filter((e) => e.userId === user.userId);
    expect(events.map((e) => e.data)).toEqual([{ client_id: client.clientId, client_name: client.name, error: "access_denied" }]);
    expect(await consentRow(p.projectId, user.userId, client.clientId)).toBeNull();
  });

  it("a signed-in prompt=none request that needs consent is denied with consent_required", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client, { prompt: "none" });
    const res = await call(`${REQUESTS}/${id}/deny`, { ...as(user), body: { error: "consent_required" } });
    expect(new URL(res.body.redirect_url).searchParams.get("error")).toBe("consent_required");
  });

  it("without a session: only a prompt=none request, with login_required, and no event", async () => {
    const client = await insertClient(p.projectId);
    const interactive = await insertPendingRequest(p.projectId, client);
    const refused = await call(`${REQUESTS}/${interactive}/deny`, { ...p.client, body: {} });
    expect(refused.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    expect((await requestRow(interactive)).status).toBe("pending");

    const silent = await insertPendingRequest(p.projectId, client, { prompt: "none", state: "quiet" });
    const wrongError = await call(`${REQUESTS}/${silent}/deny`, { ...p.client, body: { error: "access_denied" } });
    expect(wrongError.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const before = (await eventsOf(p.projectId, "oauth_app.denied")).length;
    const res = await call(`${REQUESTS}/${silent}/deny`, { ...p.client, body: {} });
    expect(res.status, res.text).toBe(200);
    expect(Object.fromEntries(new URL(res.body.redirect_url).searchParams)).toEqual({
      error: "login_required",
      state: "quiet",
      iss: issuerOf(p.projectId),
    });
    expect(await requestRow(silent)).toMatchObject({ status: "denied", user_id: null });
    expect(await eventsOf(p.projectId, "oauth_app.denied")).toHaveLength(before);
  });

  it("refuses an error outside the OIDC list", async () => {
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client);
    const res = await call(`${REQUESTS}/${id}/deny`, { ...as(user), body: { error: "server_error" } });
    expect(res.body.code).toBe("SCHEMA_ERROR");
  });
});

describe("authorized apps", () => {
  async function approveApp(user: SignedUp, client: TestClient, scope = "openid email"): Promise<void> {
    const id = await insertPendingRequest(p.projectId, client, { scope });
    const res = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} });
    expect(res.status, res.text).toBe(200);
  }

  it("lists the user's apps with scopes, dates and last use; a deleted app is left out", async () => {
    const user = await freshUser();
    const notes = await insertClient(p.projectId, { name: "Notes", source: "dynamic" });
    const calendar = await insertClient(p.projectId, { name: "Calendar" });
    const gone = await insertClient(p.projectId, { name: "Gone" });
    await approveApp(user, notes);
    await approveApp(user, calendar, "openid");
    await approveApp(user, gone);
    const used = Date.now() - 5_000;
    await insertGrant(p.projectId, user.userId, calendar.clientId, { lastUsedAt: used - 60_000 });
    await insertGrant(p.projectId, user.userId, calendar.clientId, { lastUsedAt: used });
    const { env } = await import("cloudflare:test");
    await env.DB.prepare("DELETE FROM oauth_clients WHERE client_id = ?").bind(gone.clientId).run();

    const res = await call(APPS, as(user));
    expect(res.status, res.text).toBe(200);
    expect(res.body.is_paginated).toBe(false);
    expect(res.body.items.map((a: { client: { name: string } }) => a.client.name)).toEqual(["Notes", "Calendar"]);
    const [n, c] = res.body.items;
    expect(n).toMatchObject({
      client: { client_id: notes.clientId, source: "dynamic" },
      scopes: ["email", "openid"],
      team_id: null,
      last_used_at_millis: null,
    });
    expect(n.authorized_at_millis).toBeLessThanOrEqual(Date.now());
    expect(c).toMatchObject({ scopes: ["openid"], last_used_at_millis: used });

    // Only one's own: another user sees none of them.
    expect((await call(APPS, as(await freshUser()))).body.items).toEqual([]);
    expect((await call(APPS, { ...p.server, accessToken: user.accessToken })).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    expect((await call(APPS, p.client)).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  it("revoke forgets the consent, revokes the user's grants of the app and its unredeemed codes, once", async () => {
    const user = await freshUser();
    const other = await freshUser();
    const app = await insertClient(p.projectId, { name: "Revoke Me" });
    const keep = await insertClient(p.projectId, { name: "Keep Me" });
    await approveApp(user, app);
    await approveApp(user, keep);
    await approveApp(other, app);
    const grants = [await insertGrant(p.projectId, user.userId, app.clientId), await insertGrant(p.projectId, user.userId, app.clientId)];
    const keptGrant = await insertGrant(p.projectId, user.userId, keep.clientId);
    const othersGrant = await insertGrant(p.projectId, other.userId, app.clientId);
    const unredeemed = await insertPendingRequest(p.projectId, app);
    const approvedNow = await call(`${REQUESTS}/${unredeemed}/approve`, { ...as(user), body: {} });
    expect(approvedNow.status).toBe(200);

    const res = await call(`${APPS}/${encodeURIComponent(app.clientId)}`, { ...as(user), method: "DELETE" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await consentRow(p.projectId, user.userId, app.clientId)).toBeNull();
    for (const g of grants) expect(await grantRow(g)).toMatchObject({ revoked_reason: "user" });
    expect((await grantRow(grants[0] as string)).revoked_at).toBeGreaterThan(0);
    expect((await grantRow(keptGrant)).revoked_at).toBeNull();
    expect((await grantRow(othersGrant)).revoked_at).toBeNull();
    expect(await consentRow(p.projectId, other.userId, app.clientId)).not.toBeNull();
    expect((await requestRow(unredeemed)).expires_at).toBeLessThanOrEqual(Date.now());
    const events = (await eventsOf(p.projectId, "oauth_app.revoked")).filter((e) => e.userId === user.userId);
    expect(events.map((e) => e.data)).toEqual([{ client_id: app.clientId, client_name: "Revoke Me" }]);

    const listed = await call(APPS, as(user));
    expect(listed.body.items.map((a: { client: { name: string } }) => a.client.name)).toEqual(["Keep Me"]);
    // The next request asks again.
    const next = await insertPendingRequest(p.projectId, app, { scope: "openid" });
    expect((await call(`${REQUESTS}/${next}`, as(user))).body.consent_required).toBe(true);

    const again = await call(`${APPS}/${encodeURIComponent(app.clientId)}`, { ...as(user), method: "DELETE" });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("OAUTH_AUTHORIZED_APP_NOT_FOUND");
    expect(again.body.details).toEqual({ client_id: app.clientId });
    expect((await eventsOf(p.projectId, "oauth_app.revoked")).filter((e) => e.userId === user.userId)).toHaveLength(1);
  });

  it("revokes an app whose client id is a URL (a metadata document), percent-encoded in the path", async () => {
    const user = await freshUser();
    const cimd = await insertClient(p.projectId, {
      clientId: `https://mcp.example/clients/${Date.now()}.json`,
      name: "MCP Client",
      source: "metadata_document",
    });
    await approveApp(user, cimd, "openid");
    expect((await call(APPS, as(user))).body.items[0].client.client_id).toBe(cimd.clientId);
    const res = await call(`${APPS}/${encodeURIComponent(cimd.clientId)}`, { ...as(user), method: "DELETE" });
    expect(res.status, res.text).toBe(200);
    expect(await consentRow(p.projectId, user.userId, cimd.clientId)).toBeNull();
  });

  it("a user cannot revoke another user's app, nor with the server key", async () => {
    const owner = await freshUser();
    const app = await insertClient(p.projectId);
    await approveApp(owner, app);
    const stranger = await freshUser();
    const res = await call(`${APPS}/${encodeURIComponent(app.clientId)}`, { ...as(stranger), method: "DELETE" });
    expect(res.body.code).toBe("OAUTH_AUTHORIZED_APP_NOT_FOUND");
    const server = await call(`${APPS}/${encodeURIComponent(app.clientId)}`, {
      ...p.server,
      accessToken: owner.accessToken,
      method: "DELETE",
    });
    expect(server.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    expect(await consentRow(p.projectId, owner.userId, app.clientId)).not.toBeNull();
  });

  it("the user's recent activity shows authorizing and revoking an app", async () => {
    const user = await freshUser();
    const app = await insertClient(p.projectId, { name: "Activity App" });
    await approveApp(user, app);
    await call(`${APPS}/${encodeURIComponent(app.clientId)}`, { ...as(user), method: "DELETE" });
    const res = await call("/users/me/activity", as(user));
    expect(res.status, res.text).toBe(200);
    const types = res.body.items.map((i: { type: string }) => i.type);
    expect(types).toContain("oauth_app.authorized");
    expect(types).toContain("oauth_app.revoked");
  });
});

describe("remembering a consent (the guarded upsert of the approval's batch)", () => {
  it("writes only for an approval that landed, and never narrows a consent widened meanwhile", async () => {
    const { env } = await import("cloudflare:test");
    const { createDb } = await import("../../worker/db/client");
    const { rememberOAuthConsentStatement } = await import("../../worker/db/queries/oauth-consents");
    const db = createDb(env.DB);
    const user = await freshUser();
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client, { scope: "openid" });
    const base = { projectId: p.projectId, userId: user.userId, clientId: client.clientId, teamId: null, now: Date.now() };

    // No approval with this code hash: nothing is written.
    const stray = await rememberOAuthConsentStatement(db, {
      ...base,
      scope: "openid",
      previousScope: null,
      approval: { requestId: id, codeHash: "nope" },
    });
    expect(stray).toEqual([]);
    expect(await consentRow(p.projectId, user.userId, client.clientId)).toBeNull();

    const res = await call(`${REQUESTS}/${id}/approve`, { ...as(user), body: {} });
    const codeHash = await sha256Hex(new URL(res.body.redirect_url).searchParams.get("code") ?? "");
    // A write that read "openid" while another approval made it "email openid" is refused, not applied.
    await env.DB.prepare("UPDATE oauth_consents SET scope = 'email openid' WHERE user_id = ?").bind(user.userId).run();
    const stale = await rememberOAuthConsentStatement(db, {
      ...base,
      scope: "openid profile",
      previousScope: "openid",
      approval: { requestId: id, codeHash },
    });
    expect(stale).toEqual([]);
    expect((await consentRow(p.projectId, user.userId, client.clientId))?.scope).toBe("email openid");
    const fresh = await rememberOAuthConsentStatement(db, {
      ...base,
      scope: "email openid profile",
      previousScope: "email openid",
      approval: { requestId: id, codeHash },
    });
    expect(fresh).toEqual([{ scope: "email openid profile" }]);
  });
});
