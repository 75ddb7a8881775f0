/** Projects: client view, owner create/list/transfer, admin read/update/delete, config rules. */
import { describe, expect, it } from "vitest";
import { DARK_EMAIL_THEME_ID } from "../../worker/services/email/defaults";
import { call, createProjectWithKeys, internalClient, internalServer, signUp } from "../helpers/api";

describe("projects", () => {
  it("GET /projects/current is the client view", async () => {
    const p = await createProjectWithKeys({
      magic_link_enabled: true,
      domains: [{ domain: "https://app.example.com", handler_path: "/auth" }],
    });
    const res = await call("/projects/current", p.client);
    expect(res.body).toEqual({
      id: p.projectId,
      display_name: "Test project",
      config: {
        sign_up_enabled: true,
        credential_enabled: true,
        magic_link_enabled: true,
        passkey_enabled: false,
        client_team_creation_enabled: false,
        client_user_deletion_enabled: false,
        allow_user_api_keys: false,
        allow_team_api_keys: false,
        enabled_oauth_providers: [],
        domains: [{ domain: "https://app.example.com", handler_path: "/auth" }],
        // Doorman extension: the Turnstile widget's public settings (none without keys; docs/security.md).
        bot_challenge: null,
      },
    });
  });

  it("owners create and list only their own projects", async () => {
    const a = await signUp();
    const b = await signUp();
    const created = await call("/internal/projects", {
      ...internalClient,
      accessToken: a.accessToken,
      body: { display_name: "A's", description: "desc" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      display_name: "A's",
      description: "desc",
      is_production_mode: false,
      onboarding_status: "completed",
    });
    expect(typeof created.body.owner_team_id).toBe("string");
    expect(created.body.config).toMatchObject({
      allow_localhost: true,
      oauth_account_merge_strategy: "link_method",
      email_config: { type: "shared" },
    });
    const listA = await call("/internal/projects", { ...internalClient, accessToken: a.accessToken });
    expect(listA.body.items.map((p: { id: string }) => p.id)).toEqual([created.body.id]);
    const listB = await call("/internal/projects", { ...internalClient, accessToken: b.accessToken });
    expect(listB.body.items).toEqual([]);
  });

  it("project creation needs a user of the internal project", async () => {
    const p = await createProjectWithKeys();
    const outsider = await signUp(p.client);
    expect(
      (await call("/internal/projects", { ...p.client, accessToken: outsider.accessToken, body: { display_name: "x" } })).body.code,
    ).toBe("EXPECTED_INTERNAL_PROJECT");
    expect((await call("/internal/projects", { ...internalClient, body: { display_name: "x" } })).body.code).toBe(
      "USER_AUTHENTICATION_REQUIRED",
    );
    const a = await signUp();
    const foreignTeam = await call("/internal/projects", {
      ...internalClient,
      accessToken: a.accessToken,
      body: { display_name: "x", owner_team_id: "6f1a4f0e-3b5d-4c1e-9a7b-000000000000" },
    });
    expect(foreignTeam.status).toBe(404);
    expect((await call("/internal/projects", { ...internalClient, accessToken: a.accessToken, body: {} })).body.code).toBe("SCHEMA_ERROR");
  });

  it("admins read and update every config field", async () => {
    const p = await createProjectWithKeys();
    const config = {
      allow_localhost: false,
      sign_up_enabled: false,
      credential_enabled: false,
      magic_link_enabled: true,
      passkey_enabled: true,
      client_team_creation_enabled: true,
      client_user_deletion_enabled: true,
      allow_user_api_keys: true,
      allow_team_api_keys: true,
      create_team_on_sign_up: true,
      require_email_verification: true,
      require_publishable_client_key: true,
      refresh_token_rotation: true,
      oauth_account_merge_strategy: "raise_error",
      oauth_providers: [{ id: "github", type: "standard", client_id: "cid", client_secret: "csecret" }],
      domains: [{ domain: "https://*.example.com", handler_path: "/handler" }],
      email_config: {
        type: "standard",
        host: "smtp.example.com",
        port: 587,
        username: "u",
        password: "p",
        sender_name: "S",
        sender_email: "s@example.com",
      },
      email_theme: DARK_EMAIL_THEME_ID,
      team_creator_default_permissions: [{ id: "admin" }],
      team_member_default_permissions: [{ id: "member" }],
      user_default_permissions: [{ id: "reader" }],
    };
    const res = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { display_name: "Renamed", description: "d", logo_url: "https://x.example/logo.png", config },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ display_name: "Renamed", description: "d", logo_url: "https://x.example/logo.png" });
    const read = await call("/internal/projects/current", p.adminKey);
    // Config secrets are write-only (issue 11): the SMTP password and client secret are never read back.
    const { password: _password, ...emailConfigRead } = config.email_config;
    expect(read.body.config).toMatchObject({
      ...config,
      oauth_providers: [{ provider_config_id: "github", id: "github", type: "standard", client_id: "cid" }],
      email_config: emailConfigRead,
    });
    expect(read.body.config.email_config).not.toHaveProperty("password");
    expect(read.body.config.oauth_providers[0]).not.toHaveProperty("client_secret");
    expect(read.body.config.enabled_oauth_providers).toEqual([{ id: "github" }]);
    expect((await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config: { bogus: true } } })).body.code).toBe(
      "SCHEMA_ERROR",
    );
  });

  it("production mode gives the spec's exact messages", async () => {
    const p = await createProjectWithKeys();
    const patch = (config: Record<string, unknown>) =>
      call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { is_production_mode: true, config } });
    const cases: [Record<string, unknown>, string][] = [
      [{ allow_localhost: true }, "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings."],
      [
        { allow_localhost: false, domains: [{ domain: "not a url", handler_path: "/handler" }] },
        "Trusted domain is not a valid URL: not a url",
      ],
      [
        { allow_localhost: false, domains: [{ domain: "https://localhost:3000", handler_path: "/handler" }] },
        "Localhost domains are not allowed to be trusted in production mode.",
      ],
      [
        { allow_localhost: false, domains: [{ domain: "https://10.1.2.3", handler_path: "/handler" }] },
        "Direct IPs are not valid for trusted domains in production mode.",
      ],
      [
        { allow_localhost: false, domains: [{ domain: "http://app.example.com", handler_path: "/handler" }] },
        "Trusted domains should be HTTPS.",
      ],
    ];
    for (const [config, message] of cases) {
      const res = await patch(config);
      expect(res.status, message).toBe(400);
      expect(res.text).toBe(message);
    }
    // Payments in test mode block production mode too (production-checks.test.ts has the leftovers).
    const live = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "payments.testMode": false }) },
    });
    expect(live.status, live.text).toBe(200);
    const ok = await patch({ allow_localhost: false, domains: [{ domain: "https://*.example.com", handler_path: "/handler" }] });
    expect(ok.status).toBe(200);
    expect(ok.body.is_production_mode).toBe(true);
    // Outside production, an invalid domain is still refused.
    const dev = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { is_production_mode: false, config: { domains: [{ domain: "https://a..b", handler_path: "/h" }] } },
    });
    expect(dev.text).toBe("Trusted domain is not a valid URL: https://a..b");
  });

  it("a trusted domain with a scheme other than http(s), or an empty OAuth client secret, is a SCHEMA_ERROR", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { domains: [{ domain: "whatever://app.example.com", handler_path: "/handler" }] } },
    });
    expect(res.body.code).toBe("SCHEMA_ERROR");
    expect(res.body.error).toContain("URL must start with http:// or https://");
    const emptySecret = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { oauth_providers: [{ id: "google", type: "standard", client_id: "id", client_secret: "" }] } },
    });
    expect(emptySecret.body.code).toBe("SCHEMA_ERROR");
  });

  it("admins delete the project; it is gone afterwards", async () => {
    const p = await createProjectWithKeys();
    expect((await call("/internal/projects/current", { ...p.admin, method: "DELETE" })).body).toEqual({ success: true });
    const after = await call("/projects/current", p.client);
    expect(after.body.code).toBe("CURRENT_PROJECT_NOT_FOUND");
  });

  it("the internal project cannot be deleted", async () => {
    const res = await call("/internal/projects/current", {
      projectId: "internal",
      accessType: "admin",
      superSecretAdminKey: "this-super-secret-admin-key-is-for-local-development-only",
      method: "DELETE",
    });
    expect(res.status).toBe(400);
  });

  it("transfer needs ownership and membership of the new team", async () => {
    const p = await createProjectWithKeys();
    const me = await call("/users/me", { ...internalClient, accessToken: p.owner.accessToken });
    const team = me.body.selected_team_id;
    const stranger = await signUp();
    const strangerTeam = (await call("/users/me", { ...internalClient, accessToken: stranger.accessToken })).body.selected_team_id;
    const toForeign = await call("/internal/projects/transfer", {
      ...internalClient,
      accessToken: p.owner.accessToken,
      body: { project_id: p.projectId, new_team_id: strangerTeam },
    });
    expect(toForeign.status).toBe(404);
    const notOwner = await call("/internal/projects/transfer", {
      ...internalClient,
      accessToken: stranger.accessToken,
      body: { project_id: p.projectId, new_team_id: strangerTeam },
    });
    expect(notOwner.body.code).toBe("PROJECT_NOT_FOUND");
    const same = await call("/internal/projects/transfer", {
      ...internalClient,
      accessToken: p.owner.accessToken,
      body: { project_id: p.projectId, new_team_id: team },
    });
    expect(same.body).toEqual({ success: true });
  });

  it("transfer is for the owner team's admins: a plain member gets TEAM_PERMISSION_REQUIRED (401)", async () => {
    const p = await createProjectWithKeys();
    const team = (await call("/users/me", { ...internalClient, accessToken: p.owner.accessToken })).body.selected_team_id;
    const member = await signUp();
    const memberTeam = (await call("/users/me", { ...internalClient, accessToken: member.accessToken })).body.selected_team_id;
    const joined = await call(`/team-memberships/${team}/${member.userId}`, { ...internalServer, method: "POST", body: {} });
    expect(joined.status, joined.text).toBe(201);
    const refused = await call("/internal/projects/transfer", {
      ...internalClient,
      accessToken: member.accessToken,
      body: { project_id: p.projectId, new_team_id: memberTeam },
    });
    expect([refused.status, refused.body.code]).toEqual([401, "TEAM_PERMISSION_REQUIRED"]);
    expect(refused.body.details).toMatchObject({ team_id: team, user_id: member.userId, permission_id: "team_admin" });
    const admin = await call(`/team-permissions/${team}/${member.userId}/team_admin`, { ...internalServer, method: "POST", body: {} });
    expect(admin.status, admin.text).toBe(201);
    const moved = await call("/internal/projects/transfer", {
      ...internalClient,
      accessToken: member.accessToken,
      body: { project_id: p.projectId, new_team_id: memberTeam },
    });
    expect(moved.body).toEqual({ success: true });
  });

  it("listing or creating projects without a signed-in user is USER_AUTHENTICATION_REQUIRED (401)", async () => {
    for (const method of ["GET", "POST"] as const) {
      const res = await call("/internal/projects", {
        ...internalClient,
        method,
        ...(method === "POST" ? { body: { display_name: "x" } } : {}),
      });
      expect([res.status, res.body.code]).toEqual([401, "USER_AUTHENTICATION_REQUIRED"]);
    }
  });

  it("the typed PATCH refuses an email theme the project does not have (plain 400), and takes one it has", async () => {
    const p = await createProjectWithKeys();
    const bad = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { email_theme: "no-such-theme" } },
    });
    expect([bad.status, bad.text]).toEqual([400, "Invalid email theme"]);
    const themes = Object.keys(JSON.parse((await call("/internal/config", p.admin)).body.config_string).emails.themes);
    const good = await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config: { email_theme: themes[1] } } });
    expect(good.status, good.text).toBe(200);
    expect(good.body.config.email_theme).toBe(themes[1]);
  });
});
