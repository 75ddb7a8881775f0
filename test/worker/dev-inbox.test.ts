/**
 * The dev inbox (issue 28): in development the real messages of the dev outbox, per project, with
 * their codes and links (admin: /internal/dev-inbox; the signed-in user's own: /emails/dev-inbox);
 * the log stays redacted; a project keeps a bounded count; a production worker answers 404.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { DEV_INBOX_MAX_MESSAGES } from "../../worker/kv/keys";
import { codesAndLinks } from "../../worker/services/email/dev-inbox";
import { type CallOptions, call, createProjectWithKeys, internalAdmin, internalClient, signUp, uniqueEmail } from "../helpers/api";

const CALLBACK = "http://localhost:3000/handler/email-verification";

async function waitForInbox(admin: CallOptions, to: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(`/internal/dev-inbox?to=${encodeURIComponent(to)}`, admin);
    expect(res.status, res.text).toBe(200);
    if (res.body.items.length > 0) return res.body.items as Record<string, any>[];
    if (Date.now() > deadline) throw new Error(`no dev inbox mail for ${to}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("dev inbox", () => {
  it("shows the real sign-up verification mail with its link; the log stays redacted; the link's code verifies", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("inbox");
    const res = await call("/auth/password/sign-up", {
      ...p.client,
      body: { email, password: "inbox password", verification_callback_url: CALLBACK },
    });
    expect(res.status, res.text).toBe(200);
    const [entry] = await waitForInbox(p.admin, email);
    expect(entry).toMatchObject({ to: [email], subject: "Verify your email at Test project", codes: [], truncated: false });
    expect(entry!.links).toHaveLength(1);
    const link = new URL(entry!.links[0]);
    expect(`${link.origin}${link.pathname}`).toBe(CALLBACK);
    const code = link.searchParams.get("code")!;
    expect(code.length).toBeGreaterThan(10);
    const one = await call(`/internal/dev-inbox/${entry!.id}`, p.admin);
    expect(one.status).toBe(200);
    expect(one.body.text).toContain(code);
    expect(one.body.html).toContain(code);
    // The log (the same id) keeps the redacted copy.
    const logged = await call(`/internal/emails/${entry!.id}`, p.admin);
    expect(logged.body.text).toContain("[redacted]");
    expect(logged.body.text).not.toContain(code);
    expect((await call("/contact-channels/verify", { ...p.client, body: { code } })).status).toBe(200);
    expect((await call("/users/me", { ...p.client, accessToken: res.body.access_token })).body.primary_email_verified).toBe(true);
  });

  it("an OTP sign-in mail lists its code", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true });
    const email = uniqueEmail("otp");
    const sent = await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { email, callback_url: "http://localhost:3000/handler/magic-link-callback" },
    });
    expect(sent.status, sent.text).toBe(200);
    const [entry] = await waitForInbox(p.admin, email);
    expect(entry!.codes).toHaveLength(1);
    expect(entry!.codes[0]).toMatch(/^[A-Z0-9]{6}$/);
    expect(entry!.links.length).toBe(1);
  });

  it("is per project: another owner neither lists nor opens it; unknown ids are 404", async () => {
    const a = await createProjectWithKeys();
    const b = await createProjectWithKeys();
    const email = uniqueEmail("tenant");
    await call("/auth/password/sign-up", { ...a.client, body: { email, password: "inbox password", verification_callback_url: CALLBACK } });
    const [entry] = await waitForInbox(a.admin, email);
    expect((await call("/internal/dev-inbox", b.admin)).body.items).toEqual([]);
    expect((await call(`/internal/dev-inbox/${entry!.id}`, b.admin)).status).toBe(404);
    expect((await call("/internal/dev-inbox/00000000-0000-4000-8000-000000000000", a.admin)).status).toBe(404);
    // Not for client or server keys.
    expect((await call("/internal/dev-inbox", a.server)).status).toBe(401);
  });

  it("a signed-in user reads only their own mail: how a new local owner reads the console's own verification mail", async () => {
    // The console's owners sign up on the internal project: the brand-new owner owns no project yet.
    const email = uniqueEmail("new-owner");
    const signedUp = await call("/auth/password/sign-up", {
      ...internalClient,
      body: { email, password: "owner password", verification_callback_url: "http://localhost:8788/handler/email-verification" },
    });
    expect(signedUp.status, signedUp.text).toBe(200);
    const owner = { email, accessToken: signedUp.body.access_token as string };
    await waitForInbox(internalAdmin, owner.email);
    const other = await signUp(internalClient, uniqueEmail("other-owner"));
    const mine = await call("/emails/dev-inbox", { ...internalClient, accessToken: owner.accessToken });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.items.length).toBeGreaterThan(0);
    for (const m of mine.body.items) expect(m.to).toEqual([owner.email]);
    const code = new URL(mine.body.items[0].links[0]).searchParams.get("code")!;
    expect(mine.body.items[0].text).toContain(code);
    const theirs = await call("/emails/dev-inbox", { ...internalClient, accessToken: other.accessToken });
    expect(theirs.body.items.every((m: { to: string[] }) => m.to.includes(other.email))).toBe(true);
    expect((await call("/emails/dev-inbox", internalClient)).status).toBe(400);
    expect((await call("/contact-channels/verify", { ...internalClient, body: { code } })).status).toBe(200);
  });

  it(`keeps a project's latest ${DEV_INBOX_MAX_MESSAGES} messages`, async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true });
    const extra = 3;
    for (let i = 0; i < DEV_INBOX_MAX_MESSAGES + extra; i++) {
      const res = await call("/auth/otp/send-sign-in-code", {
        ...p.client,
        // Each from its own address, under the per-IP send limit.
        headers: { "cf-connecting-ip": `10.28.${i}.1` },
        body: { email: uniqueEmail(`bulk-${i}`), callback_url: "http://localhost:3000/handler/magic-link-callback" },
      });
      expect(res.status, res.text).toBe(200);
    }
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await env.DB.prepare("SELECT count(*) AS n FROM sent_emails WHERE project_id = ?")
        .bind(p.projectId)
        .first<{ n: number }>();
      if (rows!.n >= DEV_INBOX_MAX_MESSAGES + extra) break;
      if (Date.now() > deadline) throw new Error(`only ${rows!.n} sent`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const keys = await env.KV.list({ prefix: `dev-outbox:${p.projectId}:` });
    expect(keys.keys.length).toBe(DEV_INBOX_MAX_MESSAGES);
    expect((await call("/internal/dev-inbox", p.admin)).body.items).toHaveLength(DEV_INBOX_MAX_MESSAGES);
  });

  it("splits secrets into codes and links", () => {
    const text = "Your code is ABC123. Or open https://app.example.com/handler/magic?code=secretcode123 now.";
    expect(codesAndLinks(text, ["secretcode123", "ABC123"])).toEqual({
      codes: ["ABC123"],
      links: ["https://app.example.com/handler/magic?code=secretcode123"],
    });
    expect(codesAndLinks(text, [])).toEqual({ codes: [], links: [] });
  });

  it("a production worker answers 404 and keeps nothing", async () => {
    const prod = {
      ...env,
      ENVIRONMENT: "production",
      SERVER_SECRET: "a-real-production-secret-0123456789abcdef",
      ALLOW_TEST_CLOCK: undefined,
      OAUTH_MOCK_ISSUER: undefined,
      // The test fake is plain http, which a production worker refuses (worker/config.ts).
      TURNSTILE_SITEVERIFY_URL: undefined,
      DOH_RESOLVER_URL: undefined,
    } as Env;
    const get = async (path: string, headers: Record<string, string>) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(`http://localhost/api/v1${path}`, { headers }), prod, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    // The dev internal keys are refused in production, so authenticate as an owner of a real project.
    const p = await createProjectWithKeys();
    const headers = {
      "x-stack-project-id": p.projectId,
      "x-stack-access-type": "admin",
      "x-stack-super-secret-admin-key": p.adminKey.superSecretAdminKey,
    };
    const list = await get("/internal/dev-inbox", headers);
    expect(list.status, await list.clone().text()).toBe(404);
    expect(await list.text()).toMatch(/development only/);
    expect((await get("/internal/dev-inbox/00000000-0000-4000-8000-000000000000", headers)).status).toBe(404);
    // The redacted log is still served.
    expect((await get("/internal/emails", headers)).status).toBe(200);
  });
});
