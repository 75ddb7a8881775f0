/**
 * GET /internal/email-queue-step: the reference's cron hook, guarded by the cron's bearer secret. One
 * step is the outbox sweep: a queued row whose queue message was lost is sent after it.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { sinkEmailConfig, waitForMail } from "../helpers/mail";
import { waitForOutboxStatus } from "../helpers/outbox";

const CRON = { authorization: "Bearer mock_cron_secret" };
const step = (query = "", headers: Record<string, string> = CRON) => call(`/internal/email-queue-step${query}`, { headers });

describe("GET /internal/email-queue-step", () => {
  it("needs the cron's secret: none is SCHEMA_ERROR, a wrong one a plain 401", async () => {
    const bare = await step("", {});
    expect([bare.status, bare.body.code]).toEqual([400, "SCHEMA_ERROR"]);
    expect(bare.body.error).toContain("headers.authorization must be defined");
    for (const authorization of ["Bearer invalid_secret", "mock_cron_secret", ""]) {
      const res = await step("?only_one_step=true", { authorization });
      expect([res.status, res.text], authorization).toEqual([401, "Unauthorized"]);
    }
    const badQuery = await step("?only_one_step=maybe");
    expect([badQuery.status, badQuery.body.code]).toEqual([400, "SCHEMA_ERROR"]);
  });

  it("one step sends a queued email whose queue message was lost", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const address = uniqueEmail("queue-step");
    const id = crypto.randomUUID();
    const long = Date.now() - 30 * 60_000;
    // Written as send-email writes a row, but never named to the queue (a crash after the commit).
    await env.DB.prepare(
      `INSERT INTO email_outbox (id, project_id, created_at, updated_at, created_with, recipient, variables, api_url, status, is_paused, scheduled_at, send_retries, tsx_source, subject_override, theme_choice)
       VALUES (?, ?, ?, ?, 'programmatic-call', ?, '{}', 'http://localhost', 'queued', 0, ?, 0, ?, 'Lost and found', 'false')`,
    )
      .bind(
        id,
        p.projectId,
        long,
        long,
        JSON.stringify({ type: "custom-emails", emails: [address] }),
        long,
        "export function EmailTemplate() { return <p>Found again</p>; }",
      )
      .run();
    const res = await step("?only_one_step=true");
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    await waitForOutboxStatus(p.server, id, ["sent"]);
    const [mail] = await waitForMail(address);
    expect(mail!.subject).toBe("Lost and found");
  });
});
