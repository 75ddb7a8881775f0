/**
 * POST /emails/send-email (issue 14): per-user results, users without an email, notification
 * categories, the unsubscribe link round trip (page, one-click, preferences), drafts, and big
 * sends through the outbox.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type CallOptions, call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { type Mail, sinkEmailConfig, waitForMail } from "../helpers/mail";
import { waitForOutboxStatus } from "../helpers/outbox";
import { workerFetch } from "../helpers/worker-fetch";

const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
const mailProject = () => createProjectWithKeys({ email_config: sinkEmailConfig() });
const raw = (mail: Mail) => (mail as Mail & { raw: string }).raw;

async function serverUser(p: { server: CallOptions }, email?: string, displayName?: string): Promise<string> {
  const res = await call("/users", {
    ...p.server,
    body: { ...(email ? { primary_email: email } : {}), ...(displayName ? { display_name: displayName } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** The unsubscribe link of a mail: from its List-Unsubscribe header (unfolded). */
function unsubscribeLinkOf(mail: Mail): string {
  const unfolded = raw(mail).replace(/\r?\n[ \t]+/g, "");
  const match = /^List-Unsubscribe:\s*<([^>]+)>/im.exec(unfolded);
  if (!match) throw new Error(`no List-Unsubscribe header in:\n${raw(mail).slice(0, 2000)}`);
  return match[1]!;
}

