/**
 * The email outbox (issue 24): every email is first a row, the request answers at once, the queue's
 * consumer renders and sends it; the reference's list/get/PATCH; owners pause, cancel and retry;
 * a failing project template falls back to the built-in one; a sign-up burst all answers and all
 * its mail arrives.
 */
import { describe, expect, inject, it } from "vitest";
import { type CallOptions, call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { withHealthPolls } from "../helpers/health";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";
import { listOutbox, waitForOutboxStatus } from "../helpers/outbox";

const CALLBACK = "http://localhost:3000/handler/email-verification";
const mailProject = () => createProjectWithKeys({ email_config: sinkEmailConfig() });

async function serverUser(p: { server: CallOptions }, email: string): Promise<string> {
  const res = await call("/users", { ...p.server, body: { primary_email: email } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function sendHtml(p: { server: CallOptions }, userIds: string[], subject = "Hello from the outbox") {
  const res = await call("/emails/send-email", { ...p.server, body: { user_ids: userIds, html: "<p>Hi <b>there</b></p>", subject } });
  expect(res.status, res.text).toBe(200);
  return res.body.results as { user_id: string; status: string; email_id: string }[];
}

describe("email outbox", () => {
  it("a sign-up's verification email is an outbox row that ends sent, with the code redacted, and the code works", async () => {
    const p = await mailProject();
    const email = uniqueEmail("outbox-verify");
    const res = await call("/auth/password/sign-up", {
      ...p.client,
      body: { email, password: "outbox password", verification_callback_url: CALLBACK },
    });
    expect(res.status, res.text).toBe(200);
    const [row] = await listOutbox(p.server);
    expect(row).toMatchObject({
      to: { type: "user-custom-emails", user_id: res.body.user_id, emails: [email] },
      created_with: "programmatic-call",
    });
    const sent = await waitForOutboxStatus(p.server, row!.id, ["sent"]);
    expect(sent).toMatchObject({
      simple_status: "ok",
      has_rendered: true,
      has_delivered: true,
      send_retries: 0,
      send_attempt_errors: null,
    });
    expect(sent.subject).toBe("Verify your email at Test project");
    expect(sent.variables.link).toBe("[redacted]");
    expect(sent.html).toContain("[redacted]");
    expect(sent.tsx_source).toContain("EmailTemplate");
    const [mail] = await waitForMail(email);
    const code = codeFrom(mail!);
    expect(sent.html).not.toContain(code);
    expect((await call("/contact-channels/verify", { ...p.client, body: { code } })).status).toBe(200);
    // The email log has the same id.
    expect((await call(`/internal/emails/${row!.id}`, p.admin)).body).toMatchObject({ status: "sent", to: [email] });
  });

  it("send-email answers at once with each outbox id; list, filters and cursor paging follow the reference", async () => {
    const p = await mailProject();
    const users = await Promise.all([1, 2, 3].map((i) => serverUser(p, uniqueEmail(`page-${i}`))));
    const results = await sendHtml(p, users);
    expect(results.map((r) => r.status)).toEqual(["queued", "queued", "queued"]);
    for (const r of results) await waitForOutboxStatus(p.server, r.email_id, ["sent"]);
    const first = await call("/emails/outbox?limit=2", p.server);
    expect(first.body).toMatchObject({ is_paginated: true, pagination: { next_cursor: expect.any(String) } });
    expect(first.body.items).toHaveLength(2);
    const second = await call(`/emails/outbox?limit=2&cursor=${first.body.pagination.next_cursor}`, p.server);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.pagination.next_cursor).toBeNull();
    const all = [...first.body.items, ...second.body.items].map((i: { id: string }) => i.id);
    expect(new Set(all)).toEqual(new Set(results.map((r) => r.email_id)));
    expect((await call("/emails/outbox?status=sent", p.server)).body.items).toHaveLength(3);
    expect((await call("/emails/outbox?simple_status=error", p.server)).body.items).toHaveLength(0);
    expect((await call("/emails/outbox?limit=101", p.server)).status).toBe(400);
    expect((await call("/emails/outbox?status=nope", p.server)).status).toBe(400);
    // Client access cannot read the outbox; another project cannot read this one's rows.
    expect((await call("/emails/outbox", p.client)).status).toBe(401);
    const other = await mailProject();
    expect((await call(`/emails/outbox/${results[0]!.email_id}`, other.server)).status).toBe(404);
  });

  it("pause holds an email, unpause sends it, cancel skips it; a sent email is not editable", async () => {
    const p = await mailProject();
    const email = uniqueEmail("pause");
    const [r] = await sendHtml(p, [await serverUser(p, email)]);
    // Schedule it a minute out so it cannot leave while we act on it.
    const later = Date.now() + 60_000;
    const scheduled = await call(`/emails/outbox/${r!.email_id}`, { ...p.server, method: "PATCH", body: { scheduled_at_millis: later } });
    if (scheduled.status === 200) {
      expect(scheduled.body).toMatchObject({ status: "scheduled", scheduled_at_millis: later });
      const paused = await call(`/emails/outbox/${r!.email_id}`, { ...p.server, method: "PATCH", body: { is_paused: true } });
      expect(paused.body).toMatchObject({ status: "paused", is_paused: true, simple_status: "in-progress" });
      const resumed = await call(`/emails/outbox/${r!.email_id}`, {
        ...p.server,
        method: "PATCH",
        body: { is_paused: false, scheduled_at_millis: Date.now() },
      });
      expect(resumed.body.status).toBe("queued");
      const sent = await waitForOutboxStatus(p.server, r!.email_id, ["sent"]);
      expect(sent.subject).toBe("Hello from the outbox");
      await waitForMail(email);
    } else {
      // It left before the PATCH: then it must be the reference's EMAIL_NOT_EDITABLE.
      expect(scheduled.body.code).toBe("EMAIL_NOT_EDITABLE");
    }
    const notEditable = await call(`/emails/outbox/${r!.email_id}`, { ...p.server, method: "PATCH", body: { is_paused: true } });
    expect(notEditable.status).toBe(400);
    expect(notEditable.body).toMatchObject({ code: "EMAIL_NOT_EDITABLE", details: { email_id: r!.email_id, status: "SENT" } });

    const [c] = await sendHtml(p, [await serverUser(p, uniqueEmail("cancel"))]);
    await call(`/emails/outbox/${c!.email_id}`, { ...p.server, method: "PATCH", body: { scheduled_at_millis: Date.now() + 60_000 } });
    const cancelled = await call(`/emails/outbox/${c!.email_id}`, { ...p.server, method: "PATCH", body: { cancel: true } });
    if (cancelled.status === 200)
      expect(cancelled.body).toMatchObject({ status: "skipped", skipped_reason: "MANUALLY_CANCELLED", simple_status: "ok" });
    expect((await call("/emails/outbox/no-such-email", p.server)).status).toBe(404);
    expect((await call(`/emails/outbox/${c!.email_id}`, { ...p.server, method: "PATCH", body: { cancel: false } })).status).toBe(400);
  });

  it("new content that fails to render ends render-error; fixing it sends the email", async () => {
    const p = await mailProject();
    const email = uniqueEmail("render-error");
    const [r] = await sendHtml(p, [await serverUser(p, email)]);
    const held = await call(`/emails/outbox/${r!.email_id}`, { ...p.server, method: "PATCH", body: { is_paused: true } });
    if (held.status !== 200) return; // already sent: nothing left to edit in this run
    const broken = `export function EmailTemplate() { throw new Error("broken on purpose"); }`;
    await call(`/emails/outbox/${r!.email_id}`, { ...p.server, method: "PATCH", body: { tsx_source: broken, is_paused: false } });
    const failed = await waitForOutboxStatus(p.server, r!.email_id, ["render-error"]);
    expect(failed.simple_status).toBe("error");
    expect(failed.render_error).toContain("broken on purpose");
    const fixed = `import { Subject } from "@stackframe/emails";
export function EmailTemplate() { return <div><Subject value="Fixed" />fixed body</div>; }`;
    const retried = await call(`/emails/outbox/${r!.email_id}`, { ...p.server, method: "PATCH", body: { tsx_source: fixed } });
    expect(retried.status, retried.text).toBe(200);
    const sent = await waitForOutboxStatus(p.server, r!.email_id, ["sent"]);
    expect(sent.subject).toBe("Hello from the outbox");
    expect((await waitForMail(email))[0]!.text).toContain("fixed body");
  });

  it("a project template that fails when sent falls back to the built-in one, and the outbox says why", async () => {
    const p = await mailProject();
    // Renders in preview (its PreviewVariables) but throws for a real link: the save check cannot catch it.
    const template = `import { type } from "arktype";
import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = type({ emailVerificationLink: "string" });
export function EmailTemplate({ variables }: any) {
  if (!String(variables.emailVerificationLink).includes("preview")) throw new Error("only previews work");
  return <div><Subject value="Custom verify" /><NotificationCategory value="Transactional" />{variables.emailVerificationLink}</div>;
}
EmailTemplate.PreviewVariables = { emailVerificationLink: "https://example.com/preview" };`;
    const saved = await call("/internal/email-templates/e7d009ce-8d47-4528-b245-5bf119f2ffa3", {
      ...p.admin,
      method: "PATCH",
      body: { tsx_source: template },
    });
    expect(saved.status, saved.text).toBe(200);
    const email = uniqueEmail("fallback");
    const res = await call("/auth/password/sign-up", {
      ...p.client,
      body: { email, password: "outbox password", verification_callback_url: CALLBACK },
    });
    expect(res.status).toBe(200);
    const [row] = await listOutbox(p.server);
    const sent = await waitForOutboxStatus(p.server, row!.id, ["sent"]);
    expect(sent.render_fallback_error).toContain("only previews work");
    expect(sent.subject).toBe("Verify your email at Test project");
    const [mail] = await waitForMail(email);
    expect(codeFrom(mail!)).toBeTruthy();
  });

  it("32 concurrent sign-ups with email verification all answer, and all their emails arrive", async () => {
    const p = await mailProject();
    const emails = Array.from({ length: 32 }, (_, i) => uniqueEmail(`burst-${i}`));
    const { result, ...health } = await withHealthPolls(() =>
      Promise.all(
        emails.map((email) =>
          call("/auth/password/sign-up", { ...p.client, body: { email, password: "burst password", verification_callback_url: CALLBACK } }),
        ),
      ),
    );
    console.log(`sign-up burst: ${health.polls} /health polls, max ${health.maxMs} ms`);
    expect(result.map((r) => r.status)).toEqual(emails.map(() => 200));
    expect(health.failures).toBe(0);
    for (const email of emails) await waitForMail(email, 1, 60_000);
    // The sink has the message before the consumer marks its row sent: wait for the last marks.
    let rows = await listOutbox(p.server);
    for (let i = 0; i < 50 && rows.filter((r) => r.status === "sent").length < 32; i++) {
      await new Promise((r) => setTimeout(r, 200));
      rows = await listOutbox(p.server);
    }
    expect(rows.filter((r) => r.status === "sent")).toHaveLength(32);
  }, 120_000);
});

/** A hostile SMTP server of test/smtp-fault-server.mjs, and the control calls on it. */
async function faultServer(scenario: Record<string, unknown>) {
  const control = `http://127.0.0.1:${inject("smtpFaultsPort")}/servers`;
  const res = await fetch(control, { method: "POST", body: JSON.stringify(scenario) });
  const { port } = (await res.json()) as { port: number };
  return {
    port,
    change: (next: Record<string, unknown>) => fetch(`${control}/${port}`, { method: "PATCH", body: JSON.stringify(next) }),
    seen: async () => (await (await fetch(`${control}/${port}`)).json()) as { connections: number; accepted: unknown[] },
  };
}

function faultProject(port: number) {
  return createProjectWithKeys({ email_config: { ...sinkEmailConfig(), host: "127.0.0.1", port } });
}

describe("email outbox against a failing mail server", () => {
  it("450 to MAIL FROM then a closed socket (the reference's temp-fail server): retried with backoff, sent once the server recovers, /health answers throughout", async () => {
    const server = await faultServer({ replies: { mail: 450 }, closeAfterReplyAt: "mail" });
    const p = await faultProject(server.port);
    const email = uniqueEmail("greylisted");
    const { result: row, ...health } = await withHealthPolls(async () => {
      const [r] = await sendHtml(p, [await serverUser(p, email)], "Greylisted then sent");
      const failedOnce = await waitForOutboxStatus(p.server, r!.email_id, ["queued"], 20_000).then(async (first) => {
        // Wait for the first attempt's error to be recorded.
        for (let i = 0; i < 100 && !(first.send_attempt_errors?.length > 0); i++) {
          await new Promise((res) => setTimeout(res, 100));
          first = (await call(`/emails/outbox/${r!.email_id}`, p.server)).body;
        }
        return first;
      });
      expect(failedOnce.send_retries).toBeGreaterThanOrEqual(1);
      expect(failedOnce.next_send_retry_at_millis).toEqual(expect.any(Number));
      expect(failedOnce.send_attempt_errors[0]).toMatchObject({
        attempt_number: 1,
        internal_details: { stage: "mail", smtp_code: 450, temporary: true },
      });
      expect(failedOnce.send_attempt_errors[0].external_message).toContain("450");
      await server.change({ accept: true });
      return waitForOutboxStatus(p.server, r!.email_id, ["sent"], 30_000);
    });
    console.log(`450 then close: ${health.polls} /health polls, max ${health.maxMs} ms, ${row.send_retries} failed attempts before sent`);
    expect(health.failures).toBe(0);
    expect(row.status).toBe("sent");
    expect((await server.seen()).accepted).toHaveLength(1);
  });

  it("550 to RCPT TO is permanent: server-error after one attempt, no retry", async () => {
    const server = await faultServer({ replies: { rcpt: 550 } });
    const p = await faultProject(server.port);
    const [r] = await sendHtml(p, [await serverUser(p, uniqueEmail("rejected"))]);
    const row = await waitForOutboxStatus(p.server, r!.email_id, ["server-error"]);
    expect(row).toMatchObject({ simple_status: "error", send_retries: 1, next_send_retry_at_millis: null });
    expect(row.server_error).toContain("550");
    expect(row.send_attempt_errors).toHaveLength(1);
    // Retry from the console: the row is queued again, and a server that now accepts takes it.
    await server.change({ accept: true });
    const retried = await call(`/emails/outbox/${r!.email_id}`, {
      ...p.server,
      method: "PATCH",
      body: { scheduled_at_millis: Date.now() },
    });
    expect(retried.status, retried.text).toBe(200);
    expect((await waitForOutboxStatus(p.server, r!.email_id, ["sent"])).send_attempt_errors).toHaveLength(1);
  });

  it("a verification email to a greylisting server still leaves a code that works once the mail arrives, and the sign-up answered at once", async () => {
    const server = await faultServer({ replies: { rcpt: 451 } });
    const p = await faultProject(server.port);
    const email = uniqueEmail("greylist-verify");
    const res = await call("/auth/password/sign-up", {
      ...p.client,
      body: { email, password: "outbox password", verification_callback_url: CALLBACK },
    });
    expect(res.status).toBe(200);
    const [row] = await listOutbox(p.server);
    for (let i = 0; i < 200; i++) {
      const now = (await call(`/emails/outbox/${row!.id}`, p.server)).body;
      if (now.send_retries >= 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await server.change({ accept: true });
    expect((await waitForOutboxStatus(p.server, row!.id, ["sent"], 30_000)).status).toBe("sent");
    const [accepted] = (await server.seen()).accepted as { data: string }[];
    // The raw message is quoted-printable: undo soft line breaks and =XX escapes, then take the link's code.
    const decoded = accepted!.data
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    const code = /[?&]code=([a-zA-Z0-9]+)/.exec(decoded)?.[1];
    expect(code).toBeTruthy();
    expect((await call("/contact-channels/verify", { ...p.client, body: { code } })).status).toBe(200);
  });
});
