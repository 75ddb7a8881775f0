/**
 * Trust in a project's config (issue 25): a stored secret stays bound to where it goes (the
 * assistant's key to its base URL and provider, the SMTP password to host, port and user name, an
 * OAuth client secret to its provider type), the URL rule for webhooks and the assistant in
 * production, a config too big for its D1 row, prototype keys, the assistant's URL scheme, its key
 * redacted in every encoding, and the reference's `messages` form held to the history budget.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../worker/index";
import { type CallOptions, call, createProjectWithKeys } from "../helpers/api";
import { sinkEmailConfig } from "../helpers/mail";
import { SINK_PASSWORD, SINK_USERNAME } from "../mail-sink-constants";
import type { SmtpFaultRecord } from "../smtp-fault-server.d.mts";

const sinkUrl = () => `http://127.0.0.1:${inject("openAiPort")}`;
type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

let keyCounter = 0;
const uniqueKey = () => `sk-trust-${Date.now().toString(36)}-${++keyCounter}-${Math.random().toString(36).slice(2, 8)}`;

async function patchOverride(p: Project, override: Record<string, unknown>) {
  return call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: { config_override_string: JSON.stringify(override) },
  });
}

async function configureAi(p: Project, ai: Record<string, unknown>) {
  const res = await patchOverride(p, Object.fromEntries(Object.entries(ai).map(([k, v]) => [`doorman.ai.${k}`, v])));
  expect(res.status, res.text).toBe(200);
}

async function sentWithKey(apiKey: string): Promise<unknown[]> {
  return (await fetch(`${sinkUrl()}/control/requests?key=${encodeURIComponent(apiKey)}`)).json();
}

const ask = (who: CallOptions, threadId: string, body: unknown) => call(`/internal/ai-chat/${threadId}`, { ...who, body });

async function storedRow(projectId: string): Promise<{ config: string; overrides: string }> {
  const row = await env.DB.prepare("SELECT config, config_overrides AS overrides FROM projects WHERE id = ?")
    .bind(projectId)
    .first<{ config: string; overrides: string }>();
  return row!;
}

const smtpControl = (path = "") => `http://127.0.0.1:${inject("smtpFaultsPort")}/servers${path}`;

describe("a stored secret is bound to its destination", () => {
  it("the assistant's key: a new base URL or provider drops it unless the same write sends it again", async () => {
    const p = await createProjectWithKeys();
    const apiKey = uniqueKey();
    await configureAi(p, { provider: "openai-compatible", baseUrl: `${sinkUrl()}/v1`, model: "echo", apiKey });
    expect((await ask(p.admin, "bind-1", { message: "one" })).status).toBe(200);
    expect(await sentWithKey(apiKey)).toHaveLength(1);
    // The model is not a destination: the key stays.
    await configureAi(p, { model: "echo-2" });
    expect((await ask(p.admin, "bind-1", { message: "two" })).status).toBe(200);
    expect(await sentWithKey(apiKey)).toHaveLength(2);
    // Only the base URL changes: the key is dropped, the new URL never gets it.
    await configureAi(p, { baseUrl: sinkUrl() });
    await ask(p.admin, "bind-1", { message: "three" });
    expect(await sentWithKey(apiKey)).toHaveLength(2);
    expect((await storedRow(p.projectId)).overrides).not.toContain("apiKey");
    // The same write with the key: kept.
    const second = uniqueKey();
    await configureAi(p, { baseUrl: `${sinkUrl()}/v1`, apiKey: second });
    expect((await ask(p.admin, "bind-1", { message: "four" })).status).toBe(200);
    expect(await sentWithKey(second)).toHaveLength(1);
    // A provider change (and back) drops it too.
    await configureAi(p, { provider: "workers-ai" });
    await configureAi(p, { provider: "openai-compatible" });
    await ask(p.admin, "bind-1", { message: "five" });
    expect(await sentWithKey(second)).toHaveLength(1);
  });

  it("the SMTP password: a new port (override) or host/user name (typed PATCH) drops it", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true, email_config: sinkEmailConfig() });
    expect((await storedRow(p.projectId)).config).toContain('"password":"sealed:');
    const created = await fetch(smtpControl(), { method: "POST", body: JSON.stringify({ accept: true }) });
    const { port } = (await created.json()) as { port: number };
    expect((await patchOverride(p, { "emails.server.port": port })).status).toBe(200);
    expect((await storedRow(p.projectId)).config).not.toContain('"password"');
    const email = `bind-${Date.now()}@example.com`;
    const sent = await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { email, callback_url: "http://localhost:3000/handler/magic-link-callback" },
    });
    expect(sent.status, sent.text).toBe(200);
    let record: SmtpFaultRecord | null = null;
    for (let i = 0; i < 200; i++) {
      record = (await (await fetch(smtpControl(`/${port}`))).json()) as SmtpFaultRecord;
      if (record.accepted.length > 0 || record.commands.some((c) => c.startsWith("QUIT"))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const plain = btoa(`\0${SINK_USERNAME}\0${SINK_PASSWORD}`);
    expect(record!.commands.join("\n")).not.toContain(plain);
    expect(record!.commands.join("\n")).not.toContain(btoa(SINK_PASSWORD));
    await fetch(smtpControl(`/${port}`), { method: "DELETE" });

    // Typed PATCH: the same host and port with a password keeps it; a new user name without one drops it.
    const q = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const same = await call("/internal/projects/current", {
      ...q.admin,
      method: "PATCH",
      body: { config: { email_config: sinkEmailConfig() } },
    });
    expect(same.status, same.text).toBe(200);
    expect((await storedRow(q.projectId)).config).toContain('"password":"sealed:');
    const { password: _password, ...withoutPassword } = sinkEmailConfig() as Record<string, unknown>;
    const renamed = { ...withoutPassword, username: "someone-else" };
    const res = await call("/internal/projects/current", { ...q.admin, method: "PATCH", body: { config: { email_config: renamed } } });
    expect(res.status, res.text).toBe(200);
    expect((await storedRow(q.projectId)).config).not.toContain('"password"');
  });

  it("an OAuth client secret: a new provider type drops it unless the same write sends it again", async () => {
    const p = await createProjectWithKeys();
    const provider = { type: "github", isShared: false, clientId: "id-1", clientSecret: "secret-1" };
    expect((await patchOverride(p, { "auth.oauth.providers.mine": provider })).status).toBe(200);
    expect((await storedRow(p.projectId)).config).toContain('"client_secret":"sealed:');
    expect((await patchOverride(p, { "auth.oauth.providers.mine.clientId": "id-2" })).status).toBe(200);
    expect((await storedRow(p.projectId)).config).toContain('"client_secret":"sealed:');
    expect((await patchOverride(p, { "auth.oauth.providers.mine.type": "google" })).status).toBe(200);
    expect((await storedRow(p.projectId)).config).not.toContain("client_secret");
    expect(
      (await patchOverride(p, { "auth.oauth.providers.mine.type": "github", "auth.oauth.providers.mine.clientSecret": "s2" })).status,
    ).toBe(200);
    expect((await storedRow(p.projectId)).config).toContain('"client_secret":"sealed:');
  });
});

describe("the URL rule in production", () => {
  const production = {
    ...env,
    ENVIRONMENT: "production",
    SERVER_SECRET: "a-real-production-secret-0123456789abcdef",
    ALLOW_TEST_CLOCK: undefined,
    OAUTH_MOCK_ISSUER: undefined,
    // The test fake is plain http, which a production worker refuses (worker/config.ts).
    TURNSTILE_SITEVERIFY_URL: undefined,
    DOH_RESOLVER_URL: undefined,
  } as Env;

  async function productionCall(p: Project, path: string, body: unknown) {
    const ctx = createExecutionContext();
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-stack-project-id": p.projectId,
      "x-stack-access-type": "admin",
      // The project's admin key (stored hashed, so it works under the production secret too).
      "x-stack-super-secret-admin-key": p.adminKey.superSecretAdminKey,
    };
    const res = await worker.fetch(
      new Request(`http://localhost/api/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
      production,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return { status: res.status, body: (await res.json()) as { code?: string; error?: string } };
  }

  it("webhooks: IPv4 inside IPv6 and metadata names are refused", async () => {
    const p = await createProjectWithKeys();
    for (const url of ["https://[::127.0.0.1]/h", "https://[64:ff9b::127.0.0.1]/h", "https://instance-data/h"]) {
      const res = await productionCall(p, "/internal/webhooks/endpoints", { url });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe("SCHEMA_ERROR");
    }
  });

  it("the assistant: a base URL of IPv4 inside IPv6 is refused before any call", async () => {
    const p = await createProjectWithKeys();
    await configureAi(p, { provider: "openai-compatible", baseUrl: "https://[::ffff:0:127.0.0.1]/v1", model: "echo" });
    const res = await productionCall(p, "/internal/ai-chat/ssrf", { message: "hello" });
    expect(res.body.code).toBe("AI_PROVIDER_ERROR");
    expect(res.body.error).toContain("must not point at a private");
  });
});

describe("config writes that are refused", () => {
  it("a config over the D1 row's size is refused (400), and the earlier config is intact", async () => {
    const p = await createProjectWithKeys();
    const source = (i: number) => `export function EmailTemplate() { return null; }\n// ${String(i).repeat(1)}${"x".repeat(99_000)}`;
    let refused: Awaited<ReturnType<typeof call>> | null = null;
    let saved = 0;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await patchOverride(p, { [`emails.templates.big-${i}`]: { displayName: `Big ${i}`, tsxSource: source(i) } });
      if (res.status === 200) saved++;
      else refused = res;
    }
    expect(refused, "no write was refused").not.toBeNull();
    expect(refused!.status).toBe(400);
    expect(refused!.text).toMatch(/too large/);
    const rendered = JSON.parse((await call("/internal/config", p.admin)).body.config_string);
    const big = Object.keys(rendered.emails.templates).filter((k) => k.startsWith("big-"));
    expect(big).toHaveLength(saved);
    // Smaller writes still work.
    expect((await patchOverride(p, { "auth.allowSignUp": false })).status).toBe(200);
  });

  it("__proto__, constructor and prototype keys anywhere are refused (400)", async () => {
    const p = await createProjectWithKeys();
    for (const text of [
      '{"__proto__": {"auth.allowSignUp": false}}',
      '{"auth": {"__proto__": {"allowSignUp": false}}}',
      '{"doorman.rateLimits": {"constructor": "1/60"}}',
      '{"domains.trustedDomains": {"prototype": {"baseUrl": "https://a.example", "handlerPath": "/handler"}}}',
    ]) {
      const res = await call("/internal/config/override/environment", {
        ...p.admin,
        method: "PATCH",
        body: { config_override_string: text },
      });
      expect(res.status, text).toBe(400);
      expect(res.text, text).toMatch(/Invalid config key/);
    }
  });

  it("doorman.ai.baseUrl must be http(s)", async () => {
    const p = await createProjectWithKeys();
    for (const baseUrl of ["javascript:alert(1)", "file:///etc/passwd", "data:text/plain,hi"]) {
      const res = await patchOverride(p, { "doorman.ai.baseUrl": baseUrl });
      expect(res.status, baseUrl).toBe(400);
      expect(res.text).toMatch(/doorman\.ai\.baseUrl/);
    }
    expect((await patchOverride(p, { "doorman.ai.baseUrl": "https://api.example.com/v1" })).status).toBe(200);
  });
});

describe("the assistant's key and budget", () => {
  it("a provider error that echoes the key in any encoding is redacted", async () => {
    const p = await createProjectWithKeys();
    const apiKey = `${uniqueKey()}/+?&=`;
    await configureAi(p, { provider: "openai-compatible", baseUrl: `${sinkUrl()}/v1`, model: "error-401-encoded", apiKey });
    const res = await ask(p.admin, "redact", { message: "hello" });
    expect(res.body.code, res.text).toBe("AI_PROVIDER_ERROR");
    const bytes = new TextEncoder().encode(apiKey);
    const b64 = btoa(String.fromCharCode(...bytes));
    const encodings = [
      apiKey,
      b64,
      b64.replace(/=+$/, ""),
      b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
      encodeURIComponent(apiKey),
      [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(""),
    ];
    for (const e of encodings) expect(res.text, e).not.toContain(e);
    expect(res.text, res.text).toContain("[redacted]");
  });

  it("the reference's messages form sends at most the stored-thread budget, newest first", async () => {
    const p = await createProjectWithKeys();
    const apiKey = uniqueKey();
    await configureAi(p, { provider: "openai-compatible", baseUrl: `${sinkUrl()}/v1`, model: "echo", apiKey });
    const messages = Array.from({ length: 60 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `${i} ${"y".repeat(7_900)}` }));
    messages.push({ role: "user", content: "the last question" });
    const res = await ask(p.admin, "budget", { messages });
    expect(res.status, res.text).toBe(200);
    const [sent] = (await sentWithKey(apiKey)) as { messages: { role: string; content: string }[] }[];
    const history = sent!.messages.filter((m) => m.role !== "system");
    expect(history.reduce((n, m) => n + m.content.length, 0)).toBeLessThanOrEqual(48_000);
    expect(history.at(-1)!.content).toBe("the last question");
    expect(history.length).toBeGreaterThan(1);
  });
});