describe("send-email", () => {
  it("sends per user, reports users without a primary email as skipped, and logs each message", async () => {
    const p = await mailProject();
    const email = uniqueEmail("send");
    const withEmail = await serverUser(p, email, "Ada");
    const withoutEmail = await serverUser(p);
    const res = await call("/emails/send-email", {
      ...p.server,
      body: { user_ids: [withEmail, withoutEmail], html: "<p>Our <b>news</b></p>", subject: "News for you" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results).toEqual([
      { user_id: withEmail, user_email: email, success: true, status: "queued", email_id: expect.any(String) },
      {
        user_id: withoutEmail,
        success: false,
        status: "skipped",
        error: "User does not have a primary email",
        email_id: expect.any(String),
      },
    ]);
    // As the reference: the skipped user has an outbox row too, skipped with the reason, and it cannot be edited.
    const skippedRow = await call(`/emails/outbox/${res.body.results[1].email_id}`, p.server);
    expect(skippedRow.body).toMatchObject({
      status: "skipped",
      simple_status: "ok",
      is_paused: false,
      skipped_reason: "USER_HAS_NO_PRIMARY_EMAIL",
      skipped_details: {},
    });
    const edit = await call(`/emails/outbox/${res.body.results[1].email_id}`, { ...p.server, method: "PATCH", body: { is_paused: true } });
    expect([edit.status, edit.body.code]).toEqual([400, "EMAIL_NOT_EDITABLE"]);
    const [mail] = await waitForMail(email);
    expect(mail!.subject).toBe("News for you");
    expect(mail!.html).toContain("<b>news</b>");
    expect(mail!.text).toContain("Our news");
    // Transactional (no category given): no unsubscribe link or header.
    expect(raw(mail!)).not.toMatch(/^List-Unsubscribe/im);
    // The answer came at once; the outbox row ends sent, and the email log has the same id.
    await waitForOutboxStatus(p.server, res.body.results[0].email_id, ["sent"]);
    const logged = await call(`/internal/emails/${res.body.results[0].email_id}`, p.admin);
    expect(logged.body).toMatchObject({ subject: "News for you", to: [email], status: "sent" });
  });

  it("sends a template with variables in a chosen theme, and answers the reference's errors", async () => {
    const p = await mailProject();
    const email = uniqueEmail("tpl");
    const user = await serverUser(p, email, "Grace");
    const { id: templateId } = (await call("/internal/email-templates", { ...p.admin, body: { display_name: "Hello" } })).body;
    const source = `import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = (v) => v;
export function EmailTemplate({ user, variables }) {
  return <><Subject value={"Hi " + user.displayName} /><NotificationCategory value="Transactional" /><p>Plan: {variables.plan}</p></>;
}`;
    expect(
      (await call(`/internal/email-templates/${templateId}`, { ...p.admin, method: "PATCH", body: { tsx_source: source } })).status,
    ).toBe(200);
    const res = await call("/emails/send-email", {
      ...p.server,
      body: { user_ids: [user], template_id: templateId, variables: { plan: "Pro" }, theme_id: "a0172b5d-cff0-463b-83bb-85124697373a" },
    });
    expect(res.body.results[0]).toMatchObject({ status: "queued", success: true });
    const [mail] = await waitForMail(email);
    expect(mail!.subject).toBe("Hi Grace");
    expect(mail!.text).toContain("Plan: Pro");

    const unknownUser = "6f1a4f0e-3b5d-4c1e-9a7b-000000000000";
    const missing = await call("/emails/send-email", {
      ...p.server,
      body: { user_ids: [user, unknownUser], html: "<p>x</p>", subject: "x" },
    });
    expect(missing.body).toMatchObject({ code: "USER_ID_DOES_NOT_EXIST", details: { user_id: unknownUser } });
    const both = await call("/emails/send-email", {
      ...p.server,
      body: { user_ids: [user], all_users: true, html: "<p>x</p>", subject: "x" },
    });
    expect(both.body.details.message).toBe("Exactly one of user_ids or all_users must be provided");
    const category = await call("/emails/send-email", {
      ...p.server,
      body: { user_ids: [user], html: "<p>x</p>", subject: "x", notification_category_name: "Nope" },
    });
    expect(category.status).toBe(400);
    const broken = await call("/emails/send-email", {
      ...p.server,
      body: { user_ids: [user], template_id: "e7d009ce-8d47-4528-b245-5bf119f2ffa3", variables: { emailVerificationLink: 42 } },
    });
    expect(broken.body.code).toBe("EMAIL_RENDERING_ERROR");
    expect((await call("/emails/send-email", { ...p.client, body: { user_ids: [user], html: "x", subject: "x" } })).body.code).toBe(
      "INSUFFICIENT_ACCESS_TYPE",
    );
    const shared = await createProjectWithKeys();
    const sharedUser = await serverUser(shared, uniqueEmail());
    expect(
      (await call("/emails/send-email", { ...shared.server, body: { user_ids: [sharedUser], html: "x", subject: "x" } })).body.code,
    ).toBe("REQUIRES_CUSTOM_EMAIL_SERVER");
  });
});

describe("notification categories and the unsubscribe link", () => {
  it("marketing carries a signed link and List-Unsubscribe headers; the link unsubscribes signed out; the next marketing send skips, transactional still sends", async () => {
    const p = await mailProject();
    const user = await signUp(p.client);
    const as = { ...p.client, accessToken: user.accessToken };
    // Marketing is on by default (as the reference): no opt-in needed.
    expect((await call("/emails/notification-preference/me", as)).body.items[1]).toMatchObject({
      notification_category_name: "Marketing",
      enabled: true,
    });
    const marketing = { user_ids: [user.userId], html: "<p>Big sale</p>", subject: "Sale", notification_category_name: "Marketing" };
    const first = await call("/emails/send-email", { ...p.server, body: marketing });
    expect(first.body.results[0]).toMatchObject({ status: "queued" });
    const [mail] = await waitForMail(user.email);
    const link = unsubscribeLinkOf(mail!);
    expect(link).toMatch(/^http:\/\/localhost\/api\/v1\/emails\/unsubscribe-link\?code=/);
    expect(raw(mail!)).toMatch(/^List-Unsubscribe-Post:\s*List-Unsubscribe=One-Click/im);
    expect(mail!.html).toContain(link.replace(/&/g, "&amp;"));
    // The log keeps the link's token redacted.
    await waitForOutboxStatus(p.server, first.body.results[0].email_id, ["sent"]);
    const logged = await call(`/internal/emails/${first.body.results[0].email_id}`, p.admin);
    expect(logged.body.html).not.toContain(new URL(link).searchParams.get("code")!);

    // Opening the link changes nothing yet: the page asks to confirm (a link scanner's GET is harmless).
    const pageRes = await workerFetch(link);
    expect(pageRes.status).toBe(200);
    expect(pageRes.headers.get("content-type")).toContain("text/html");
    const page = await pageRes.text();
    expect(page).toContain("Unsubscribe from Marketing emails?");
    expect(page).toContain('<form method="post"');
    expect((await call("/emails/notification-preference/me", as)).body.items[1].enabled).toBe(true);

    const done = await workerFetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("You are unsubscribed");
    expect((await call("/emails/notification-preference/me", as)).body.items[1].enabled).toBe(false);

    const second = await call("/emails/send-email", { ...p.server, body: marketing });
    expect(second.body.results).toEqual([
      {
        user_id: user.userId,
        user_email: user.email,
        success: false,
        status: "skipped",
        error: "User has disabled notifications for this category",
        email_id: expect.any(String),
      },
    ]);
    expect((await call(`/emails/outbox/${second.body.results[0].email_id}`, p.server)).body.skipped_reason).toBe("USER_UNSUBSCRIBED");
    const transactional = await call("/emails/send-email", {
      ...p.server,
      body: { ...marketing, subject: "Your receipt", notification_category_name: "Transactional" },
    });
    expect(transactional.body.results[0].status).toBe("queued");
    const mails = await waitForMail(user.email, 2);
    expect(mails.map((m) => m.subject)).toEqual(["Sale", "Your receipt"]);
  });

  it("one-click POST from a mail client unsubscribes; a tampered or missing token is refused", async () => {
    const p = await mailProject();
    const user = await signUp(p.client);
    const as = { ...p.client, accessToken: user.accessToken };
    await call("/emails/send-email", {
      ...p.server,
      body: { user_ids: [user.userId], html: "<p>Hi</p>", subject: "Hi", notification_category_name: "Marketing" },
    });
    const link = unsubscribeLinkOf((await waitForMail(user.email))[0]!);
    const tampered = `${link.slice(0, -3)}abc`;
    expect((await workerFetch(tampered)).status).toBe(400);
    expect((await workerFetch(tampered, { method: "POST" })).status).toBe(400);
    expect((await workerFetch("http://localhost/api/v1/emails/unsubscribe-link")).status).toBe(400);
    expect((await call("/emails/notification-preference/me", as)).body.items[1].enabled).toBe(true);
    // Links sent before the parameter was named `code` still open the page.
    const legacy = await workerFetch(link.replace("?code=", "?token="));
    expect([legacy.status, (await legacy.text()).includes("Unsubscribe from Marketing emails?")]).toEqual([200, true]);
    const oneClick = await workerFetch(link, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect((await call("/emails/notification-preference/me", as)).body.items[1].enabled).toBe(false);
  });

  it("a template's own NotificationCategory decides when no name is given", async () => {
    const p = await mailProject();
    const user = await signUp(p.client);
    // A template that says Marketing skips a user who turned Marketing off.
    await call(`/emails/notification-preference/${user.userId}/${MARKETING}`, { ...p.server, method: "PATCH", body: { enabled: false } });
    const { id } = (await call("/internal/email-templates", { ...p.admin, body: { display_name: "Promo" } })).body;
    const res = await call("/emails/send-email", { ...p.server, body: { user_ids: [user.userId], template_id: id } });
    expect(res.body.results[0]).toMatchObject({ status: "skipped", error: "User has disabled notifications for this category" });
  });
});

describe("drafts and big sends", () => {
  it("a draft is sent with draft_id (its theme and source) and stamped as sent", async () => {
    const p = await mailProject();
    const email = uniqueEmail("draft");
    const user = await serverUser(p, email, "Lin");
    const source = `import { Subject, NotificationCategory } from "@stackframe/emails";
export function EmailTemplate({ user }) {
  return <><Subject value="Draft news" /><NotificationCategory value="Transactional" /><p>Dear {user.displayName}, draft body</p></>;
}`;
    const { id } = (
      await call("/internal/email-drafts", { ...p.admin, body: { display_name: "News", tsx_source: source, theme_id: false } })
    ).body;
    const res = await call("/emails/send-email", { ...p.admin, body: { user_ids: [user], draft_id: id } });
    expect(res.body.results[0]).toMatchObject({ status: "queued" });
    const [mail] = await waitForMail(email);
    expect(mail!.subject).toBe("Draft news");
    expect(mail!.text).toContain("Dear Lin, draft body");
    expect((await call(`/internal/email-drafts/${id}`, p.admin)).body.sent_at_millis).toEqual(expect.any(Number));
    expect((await call("/emails/send-email", { ...p.admin, body: { user_ids: [user], draft_id: "missing" } })).status).toBe(404);
  });

  it("103 recipients each get an outbox row; every one is sent and logged", async () => {
    const p = await mailProject();
    const tag = uniqueEmail("bulk").split("@")[0]!;
    for (let i = 0; i < 103; i++) await serverUser(p, `${tag}-${i}@example.com`);
    await serverUser(p); // no email: skipped
    const res = await call("/emails/send-email", { ...p.server, body: { all_users: true, html: "<p>To everyone</p>", subject: "Bulk" } });
    expect(res.status, res.text).toBe(200);
    const statuses = res.body.results.map((r: { status: string }) => r.status);
    expect(statuses.filter((s: string) => s === "queued")).toHaveLength(103);
    expect(statuses.filter((s: string) => s === "skipped")).toHaveLength(1);
    const deadline = Date.now() + 90_000;
    let sent = 0;
    while (Date.now() < deadline) {
      const row = await env.DB.prepare(
        "SELECT count(*) AS n FROM sent_emails WHERE project_id = ? AND status = 'sent' AND subject = 'Bulk'",
      )
        .bind(p.projectId)
        .first<{ n: number }>();
      sent = row!.n;
      if (sent >= 103) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(sent).toBe(103);
    const [mail] = await waitForMail(`${tag}-57@example.com`);
    expect(mail!.text).toContain("To everyone");
    const queuedId = res.body.results[0].email_id;
    expect((await call(`/internal/emails/${queuedId}`, p.admin)).body.status).toBe("sent");
  }, 180_000);
});
