/**
 * The reference's current config keys (issue 27): `apps.installed.*` (all off, authentication and
 * emails on for a new project, no API gate as in the reference), `emails.server.provider` (smtp,
 * resend; managed refused), `payments.products` / `productLines` / `productLineId` with the old
 * names renamed on the way in; analytics still refused. Plus reset-keys and the config source.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const rendered = async (p: Project) => {
  const res = await call("/internal/config", p.admin);
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.body.config_string);
};
const level = async (p: Project, name: string) => {
  const res = await call(`/internal/config/override/${name}`, p.admin);
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.body.config_string);
};
const patch = (p: Project, name: string, override: Record<string, unknown>) =>
  call(`/internal/config/override/${name}`, { ...p.admin, method: "PATCH", body: { config_override_string: JSON.stringify(override) } });
const reset = (p: Project, name: string, keys: unknown, access: object = p.admin) =>
  call(`/internal/config/override/${name}/reset-keys`, { ...access, method: "POST", body: { keys } });
const push = (p: Project, override: Record<string, unknown>, source?: unknown) =>
  call("/internal/config/override/branch", {
    ...p.admin,
    method: "PUT",
    body: { config_string: JSON.stringify(override), ...(source === undefined ? {} : { source }) },
  });
const source = async (p: Project) => {
  const res = await call("/internal/config/source", p.admin);
  expect(res.status, res.text).toBe(200);
  return res.body.source;
};

/** A config override it cannot take: a plain 400 naming the key, as the reference (no known-error code). */
const expectSchemaError = (res: { status: number; headers: Headers; text: string }, message: RegExp) => {
  expect(res.status, res.text).toBe(400);
  expect(res.headers.get("x-stack-known-error")).toBeNull();
  expect(res.text).toMatch(message);
};

describe("apps.installed", () => {
  it("a new project has authentication and emails installed, every other app off; apps switch on and off", async () => {
    const p = await createProjectWithKeys();
    const config = await rendered(p);
    expect(config.apps.installed.authentication).toEqual({ enabled: true });
    expect(config.apps.installed.emails).toEqual({ enabled: true });
    expect(config.apps.installed.teams).toEqual({ enabled: false });
    expect(config.apps.installed.analytics).toEqual({ enabled: false });
    expect((await level(p, "environment"))["apps.installed.authentication.enabled"]).toBe(true);

    expect(
      (await patch(p, "environment", { "apps.installed.payments": { enabled: true }, "apps.installed.teams.enabled": true })).status,
    ).toBe(200);
    await patch(p, "branch", { "apps.installed.webhooks": { enabled: true } });
    const after = await rendered(p);
    expect(after.apps.installed.teams.enabled).toBe(true);
    expect(after.apps.installed.payments.enabled).toBe(true);
    expect(after.apps.installed.webhooks.enabled).toBe(true);
    // null resets an app to its default (off).
    await patch(p, "environment", { "apps.installed.authentication": null });
    expect((await rendered(p)).apps.installed.authentication.enabled).toBe(false);
  });

  it("an unknown app or a non-boolean switch is refused; the removed workflows app is dropped", async () => {
    const p = await createProjectWithKeys();
    expectSchemaError(await patch(p, "environment", { "apps.installed.not-an-app.enabled": true }), /apps\.installed/);
    expectSchemaError(await patch(p, "environment", { "apps.installed.teams.enabled": "yes" }), /apps\.installed\.teams\.enabled/);
    expectSchemaError(await patch(p, "environment", { "apps.installed.teams.visible": true }), /Unknown config key/);
    expect((await patch(p, "environment", { "apps.installed.workflows.enabled": true })).status).toBe(200);
    expect((await rendered(p)).apps.installed.workflows).toBeUndefined();
    expect((await level(p, "environment"))["apps.installed.workflows.enabled"]).toBeUndefined();
  });

  it("as in the reference, an app switched off refuses none of its routes (teams, items, API keys, emails)", async () => {
    const p = await createProjectWithKeys({ allow_user_api_keys: true });
    const off = Object.fromEntries(
      ["teams", "payments", "api-keys", "emails", "authentication"].map((a) => [`apps.installed.${a}.enabled`, false]),
    );
    expect(
      (await patch(p, "environment", { ...off, "payments.items.credits": { displayName: "Credits", customerType: "user" } })).status,
    ).toBe(200);
    const u = await signUp(p.client);
    const team = await call("/teams", { ...p.server, body: { display_name: "Still allowed" } });
    expect(team.status, team.text).toBe(201);
    const item = await call(`/payments/items/user/${u.userId}/credits`, p.server);
    expect(item.status, item.text).toBe(200);
    const key = await call("/user-api-keys", {
      ...p.client,
      accessToken: u.accessToken,
      body: { user_id: u.userId, description: "k", expires_at_millis: null },
    });
    expect(key.status, key.text).toBe(200);
  });
});

