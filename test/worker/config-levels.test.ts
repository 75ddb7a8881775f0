/**
 * Which keys each override level takes, as the reference: `project.*` only at the project level;
 * a deployment's own settings (trusted domains, the mail server, OAuth credentials, payments' test
 * mode, the assistant's provider) only at the environment level; the rest at branch or environment.
 * Override errors are a plain 400 naming the key (no known-error code). A dotted key into a record
 * entry that does not exist is dropped at render.
 */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const rendered = async (p: Project) => {
  const res = await call("/internal/config", p.admin);
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.body.config_string);
};
const patch = (p: Project, level: string, override: Record<string, unknown>) =>
  call(`/internal/config/override/${level}`, { ...p.admin, method: "PATCH", body: { config_override_string: JSON.stringify(override) } });
const stored = async (p: Project, level: string) =>
  JSON.parse((await call(`/internal/config/override/${level}`, p.admin)).body.config_string);
const expectPlain400 = (res: { status: number; text: string; headers: Headers }, message: string | RegExp) => {
  expect(res.status, res.text).toBe(400);
  expect(res.headers.get("x-stack-known-error")).toBeNull();
  expect(res.text).toMatch(message);
};

describe("override levels", () => {
  it("the branch level refuses a deployment's own settings and names the key", async () => {
    const p = await createProjectWithKeys();
    const cases: [Record<string, unknown>, string][] = [
      [{ "domains.trustedDomains.main": { baseUrl: "https://example.com", handlerPath: "/handler" } }, "domains.trustedDomains"],
      [{ domains: { allowLocalhost: false } }, "domains.allowLocalhost"],
      [{ "emails.server": { isShared: true, provider: "smtp" } }, "emails.server"],
      [{ "auth.oauth.providers.google": { type: "google", isShared: false, clientId: "id", clientSecret: "s" } }, "auth.oauth.providers"],
      [{ "payments.testMode": false }, "payments.testMode"],
      [{ "doorman.ai.provider": "deployment" }, "doorman.ai"],
      [{ "project.requirePublishableClientKey": true }, "project.requirePublishableClientKey"],
    ];
    for (const [override, key] of cases) expectPlain400(await patch(p, "branch", override), key);
    expect(await stored(p, "branch")).toEqual({});
  });

  it("the branch level takes the rest, a provider without credentials included (shared by default)", async () => {
    const p = await createProjectWithKeys();
    const res = await patch(p, "branch", {
      "teams.allowClientTeamCreation": true,
      "auth.oauth.providers.my_provider": { type: "github", allowSignIn: true, allowConnectedAccounts: true },
    });
    expect(res.status, res.text).toBe(200);
    const config = await rendered(p);
    expect(config.teams.allowClientTeamCreation).toBe(true);
    expect(config.auth.oauth.providers.my_provider).toMatchObject({ type: "github", isShared: true });
    expect((await call("/internal/projects/current", p.admin)).body.config.oauth_providers).toMatchObject([
      { id: "github", type: "shared" },
    ]);
  });

  it("the project level takes only project.*; the typed PATCH writes it there and clears an older copy at the environment level", async () => {
    const p = await createProjectWithKeys();
    expectPlain400(await patch(p, "project", { "teams.allowClientTeamCreation": true }), "teams.allowClientTeamCreation");
    const typed = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { require_publishable_client_key: true, magic_link_enabled: true } },
    });
    expect(typed.status, typed.text).toBe(200);
    expect(await stored(p, "project")).toEqual({ "project.requirePublishableClientKey": true });
    const environment = await stored(p, "environment");
    expect(environment["auth.otp.allowSignIn"]).toBe(true);
    expect(Object.keys(environment).filter((k) => k.startsWith("project"))).toEqual([]);
    expect((await patch(p, "project", { "project.requirePublishableClientKey": false })).status).toBe(200);
    expect((await rendered(p)).project.requirePublishableClientKey).toBe(false);
  });

  it("bad JSON, an unknown key, an unknown provider type and a bad level", async () => {
    const p = await createProjectWithKeys();
    const bad = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: "{ nope" },
    });
    expectPlain400(bad, "Invalid config JSON");
    expectPlain400(await patch(p, "environment", { nonExistentField: 1 }), "nonExistentField");
    expectPlain400(
      await patch(p, "environment", { "auth.oauth.providers.x": { type: "myspace", isShared: true } }),
      "auth.oauth.providers.x.type must be one of the following values: google, github",
    );
    const level = await call("/internal/config/override/invalid-level", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: "{}" },
    });
    expect(level.body.code).toBe("SCHEMA_ERROR");
    expect(level.body.error).toContain("params.level must be one of the following values: project, branch, environment");
  });
});

