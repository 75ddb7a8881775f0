/** Mail delivery over real SMTP (the smtp-server sink), the dev outbox, and the email log. */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { sinkEmailConfig, waitForMail } from "../helpers/mail";

const config = (over: Record<string, unknown> = {}) => {
  const { type: _type, ...smtp } = sinkEmailConfig();
  return { ...smtp, ...over };
};

describe("send-test-email", () => {
  it("sends through the project's SMTP server and logs it", async () => {
    const p = await createProjectWithKeys();
    const to = uniqueEmail("smtp");
    const res = await call("/internal/send-test-email", { ...p.admin, body: { recipient_email: to, email_config: config() } });
    expect(res.body).toEqual({ success: true });
    const [mail] = await waitForMail(to);
    expect(mail?.subject).toBe("Test email from Test project");
    expect(mail?.text).toContain("Your email server settings work.");
    const log = await call("/internal/emails", p.admin);
    expect(log.body.items[0]).toMatchObject({ subject: "Test email from Test project", to: [to], status: "sent", error: null });
    const one = await call(`/internal/emails/${log.body.items[0].id}`, p.admin);
    expect(one.body.text).toContain("Your email server settings work.");
    expect((await call("/internal/emails/6f1a4f0e-3b5d-4c1e-9a7b-000000000000", p.admin)).status).toBe(404);
  });

  it("reports an SMTP authentication failure, logs it, and answers 200", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/send-test-email", {
      ...p.admin,
      body: { recipient_email: uniqueEmail(), email_config: config({ password: "wrong" }) },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.error_message).toBeTruthy();
    const log = await call("/internal/emails", p.admin);
    expect(log.body.items[0].status).toBe("failed");
    expect(log.body.items[0].error).toBeTruthy();
  });

  it("reports an unreachable host without a 500", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/send-test-email", {
      ...p.admin,
      body: { recipient_email: uniqueEmail(), email_config: config({ host: "127.0.0.1", port: 1 }) },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    // A connection failure names the host and port (issue 28), in the answer and in the log.
    expect(res.body.error_message).toMatch(/^Could not connect to 127\.0\.0\.1:1: /);
    const log = await call("/internal/emails", p.admin);
    expect(log.body.items[0].error).toMatch(/^Could not connect to 127\.0\.0\.1:1: /);
  });

  it("needs admin access and a valid body", async () => {
    const p = await createProjectWithKeys();
    expect((await call("/internal/send-test-email", { ...p.server, body: {} })).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    expect((await call("/internal/send-test-email", { ...p.admin, body: { recipient_email: "nope" } })).body.code).toBe("SCHEMA_ERROR");
    expect((await call("/internal/emails", p.client)).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });
});
