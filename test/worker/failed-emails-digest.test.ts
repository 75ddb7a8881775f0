/**
 * POST /internal/failed-emails-digest: the cron's bearer secret, the last 24 hours' failed emails by
 * project with their owners, and the owners' digest email through the outbox (once per day).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, internalServer } from "../helpers/api";
import { waitForOutbox } from "../helpers/mail";

const CRON = { authorization: "Bearer mock_cron_secret" };
type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
type Batch = { project_id: string; tenancy_id: string; tenant_owner_emails: string[]; emails: { subject: string; to: string[] }[] };

/** An outbox row in a final state, written as the consumer would leave it. */
async function outboxRow(projectId: string, o: { status: string; subject: string | null; recipient: unknown; createdAt: number }) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO email_outbox (id, project_id, created_at, updated_at, created_with, recipient, variables, api_url, status, is_paused, scheduled_at, send_retries, subject)
     VALUES (?, ?, ?, ?, 'programmatic-call', ?, '{}', 'http://localhost', ?, 0, ?, 0, ?)`,
  )
    .bind(id, projectId, o.createdAt, o.createdAt, JSON.stringify(o.recipient), o.status, o.createdAt, o.subject)
    .run();
  return id;
}

async function failingProject(): Promise<Project> {
  const p = await createProjectWithKeys();
  const now = Date.now();
  await outboxRow(p.projectId, {
    status: "server-error",
    subject: "Welcome <script>x</script>",
    recipient: { type: "custom-emails", emails: ["a@example.com", "b@example.com"] },
    createdAt: now - 60_000,
  });
  await outboxRow(p.projectId, {
    status: "render-error",
    subject: null,
    recipient: { type: "user-primary-email", user_id: "u-1" },
    createdAt: now - 30_000,
  });
  // Not in the digest: delivered, and failed more than 24 hours ago.
  await outboxRow(p.projectId, {
    status: "sent",
    subject: "Fine",
    recipient: { type: "custom-emails", emails: ["c@example.com"] },
    createdAt: now,
  });
  await outboxRow(p.projectId, {
    status: "bounced",
    subject: "Old",
    recipient: { type: "custom-emails", emails: ["d@example.com"] },
    createdAt: now - 25 * 3600_000,
  });
  return p;
}

function digest(query = "", headers: Record<string, string> = CRON) {
  return call(`/internal/failed-emails-digest${query}`, { method: "POST", headers });
}

const batchOf = (body: { failed_emails_by_tenancy: Batch[] }, projectId: string) =>
  body.failed_emails_by_tenancy.filter((b) => b.project_id === projectId);

async function digestRowsTo(userId: string) {
  const rows = await env.DB.prepare(
    "SELECT id, html FROM email_outbox WHERE project_id = 'internal' AND subject_override = 'Failed emails digest' AND recipient LIKE ?",
  )
    .bind(`%${userId}%`)
    .all<{ id: string }>();
  return rows.results;
}

describe("POST /internal/failed-emails-digest", () => {
  it("refuses a wrong or malformed secret with a plain 401, and a missing header with SCHEMA_ERROR", async () => {
    for (const authorization of ["Bearer some_invalid_secret", "InvalidFormat", "mock_cron_secret", "Bearer mock_cron_secretX", ""]) {
      const res = await digest("?dry_run=true", { authorization });
      expect([res.status, res.text], authorization).toEqual([401, "Unauthorized"]);
    }
    const missing = await call("/internal/failed-emails-digest", { ...internalServer, method: "POST" });
    expect(missing.status).toBe(400);
    const bare = await digest("", {});
    expect([bare.status, bare.body.code]).toEqual([400, "SCHEMA_ERROR"]);
    for (const query of ["?dry_run=yes", "?extra=1"]) {
      const res = await digest(query);
      expect([res.status, res.body.code], query).toEqual([400, "SCHEMA_ERROR"]);
    }
  });

  it("dry run: the last 24 hours' failed emails of each project, with its owners, and no mail", async () => {
    const p = await failingProject();
    const res = await digest("?dry_run=true");
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    expect(batchOf(res.body, p.projectId)).toEqual([
      {
        project_id: p.projectId,
        tenancy_id: p.projectId,
        tenant_owner_emails: [p.owner.email],
        emails: [
          { subject: "Welcome <script>x</script>", to: ["a@example.com", "b@example.com"] },
          { subject: "(No Subject)", to: ["User ID: u-1"] },
        ],
      },
    ]);
    expect(await digestRowsTo(p.owner.userId)).toEqual([]);
  });

  it("queues one digest per owner through the outbox, escaped, and only once a day", async () => {
    const p = await failingProject();
    const res = await digest();
    expect(res.status, res.text).toBe(200);
    expect(batchOf(res.body, p.projectId)).toHaveLength(1);
    const [mail] = await waitForOutbox(p.owner.email, 1, 15_000);
    expect(mail!.subject).toBe("Failed emails digest");
    expect(mail!.html).toContain("2 emails failed");
    expect(mail!.html).toContain("Welcome &#60;script&#62;x&#60;/script&#62;");
    expect(mail!.html).not.toContain("<script>");
    expect(await digestRowsTo(p.owner.userId)).toHaveLength(1);
    // A second run the same day (a retried cron) queues nothing more.
    expect((await digest()).status).toBe(200);
    expect(await digestRowsTo(p.owner.userId)).toHaveLength(1);
  });

  it("a project without failures is not listed and gets no digest", async () => {
    const p = await createProjectWithKeys();
    await outboxRow(p.projectId, {
      status: "sent",
      subject: "Fine",
      recipient: { type: "custom-emails", emails: ["e@example.com"] },
      createdAt: Date.now(),
    });
    const res = await digest();
    expect(batchOf(res.body, p.projectId)).toEqual([]);
    expect(await digestRowsTo(p.owner.userId)).toEqual([]);
  });
});