describe("dotted keys into records", () => {
  it("a dotted key into a trusted domain that does not exist is dropped; into one that does, it changes it", async () => {
    const p = await createProjectWithKeys();
    const nested = await patch(p, "environment", {
      domains: { trustedDomains: { "1": { baseUrl: "https://a.example.com", handlerPath: "/" } } },
    });
    expect(nested.status, nested.text).toBe(200);
    expect((await rendered(p)).domains.trustedDomains).toEqual({ "1": { baseUrl: "https://a.example.com", handlerPath: "/" } });
    const dotted = await patch(p, "environment", {
      "domains.trustedDomains.2.baseUrl": "https://b.example.com",
      "domains.trustedDomains.2.handlerPath": "/handler",
      "domains.trustedDomains.1.handlerPath": "/auth",
    });
    expect(dotted.status, dotted.text).toBe(200);
    expect((await rendered(p)).domains.trustedDomains).toEqual({ "1": { baseUrl: "https://a.example.com", handlerPath: "/auth" } });
  });

  it("a dotted key into an entry only the defaults have (a built-in template, an app) still applies", async () => {
    const p = await createProjectWithKeys();
    const before = await rendered(p);
    const templateId = Object.keys(before.emails.templates)[0]!;
    const res = await patch(p, "environment", {
      [`emails.templates.${templateId}.displayName`]: "Renamed",
      "apps.installed.teams.enabled": true,
    });
    expect(res.status, res.text).toBe(200);
    const after = await rendered(p);
    expect(after.emails.templates[templateId]).toEqual({ ...before.emails.templates[templateId], displayName: "Renamed" });
    expect(after.apps.installed.teams.enabled).toBe(true);
  });
});

describe("anonymous sign-up", () => {
  it("is Doorman's own doorman.anonymous.allowSignIn; the older auth.anonymous name is stored under it", async () => {
    const p = await createProjectWithKeys();
    expect((await rendered(p)).auth.anonymous).toBeUndefined();
    expect((await patch(p, "environment", { "auth.anonymous.allowSignIn": false })).status).toBe(200);
    expect((await rendered(p)).doorman.anonymous).toEqual({ allowSignIn: false });
    expect((await stored(p, "environment"))["doorman.anonymous.allowSignIn"]).toBe(false);
    expect((await call("/auth/anonymous/sign-up", { ...p.client, method: "POST" })).status).not.toBe(200);
    expect((await patch(p, "environment", { auth: { anonymous: { allowSignIn: true } } })).status).toBe(200);
    expect((await rendered(p)).doorman.anonymous).toEqual({ allowSignIn: true });
    expect((await call("/auth/anonymous/sign-up", { ...p.client, method: "POST" })).status).toBe(200);
  });
});

describe("a wildcard port in a trusted domain", () => {
  it("is accepted (as the reference's wildcard URLs) and trusts that scheme and host on any port", async () => {
    const p = await createProjectWithKeys({ allow_localhost: false });
    const res = await patch(p, "environment", {
      domains: { trustedDomains: { any: { baseUrl: "http://*.example.com:*", handlerPath: "/" } } },
    });
    expect(res.status, res.text).toBe(200);
    // The same check every redirect target goes through: an untrusted one answers REDIRECT_URL_NOT_WHITELISTED.
    const reset = (url: string) =>
      call("/auth/password/send-reset-code", { ...p.client, body: { email: "nobody@example.com", callback_url: url } });
    expect((await reset("http://app.example.com:8443/cb")).status).toBe(200);
    expect((await reset("http://app.example.com/cb")).status).toBe(200);
    expect((await reset("https://app.example.com:8443/cb")).body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    expect((await reset("http://example.org:8443/cb")).body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
  });
});
