/**
 * Config overrides (issue 12), wire as the reference: GET /internal/config answers the rendered
 * config as `config_string`; PATCH /internal/config/override/{level} merges dotted keys; levels
 * apply project → branch → environment; an unknown or invalid key is a plain 400 and writes
 * nothing; the typed project config and the override are one source of truth; secrets are sealed
 * and never answered. Plus the overview counts, transfer and send-sign-in-invitation.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, internalClient, internalServer, signUp, uniqueEmail } from "../helpers/api";
import { sinkEmailConfig, waitForMail } from "../helpers/mail";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const rendered = async (p: Project) => {
  const res = await call("/internal/config", p.admin);
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.body.config_string);
};
const patch = (p: Project, level: string, override: Record<string, unknown>, access: object = p.admin) =>
  call(`/internal/config/override/${level}`, { ...access, method: "PATCH", body: { config_override_string: JSON.stringify(override) } });
const typed = async (p: Project) => (await call("/internal/projects/current", p.admin)).body.config;

describe("config overrides", () => {
  it("renders the reference's nested config from the typed settings", async () => {
    const p = await createProjectWithKeys({
      passkey_enabled: true,
      domains: [{ domain: "https://app.example.com", handler_path: "/auth" }],
    });
    const config = await rendered(p);
    expect(config.auth.passkey.allowSignIn).toBe(true);
    expect(config.auth.password.allowSignIn).toBe(true);
    expect(Object.values(config.domains.trustedDomains)).toEqual([{ baseUrl: "https://app.example.com", handlerPath: "/auth" }]);
    expect(config.rbac.defaultPermissions.teamCreator).toEqual({ team_admin: true });
  });

  it("dotted keys change the typed config, and the typed PATCH shows in the rendered config", async () => {
    const p = await createProjectWithKeys();
    const res = await patch(p, "environment", {
      "auth.passkey.allowSignIn": true,
      "domains.trustedDomains.main": { baseUrl: "https://shop.example.com", handlerPath: "/handler" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await patch(p, "project", { "project.requirePublishableClientKey": true })).status).toBe(200);
    const config = await typed(p);
    expect(config.passkey_enabled).toBe(true);
    expect(config.require_publishable_client_key).toBe(true);
    expect(config.domains).toEqual([{ domain: "https://shop.example.com", handler_path: "/handler" }]);
    // The client view (read per request from the rendered config) sees it at once.
    expect((await call("/projects/current", p.client)).body.config.passkey_enabled).toBe(true);

    // A dotted key into an existing record entry changes one field.
    await patch(p, "environment", { "domains.trustedDomains.main.handlerPath": "/auth" });
    expect((await typed(p)).domains).toEqual([{ domain: "https://shop.example.com", handler_path: "/auth" }]);

    // The typed PATCH writes through the same override.
    const typedPatch = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { magic_link_enabled: true } },
    });
    expect(typedPatch.status, typedPatch.text).toBe(200);
    const config2 = await rendered(p);
    expect(config2.auth.otp.allowSignIn).toBe(true);
    expect(config2.auth.passkey.allowSignIn).toBe(true);
    const env = JSON.parse((await call("/internal/config/override/environment", p.admin)).body.config_string);
    expect(env["auth.otp.allowSignIn"]).toBe(true);
    expect(env["auth.passkey.allowSignIn"]).toBe(true);
  });

  it("levels merge in order: project, then branch, then environment; null resets a key to its default", async () => {
    const p = await createProjectWithKeys();
    // The project level takes only project.*; branch and environment the rest.
    expect((await patch(p, "project", { "project.requirePublishableClientKey": true })).status).toBe(200);
    await patch(p, "branch", { "teams.allowClientTeamCreation": true, "users.allowClientUserDeletion": true });
    await patch(p, "environment", { "teams.allowClientTeamCreation": false });
    let config = await typed(p);
    expect(config.require_publishable_client_key).toBe(true);
    expect(config.client_team_creation_enabled).toBe(false);
    expect(config.client_user_deletion_enabled).toBe(true);
    await patch(p, "environment", { "users.allowClientUserDeletion": false });
    expect((await typed(p)).client_user_deletion_enabled).toBe(false);
    // null at a later level removes the key from the levels before it too: back to the default (off).
    await patch(p, "environment", { "teams.allowClientTeamCreation": null });
    config = await typed(p);
    expect(config.client_team_creation_enabled).toBe(false);
    expect(config.client_user_deletion_enabled).toBe(false);
    const branch = JSON.parse((await call("/internal/config/override/branch", p.admin)).body.config_string);
    expect(branch).toEqual({ "teams.allowClientTeamCreation": true, "users.allowClientUserDeletion": true });
    // The older path writes the environment level.
    const old = await call("/internal/config/override", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "apiKeys.enabled.user": true }) },
    });
    expect(old.status, old.text).toBe(200);
    expect((await typed(p)).allow_user_api_keys).toBe(true);
  });

  it("unknown keys, wrong types, bad JSON and dots into values are a plain 400 and change nothing", async () => {
    const p = await createProjectWithKeys();
    const before = await rendered(p);
    const cases: [unknown, RegExp][] = [
      [{ "auth.passkey.allowSignInn": true }, /Unknown config key: auth\.passkey\.allowSignInn/],
      [{ "auth.passkey.allowSignIn": "yes" }, /auth\.passkey\.allowSignIn/],
      [{ "nothing.here": 1 }, /Unknown config key: nothing/],
      [{ "auth.passkey.allowSignIn.deeper": true }, /auth\.passkey\.allowSignIn: .*expected boolean/],
      [{ "domains.trustedDomains.x": { baseUrl: "https://a.example.com" } }, /handlerPath/],
      [{ "__proto__.polluted": true }, /Invalid config key/],
    ];
    for (const [override, message] of cases) {
      const res = await patch(p, "environment", override as Record<string, unknown>);
      expect(res.status, JSON.stringify(override)).toBe(400);
      expect(res.headers.get("x-stack-known-error")).toBeNull();
      expect(res.text).toMatch(message);
    }
    const bad = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: "{nope" },
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Invalid config JSON");
    const level = await call("/internal/config/override/staging", { ...p.admin, method: "PATCH", body: { config_override_string: "{}" } });
    expect(level.body.code).toBe("SCHEMA_ERROR");
    expect(await rendered(p)).toEqual(before);
  });

  it("the project's rules still hold: an invalid trusted domain or production-mode localhost is refused", async () => {
    const p = await createProjectWithKeys();
    const bad = await patch(p, "environment", { "domains.trustedDomains.x": { baseUrl: "not a url", handlerPath: "/handler" } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Trusted domain is not a valid URL");
    const prod = await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { is_production_mode: true } });
    expect(prod.status).toBe(400);
    expect(prod.text).toContain("Localhost is not allowed in production mode");
  });

  it("secrets are sealed at rest and never answered; server access manages only the branch level", async () => {
    const p = await createProjectWithKeys();
    const res = await patch(p, "environment", {
      "auth.oauth.providers.github": {
        type: "github",
        isShared: false,
        clientId: "gh-id",
        clientSecret: "gh-secret-value",
        allowSignIn: true,
      },
    });
    expect(res.status, res.text).toBe(200);
    const providers = (await typed(p)).oauth_providers;
    expect(providers).toHaveLength(1);
    expect(providers[0]).toMatchObject({ id: "github", type: "standard", client_id: "gh-id" });
    expect(providers[0]).not.toHaveProperty("client_secret");
    const answers = [
      (await call("/internal/config", p.admin)).text,
      (await call("/internal/config/override/environment", p.admin)).text,
      (await call("/internal/projects/current", p.admin)).text,
    ];
    for (const text of answers) expect(text).not.toContain("gh-secret-value");
    expect(answers[0]).not.toContain("clientSecret");
    const row = await env.DB.prepare("SELECT config, config_overrides FROM projects WHERE id = ?")
      .bind(p.projectId)
      .first<Record<string, string>>();
    expect(row?.config).not.toContain("gh-secret-value");
    expect(row?.config_overrides).not.toContain("gh-secret-value");
    expect(row?.config_overrides).toContain("sealed:");

    expect((await patch(p, "branch", { "auth.otp.allowSignIn": true }, p.server)).status).toBe(200);
    const refused = await patch(p, "environment", { "auth.otp.allowSignIn": false }, p.server);
    expect(refused.status).toBe(403);
    expect((await call("/internal/config/override/project", p.server)).status).toBe(403);
    expect((await call("/internal/config", p.server)).status).toBe(401);
    expect((await typed(p)).magic_link_enabled).toBe(true);
  });

  it("concurrent writes to different keys all land (no lost update)", async () => {
    const p = await createProjectWithKeys();
    const keys = [
      "auth.passkey.allowSignIn",
      "auth.otp.allowSignIn",
      "teams.allowClientTeamCreation",
      "apiKeys.enabled.user",
      "apiKeys.enabled.team",
    ];
    const results = await Promise.all(keys.map((k) => patch(p, "environment", { [k]: true })));
    for (const r of results) expect(r.status, r.text).toBe(200);
    const config = await typed(p);
    expect([
      config.passkey_enabled,
      config.magic_link_enabled,
      config.client_team_creation_enabled,
      config.allow_user_api_keys,
      config.allow_team_api_keys,
    ]).toEqual([true, true, true, true, true]);
  });

  it("PUT replaces a level's override", async () => {
    const p = await createProjectWithKeys();
    await patch(p, "branch", { "auth.otp.allowSignIn": true, "auth.passkey.allowSignIn": true });
    const put = await call("/internal/config/override/branch", {
      ...p.admin,
      method: "PUT",
      body: { config_string: JSON.stringify({ "auth.passkey.allowSignIn": true }), source: { type: "pushed-from-unknown" } },
    });
    expect(put.status, put.text).toBe(200);
    const config = await typed(p);
    expect(config.magic_link_enabled).toBe(false);
    expect(config.passkey_enabled).toBe(true);
  });
});

describe("console admin routes", () => {
  it("overview counts users, anonymous users, teams, today's sign-ups and active sessions", async () => {
    const p = await createProjectWithKeys();
    const empty = await call("/internal/projects/current/stats", p.admin);
    expect(empty.body).toEqual({
      user_count: 0,
      anonymous_user_count: 0,
      team_count: 0,
      sign_ups_today: 0,
      active_session_count: 0,
      ai_usage: { requests: 0, prompt_tokens: 0, completion_tokens: 0 },
      ai_configured: false,
    });
    await signUp(p.client);
    await signUp(p.client);
    await call("/auth/anonymous/sign-up", { ...p.client, method: "POST", body: {} });
    await call("/teams", { ...p.server, body: { display_name: "Team" } });
    const stats = await call("/internal/projects/current/stats", p.admin);
    expect(stats.body).toMatchObject({ user_count: 2, anonymous_user_count: 1, team_count: 1, sign_ups_today: 3, active_session_count: 3 });
    expect((await call("/internal/projects/current/stats", p.server)).status).toBe(401);
  });

  it("send-sign-in-invitation emails the templated invitation to a trusted callback, and refuses an untrusted one", async () => {
    const p = await createProjectWithKeys({
      email_config: sinkEmailConfig(),
      domains: [{ domain: "https://app.example.com", handler_path: "/handler" }],
    });
    const to = uniqueEmail("invite");
    const res = await call("/internal/send-sign-in-invitation", {
      ...p.admin,
      body: { email: to, callback_url: "https://app.example.com/welcome" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const [mail] = await waitForMail(to);
    expect(mail?.subject).toBe("You have been invited to Test project");
    expect(mail?.text).toContain("https://app.example.com/welcome");
    // The invitation grants nothing, so the log keeps its link readable.
    const log = await call("/internal/emails", p.admin);
    expect((await call(`/internal/emails/${log.body.items[0].id}`, p.admin)).body.text).toContain("https://app.example.com/welcome");
    const untrusted = await call("/internal/send-sign-in-invitation", {
      ...p.admin,
      body: { email: to, callback_url: "https://evil.example.net/" },
    });
    expect(untrusted.status).toBe(400);
    expect(untrusted.body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    expect(
      (await call("/internal/send-sign-in-invitation", { ...p.server, body: { email: to, callback_url: "https://app.example.com/" } }))
        .status,
    ).toBe(401);
  });

  it("transfer moves a project to another team of its owner, and only there", async () => {
    const p = await createProjectWithKeys();
    const owner = { ...internalClient, accessToken: p.owner.accessToken };
    const team = await call("/teams", { ...internalServer, body: { display_name: "Second team", creator_user_id: p.owner.userId } });
    expect(team.status, team.text).toBe(201);
    const teamId: string = team.body.id;
    const moved = await call("/internal/projects/transfer", { ...owner, body: { project_id: p.projectId, new_team_id: teamId } });
    expect(moved.status, moved.text).toBe(200);
    expect((await call("/internal/projects/current", p.admin)).body.owner_team_id).toBe(teamId);
    const stranger = await signUp();
    const refused = await call("/internal/projects/transfer", {
      ...internalClient,
      accessToken: stranger.accessToken,
      body: { project_id: p.projectId, new_team_id: teamId },
    });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe("PROJECT_NOT_FOUND");
  });
});

describe("anonymous sign-up switch", () => {
  it("auth.anonymous.allowSignIn off refuses guest sign-up with ANONYMOUS_ACCOUNTS_NOT_ENABLED, independent of sign-ups", async () => {
    const p = await createProjectWithKeys({ sign_up_enabled: false });
    // Closed sign-up still allows guests (the reference's rule): the switches are independent.
    expect((await call("/auth/anonymous/sign-up", { ...p.client, method: "POST", body: {} })).status).toBe(200);
    const off = await patch(p, "environment", { "auth.anonymous.allowSignIn": false });
    expect(off.status, off.text).toBe(200);
    expect((await typed(p)).anonymous_sign_up_enabled).toBe(false);
    const refused = await call("/auth/anonymous/sign-up", { ...p.client, method: "POST", body: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("ANONYMOUS_ACCOUNTS_NOT_ENABLED");
    await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config: { anonymous_sign_up_enabled: true } } });
    expect((await call("/auth/anonymous/sign-up", { ...p.client, method: "POST", body: {} })).status).toBe(200);
  });
});
