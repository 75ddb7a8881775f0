/**
 * POST /health/email: the email pipeline's health for an operator's monitor (the cron's bearer
 * secret): 200 while the outbox drains, 503 once a queued email is more than 5 minutes overdue.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createProjectWithKeys } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const monitor = (headers: Record<string, string> = { authorization: "Bearer mock_cron_secret" }) =>
  workerFetch("http://localhost/health/email", { method: "POST", headers });

describe("POST /health/email", () => {
  it("needs the cron's secret: a wrong one is a plain 401, none SCHEMA_ERROR", async () => {
    const wrong = await monitor({ authorization: "Bearer invalid-token" });
    expect([wrong.status, await wrong.text()]).toEqual([401, "Unauthorized"]);
    const none = await monitor({});
    expect(none.status).toBe(400);
    expect(((await none.json()) as { code: string }).code).toBe("SCHEMA_ERROR");
  });

  it("answers success while nothing is overdue, 503 once a queued email is 5 minutes past due", async () => {
    const ok = await monitor();
    expect([ok.status, await ok.json()]).toEqual([200, { success: true }]);

    const p = await createProjectWithKeys();
    const due = Date.now() - 6 * 60_000;
    const id = crypto.randomUUID();
    await env.DB.prepare(
      `INSERT INTO email_outbox (id, project_id, created_at, updated_at, created_with, recipient, variables, api_url, status, is_paused, scheduled_at, send_retries)
       VALUES (?, ?, ?, ?, 'programmatic-call', '{"type":"custom-emails","emails":[]}', '{}', 'http://localhost', 'queued', 0, ?, 0)`,
    )
      .bind(id, p.projectId, due, due, due)
      .run();
    const stuck = await monitor();
    expect(stuck.status).toBe(503);
    expect(await stuck.json()).toEqual({ success: false, error: "1 queued email(s) are more than 5 minutes overdue." });

    // A paused email waits on purpose: it is not overdue.
    await env.DB.prepare("UPDATE email_outbox SET is_paused = 1 WHERE id = ?").bind(id).run();
    expect((await monitor()).status).toBe(200);
  });
});