describe("emails.server.provider", () => {
  it("defaults to smtp; resend is accepted (sent over SMTP like smtp); managed is refused with a clear message", async () => {
    const p = await createProjectWithKeys();
    expect((await rendered(p)).emails.server).toEqual({ isShared: true, provider: "smtp" });
    const resend = {
      "emails.server": {
        isShared: false,
        provider: "resend",
        host: "smtp.resend.com",
        port: 465,
        username: "resend",
        password: "re_secret",
        senderName: "Shop",
        senderEmail: "noreply@shop.example.com",
      },
    };
    const res = await patch(p, "environment", resend);
    expect(res.status, res.text).toBe(200);
    const server = (await rendered(p)).emails.server;
    expect(server.provider).toBe("resend");
    expect(server.password).toBeUndefined();
    const typed = (await call("/internal/projects/current", p.admin)).body.config.email_config;
    expect(typed).toMatchObject({ type: "standard", host: "smtp.resend.com", port: 465, username: "resend" });

    const before = await level(p, "environment");
    expectSchemaError(
      await patch(p, "environment", { "emails.server.provider": "managed" }),
      /emails\.server\.provider.*no managed email provider/,
    );
    expectSchemaError(await patch(p, "environment", { "emails.server.provider": "sendgrid" }), /emails\.server\.provider/);
    expectSchemaError(await patch(p, "environment", { "emails.server.managedSubdomain": "mail.example.com" }), /Unknown config key/);
    expect(await level(p, "environment")).toEqual(before);
  });
});

