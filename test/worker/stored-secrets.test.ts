/**
 * What is stored (issue 11): the email log holds codes and secret links redacted, config secrets
 * (OAuth client secrets, SMTP passwords) are sealed in D1 and never read back, and another
 * project's user id is "not found" for notification preferences.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";
import { authorizeUrl, fetchWorker } from "../helpers/oauth";

const CALLBACK = "http://localhost:3000/handler/magic-link-callback";
const CLIENT_SECRET = "gh-client-secret-7f3a9c";

async function storedConfig(projectId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT config FROM projects WHERE id = ?").bind(projectId).first<{ config: string }>();
  return row!.config;
}

async function storedEmails(projectId: string) {
  const rows = await env.DB.prepare("SELECT id, subject, html, text FROM sent_emails WHERE project_id = ?")
    .bind(projectId)
    .all<{ id: string; subject: string; html: string; text: string }>();
  return rows.results;
}

describe("the email log is redacted", () => {
  it("stores and lists a sign-in email without its code or link code; the SMTP sink gets the real one", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true, email_config: sinkEmailConfig() });
    const email = uniqueEmail("redact");
    const res = await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    expect(res.status).toBe(200);
    const [mail] = await waitForMail(email);
    const code = codeFrom(mail!);
    const otp = code.slice(0, 6).toUpperCase();
    expect(mail!.text).toContain(`${CALLBACK}?code=${code}`);

    const [row] = await storedEmails(p.projectId);
    for (const body of [row!.subject, row!.html, row!.text]) {
      expect(body).not.toContain(code);
      expect(body).not.toContain(otp);
      expect(body).toContain("[redacted]");
    }
    expect(row!.subject).toBe("Sign in to Test project: Your code is [redacted]");
    expect(row!.text).toContain(`${CALLBACK}?code=[redacted]`);

    const one = await call(`/internal/emails/${row!.id}`, p.admin);
    expect(one.body.subject).toBe("Sign in to Test project: Your code is [redacted]");
    expect(`${one.body.html}${one.body.text}`).not.toContain(code);
    expect(`${one.body.html}${one.body.text}`).not.toContain(otp);
    // The redacted code cannot sign anyone in; the real one (from the sink) still works.
    expect((await call("/auth/otp/sign-in", { ...p.client, body: { code: "[redacted]" } })).status).toBe(400);
    expect((await call("/auth/otp/sign-in", { ...p.client, body: { code } })).status).toBe(200);
  });

  it("redacts a password-reset link", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    await call("/auth/password/send-reset-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    const mails = await waitForMail(user.email, 1);
    const reset = mails.find((m) => m.subject.startsWith("Reset your password"));
    expect(reset).toBeDefined();
    const code = codeFrom(reset!);
    for (let i = 0; i < 50; i++) {
      if ((await storedEmails(p.projectId)).some((r) => r.subject.startsWith("Reset"))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const stored = (await storedEmails(p.projectId)).find((r) => r.subject.startsWith("Reset"))!;
    expect(`${stored.html}${stored.text}`).not.toContain(code);
    expect(stored.text).toContain("?code=[redacted]");
  });
});

describe("config secrets are sealed at rest and never read back", () => {
  it("keeps no clear SMTP password or client secret in D1, echoes neither, and still sends mail", async () => {
    const smtp = sinkEmailConfig();
    const p = await createProjectWithKeys({
      magic_link_enabled: true,
      email_config: smtp,
      oauth_providers: [{ id: "github", type: "standard", client_id: "gh-client", client_secret: CLIENT_SECRET }],
    });
    const raw = await storedConfig(p.projectId);
    expect(raw).not.toContain(CLIENT_SECRET);
    expect(raw).not.toContain(`"password":"${smtp.password}"`);
    const config = JSON.parse(raw);
    expect(config.oauth_providers[0].client_secret).toMatch(/^sealed:v1\./);
    expect(config.email_config.password).toMatch(/^sealed:v1\./);

    const read = await call("/internal/projects/current", p.admin);
    expect(read.text).not.toContain(CLIENT_SECRET);
    expect(read.text).not.toContain("sealed:");
    expect(read.body.config.oauth_providers[0]).not.toHaveProperty("client_secret");
    expect(read.body.config.email_config).not.toHaveProperty("password");
    expect(read.body.config.email_config).toMatchObject({ type: "standard", host: smtp.host, username: smtp.username });

    // The sealed password opens where it is used: the sink checks it (a wrong one is refused).
    const email = uniqueEmail("sealed-smtp");
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    expect(await waitForMail(email)).toHaveLength(1);

    // Re-saving the email config as read (no password) keeps the stored password: mail still goes through.
    const { password: _password, ...asRead } = smtp;
    const saved = await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config: { email_config: asRead } } });
    expect(saved.status).toBe(200);
    expect(JSON.parse(await storedConfig(p.projectId)).email_config.password).toMatch(/^sealed:v1\./);
    const again = uniqueEmail("sealed-smtp-kept");
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email: again, callback_url: CALLBACK } });
    expect(await waitForMail(again)).toHaveLength(1);
  });

  it("opens the client secret for the provider, and an update without it keeps it", async () => {
    const p = await createProjectWithKeys({
      oauth_providers: [{ id: "github", type: "standard", client_id: "gh-client", client_secret: CLIENT_SECRET }],
    });
    const authorize = async () => {
      const res = await fetchWorker(authorizeUrl(p.client, { responseMode: "json" }));
      return { status: res.status, body: (await res.json()) as { location?: string; code?: string } };
    };
    const first = await authorize();
    expect(first.status).toBe(200);
    expect(new URL(first.body.location!).searchParams.get("client_id")).toBe("gh-client");

    // Secrets are write-only: re-saving the provider list as read (no client_secret) keeps the stored one.
    const before = JSON.parse(await storedConfig(p.projectId)).oauth_providers[0].client_secret;
    const patched = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { oauth_providers: [{ id: "github", type: "standard", client_id: "gh-client" }] } },
    });
    expect(patched.status).toBe(200);
    expect(patched.text).not.toContain("sealed:");
    expect(JSON.parse(await storedConfig(p.projectId)).oauth_providers[0].client_secret).toBe(before);
    expect((await authorize()).status).toBe(200);

    // A submitted value that looks sealed is sealed again, never trusted as sealed.
    await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { oauth_providers: [{ id: "github", type: "standard", client_id: "gh-client", client_secret: before }] } },
    });
    expect(JSON.parse(await storedConfig(p.projectId)).oauth_providers[0].client_secret).not.toBe(before);
  });
});

describe("notification preferences of another project's user", () => {
  it("answers USER_NOT_FOUND for reads and writes, and writes nothing", async () => {
    const a = await createProjectWithKeys();
    const b = await createProjectWithKeys();
    const other = await signUp(b.client);
    const list = await call(`/emails/notification-preference/${other.userId}`, a.server);
    expect(list.status).toBe(404);
    expect(list.body.code).toBe("USER_NOT_FOUND");
    const categories = (await call(`/emails/notification-preference/${other.userId}`, b.server)).body.items;
    const marketing = categories.find((c: { notification_category_name: string }) => c.notification_category_name === "Marketing");
    const write = await call(`/emails/notification-preference/${other.userId}/${marketing.notification_category_id}`, {
      ...a.server,
      method: "PATCH",
      body: { enabled: true },
    });
    expect(write.status).toBe(404);
    expect(write.body.code).toBe("USER_NOT_FOUND");
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM notification_preferences WHERE user_id = ?")
      .bind(other.userId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
    expect((await call("/emails/notification-preference/6f1a4f0e-3b5d-4c1e-9a7b-000000000000", a.server)).body.code).toBe("USER_NOT_FOUND");
  });
});