describe("payments: products, product lines", () => {
  const product = {
    displayName: "Pro",
    customerType: "user",
    serverOnly: false,
    stackable: false,
    prices: { monthly: { USD: "10", interval: [1, "month"] } },
    includedItems: {},
  };

  it("current names are stored and rendered as they are", async () => {
    const p = await createProjectWithKeys();
    const res = await patch(p, "environment", {
      "payments.productLines.plans": { displayName: "Plans", customerType: "user" },
      "payments.products.pro": { ...product, productLineId: "plans" },
    });
    expect(res.status, res.text).toBe(200);
    const payments = (await rendered(p)).payments;
    expect(payments.productLines).toEqual({ plans: { displayName: "Plans", customerType: "user" } });
    expect(payments.products.pro.productLineId).toBe("plans");
    expect(payments.offers).toBeUndefined();
    expect(payments.groups).toBeUndefined();
  });

  it("old names (offers, groups, catalogs, groupId, catalogId), dotted or nested, are stored and rendered under the current ones", async () => {
    const p = await createProjectWithKeys();
    const res = await patch(p, "environment", {
      // A key replaces what an earlier one set at or under its path: the nested object comes first.
      payments: {
        catalogs: { seats: { displayName: "Seats" } },
        offers: { team: { ...product, customerType: "team", catalogId: "seats" } },
      },
      "payments.groups.plans": { displayName: "Plans" },
      "payments.offers.pro": { ...product, groupId: "plans" },
      "payments.offers.pro.displayName": "Pro plan",
    });
    expect(res.status, res.text).toBe(200);
    const payments = (await rendered(p)).payments;
    expect(Object.keys(payments.productLines).sort()).toEqual(["plans", "seats"]);
    expect(payments.products.pro).toMatchObject({ displayName: "Pro plan", productLineId: "plans" });
    expect(payments.products.team.productLineId).toBe("seats");
    expect(payments.products.pro.groupId).toBeUndefined();
    const stored = JSON.stringify(await level(p, "environment"));
    expect(stored).not.toMatch(/offers|groups|catalogs|groupId|catalogId/);
    // A current name replaces what an old one set; an old name deletes under the current one.
    await patch(p, "environment", { "payments.products.pro.displayName": "Pro 2" });
    expect((await rendered(p)).payments.products.pro.displayName).toBe("Pro 2");
    await patch(p, "environment", { "payments.offers.team": null });
    expect((await rendered(p)).payments.products.team).toBeUndefined();
  });

  it("a level stored under the old names (before this rename) is rendered and answered under the current ones", async () => {
    const p = await createProjectWithKeys();
    const old = { environment: { payments: { groups: { plans: {} } }, "payments.offers.pro": { ...product, groupId: "plans" } } };
    await env.DB.prepare("UPDATE projects SET config_overrides = ?, config_version = config_version + 1 WHERE id = ?")
      .bind(JSON.stringify(old), p.projectId)
      .run();
    // Past the isolate's short memory of the project row.
    const later = Date.now() + 60_000;
    const stored = JSON.parse((await call("/internal/config/override/environment", { ...p.admin, nowMs: later })).body.config_string);
    expect(Object.keys(stored).sort()).toEqual(["payments", "payments.products.pro"]);
    expect(stored["payments.products.pro"].productLineId).toBe("plans");
    expect(stored.payments).toEqual({ productLines: { plans: {} } });
    const config = JSON.parse((await call("/internal/config", { ...p.admin, nowMs: later })).body.config_string);
    expect(config.payments.products.pro.productLineId).toBe("plans");
    expect(config.payments.productLines).toEqual({ plans: {} });
  });

  it("a purchase behaves the same under either name: the old and new product line make one exclusive group", async () => {
    const p = await createProjectWithKeys();
    await patch(p, "environment", { "payments.groups.plans": {}, "payments.offers.pro": { ...product, groupId: "plans" } });
    const config = await rendered(p);
    expect(config.payments.products.pro.productLineId).toBe("plans");
    expectSchemaError(await patch(p, "environment", { "payments.products.pro.productLine": "plans" }), /Unknown config key/);
  });
});

describe("analytics and other keys Doorman cannot honour", () => {
  it("analytics query folders, custom dashboards and managed email stay refused", async () => {
    const p = await createProjectWithKeys();
    expectSchemaError(
      await patch(p, "environment", { "analytics.queryFolders.f": { displayName: "F", queries: {} } }),
      /Unknown config key/,
    );
    expectSchemaError(await patch(p, "environment", { "customDashboards.d": { displayName: "D" } }), /Unknown config key/);
  });
});

describe("reset-keys", () => {
  it("removes keys and their children, dotted or nested, at the branch and environment levels", async () => {
    const p = await createProjectWithKeys();
    await patch(p, "environment", {
      "teams.allowClientTeamCreation": true,
      "teams.createPersonalTeamOnSignUp": true,
      "users.allowClientUserDeletion": true,
      auth: { passkey: { allowSignIn: true }, otp: { allowSignIn: true } },
    });
    const res = await reset(p, "environment", ["teams", "auth.passkey.allowSignIn", "no.such.key"]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const env = await level(p, "environment");
    expect(env["teams.allowClientTeamCreation"]).toBeUndefined();
    expect(env["teams.createPersonalTeamOnSignUp"]).toBeUndefined();
    expect(env["users.allowClientUserDeletion"]).toBe(true);
    expect(env.auth).toEqual({ otp: { allowSignIn: true } });
    const config = await rendered(p);
    expect(config.auth.passkey.allowSignIn).toBe(false);
    expect(config.auth.otp.allowSignIn).toBe(true);

    // Resetting the environment key lets the branch value through again.
    await patch(p, "branch", { "teams.allowClientTeamCreation": true });
    await patch(p, "environment", { "teams.allowClientTeamCreation": false });
    expect((await rendered(p)).teams.allowClientTeamCreation).toBe(false);
    await reset(p, "environment", ["teams.allowClientTeamCreation"]);
    expect((await rendered(p)).teams.allowClientTeamCreation).toBe(true);
    await reset(p, "branch", ["teams.allowClientTeamCreation"]);
    expect((await rendered(p)).teams.allowClientTeamCreation).toBe(false);

    // An empty list changes nothing; an old payments name resets the current key.
    const before = await level(p, "environment");
    expect((await reset(p, "environment", [])).status).toBe(200);
    expect(await level(p, "environment")).toEqual(before);
    await patch(p, "environment", {
      "payments.products.pro": {
        displayName: "Pro",
        customerType: "user",
        serverOnly: false,
        stackable: false,
        prices: "include-by-default",
        includedItems: {},
      },
    });
    await reset(p, "environment", ["payments.offers.pro"]);
    expect((await rendered(p)).payments.products.pro).toBeUndefined();
  });

  it("admin only; the project level, a bad level or a bad body is SCHEMA_ERROR", async () => {
    const p = await createProjectWithKeys();
    expect((await reset(p, "environment", ["teams"], p.server)).status).toBe(401);
    expect((await reset(p, "environment", ["teams"], p.client)).status).toBe(401);
    for (const bad of ["project", "invalid-level"]) expect((await reset(p, bad, ["teams"])).body.code).toBe("SCHEMA_ERROR");
    for (const body of ["teams", [1], null, Array.from({ length: 1001 }, (_, i) => `k${i}`)]) {
      const res = await reset(p, "environment", body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe("SCHEMA_ERROR");
    }
  });
});

describe("config source", () => {
  const github = {
    type: "pushed-from-github",
    owner: "org",
    repo: "app",
    branch: "feature/x",
    commit_hash: "a".repeat(40),
    config_file_path: "stack.config.ts",
  };

  it("unlinked for a new project; a branch push records its source, a PATCH keeps it, DELETE unlinks and keeps the keys", async () => {
    const p = await createProjectWithKeys();
    expect(await source(p)).toEqual({ type: "unlinked" });
    expect((await push(p, { "teams.allowClientTeamCreation": true }, github)).status).toBe(200);
    expect(await source(p)).toEqual(github);
    await patch(p, "branch", { "users.allowClientUserDeletion": true });
    expect(await source(p)).toEqual(github);
    expect((await push(p, {}, { type: "pushed-from-unknown" })).status).toBe(200);
    expect(await source(p)).toEqual({ type: "pushed-from-unknown" });
    await push(p, { "teams.allowClientTeamCreation": true }, github);
    const unlink = await call("/internal/config/source", { ...p.admin, method: "DELETE" });
    expect(unlink.status, unlink.text).toBe(200);
    expect(await source(p)).toEqual({ type: "unlinked" });
    expect((await level(p, "branch"))["teams.allowClientTeamCreation"]).toBe(true);
    // An environment PUT needs no source and leaves the branch's alone.
    await push(p, {}, github);
    const env = await call("/internal/config/override/environment", { ...p.admin, method: "PUT", body: { config_string: "{}" } });
    expect(env.status, env.text).toBe(200);
    expect(await source(p)).toEqual(github);
  });

  it("a branch PUT without a source is 400; a bad source is SCHEMA_ERROR; admin only", async () => {
    const p = await createProjectWithKeys();
    const none = await push(p, { "teams.allowClientTeamCreation": true });
    expect(none.status).toBe(400);
    expect(none.text).toContain("source is required");
    for (const bad of [
      { type: "invalid-type" },
      { type: "pushed-from-github", owner: "org", repo: "app" },
      { ...github, owner: "x".repeat(1025) },
    ]) {
      const res = await push(p, {}, bad);
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe("SCHEMA_ERROR");
    }
    expect(await source(p)).toEqual({ type: "unlinked" });
    for (const access of [p.server, p.client]) {
      const res = await call("/internal/config/source", access);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
  });
});
