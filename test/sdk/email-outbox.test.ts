/**
 * The SDK's email outbox calls (issue 24) against the real worker and its queue: list and get in
 * camelCase, paging newest first by cursor, filters, pause/unpause/cancel of an email waiting for
 * its retry (a hostile SMTP server answers 450 to MAIL FROM), EMAIL_NOT_EDITABLE once an email is
 * sent or cancelled, and Retry of an email that failed for good (550).
 */
import { describe, expect, inject, it } from "vitest";
import { type AdminEmailOutbox, KnownError, type StackAdminApp } from "../../sdk/src";
import { uniqueEmail } from "../helpers/api";
import { sinkEmailConfig, waitForMail } from "../helpers/mail";
import { internalMemoryApp } from "../helpers/sdk-apps";
import type { SmtpFaultScenario } from "../smtp-fault-server.mjs";

const faults = (path: string, method = "GET", body?: unknown) =>
  fetch(`http://127.0.0.1:${inject("smtpFaultsPort")}/servers${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json() as Promise<Record<string, unknown>>);

/** A hostile SMTP server on loopback playing `scenario`; answers its port. */
const faultServer = async (scenario: SmtpFaultScenario) => (await faults("", "POST", scenario)).port as number;

/** A fresh owner's project whose email goes to the test SMTP sink, or to `port`. */
async function ownedProject(port?: number): Promise<StackAdminApp> {
  const owner = internalMemoryApp();
  await owner.signUpWithCredential({ email: uniqueEmail("outbox-owner"), password: "owner password 1", noRedirect: true });
  const smtp = sinkEmailConfig();
  const project = await (await owner.getUser({ or: "throw" }))!.createProject({
    displayName: "SDK outbox",
    config: {
      emailConfig: {
        type: "standard",
        host: smtp.host,
        port: port ?? smtp.port,
        username: smtp.username,
        password: smtp.password,
        senderName: smtp.sender_name,
        senderEmail: smtp.sender_email,
      },
    },
  });
  return project.app;
}

/** Sends `subject` to new users (one per address) and answers each user's outbox email. */
async function sendTo(admin: StackAdminApp, emails: string[], subject: string): Promise<AdminEmailOutbox[]> {
  const users = await Promise.all(emails.map((primaryEmail) => admin.createUser({ primaryEmail })));
  await admin.sendEmail({ userIds: users.map((u) => u.id), html: `<p>${subject}</p>`, subject });
  const { items } = await admin.listOutboxEmails();
  return users.map((u) => {
    const found = items.find((e) => e.to.type === "user-primary-email" && e.to.userId === u.id);
    if (!found) throw new Error(`no outbox email for ${u.id}`);
    return found;
  });
}

/** Polls the email until `check` passes. */
async function waitUntil(admin: StackAdminApp, id: string, check: (e: AdminEmailOutbox) => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const email = await admin.getOutboxEmail(id);
    if (check(email)) return email;
    if (Date.now() > deadline) throw new Error(`outbox email ${id} never became ${what}: ${email.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function knownErrorOf(promise: Promise<unknown>): Promise<KnownError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KnownError);
  return error as KnownError;
}

describe("SDK email outbox", () => {
  it("lists and gets a sent email in camelCase; a sent email is not editable", async () => {
    const admin = await ownedProject();
    const address = uniqueEmail("outbox-sent");
    const [queued] = await sendTo(admin, [address], "Outbox hello");
    expect(queued!.createdAt).toBeInstanceOf(Date);
    expect(queued!.scheduledAt).toBeInstanceOf(Date);

    const sent = await waitUntil(admin, queued!.id, (e) => e.status === "sent", "sent");
    expect(sent).toMatchObject({
      id: queued!.id,
      status: "sent",
      simpleStatus: "ok",
      isPaused: false,
      hasRendered: true,
      hasDelivered: true,
      subject: "Outbox hello",
      to: { type: "user-primary-email", userId: (queued!.to as { userId: string }).userId },
      sendRetries: 0,
      nextSendRetryAt: null,
      createdWith: "programmatic-call",
    });
    expect(sent.deliveredAt).toBeInstanceOf(Date);
    expect(sent.updatedAt).toBeInstanceOf(Date);
    expect(sent.html).toContain("Outbox hello");
    expect((await waitForMail(address))[0]!.subject).toBe("Outbox hello");
    // The list answers the same item as get.
    const listed = (await admin.listOutboxEmails({ status: "sent" })).items.find((e) => e.id === sent.id);
    expect(listed).toEqual(sent);

    const refused = await knownErrorOf(admin.pauseOutboxEmail(sent.id));
    expect(refused.code).toBe("EMAIL_NOT_EDITABLE");
    // The status in the details is the stored enum's name, as the reference's.
    expect(refused.details).toMatchObject({ email_id: sent.id, status: "SENT" });
    expect((await knownErrorOf(admin.cancelOutboxEmail(sent.id))).code).toBe("EMAIL_NOT_EDITABLE");
  });

  it("pages newest first with a cursor, and filters by status", async () => {
    const admin = await ownedProject();
    const emails = await sendTo(admin, [uniqueEmail("page-a"), uniqueEmail("page-b"), uniqueEmail("page-c")], "Paged");
    for (const e of emails) await waitUntil(admin, e.id, (x) => x.status === "sent", "sent");

    const first = await admin.listOutboxEmails({ limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await admin.listOutboxEmails({ limit: 2, cursor: first.nextCursor! });
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const all = [...first.items, ...second.items];
    expect(new Set(all.map((e) => e.id))).toEqual(new Set(emails.map((e) => e.id)));
    for (let i = 1; i < all.length; i++) expect(all[i]!.createdAt.getTime()).toBeLessThanOrEqual(all[i - 1]!.createdAt.getTime());

    expect((await admin.listOutboxEmails({ status: "sent" })).items).toHaveLength(3);
    expect((await admin.listOutboxEmails({ simpleStatus: "ok" })).items).toHaveLength(3);
    expect((await admin.listOutboxEmails({ simpleStatus: "error" })).items).toEqual([]);
    expect((await admin.listOutboxEmails({ status: "queued" })).items).toEqual([]);
  });

  it("pauses, unpauses and cancels emails waiting for their retry after a temporary failure (450)", async () => {
    const port = await faultServer({ replies: { mail: { code: 450, text: "4.7.1 Greylisted, try again later" } } });
    try {
      const admin = await ownedProject(port);
      const [a, b] = await sendTo(admin, [uniqueEmail("retry-a"), uniqueEmail("retry-b")], "Try later");
      const waiting = (e: AdminEmailOutbox) => e.status === "queued" && e.sendRetries === 1;
      const first = await waitUntil(admin, a!.id, waiting, "queued for a retry");
      await waitUntil(admin, b!.id, waiting, "queued for a retry");
      expect(first.simpleStatus).toBe("in-progress");
      expect(first.nextSendRetryAt).toBeInstanceOf(Date);
      expect(first.nextSendRetryAt!.getTime()).toBeGreaterThan(Date.now() - 1000);
      expect(first.sendAttemptErrors).toHaveLength(1);
      expect(first.sendAttemptErrors![0]).toMatchObject({ attemptNumber: 1, timestamp: expect.any(String) });
      expect(first.sendAttemptErrors![0]!.externalMessage).toEqual(expect.any(String));

      // a: paused (a paused email is never claimed), then cancelled: skipped, and no longer editable.
      const paused = await admin.pauseOutboxEmail(a!.id);
      expect(paused).toMatchObject({ id: a!.id, status: "paused", isPaused: true, simpleStatus: "in-progress" });
      expect((await admin.getOutboxEmail(a!.id)).status).toBe("paused");
      const cancelled = await admin.cancelOutboxEmail(a!.id);
      expect(cancelled).toMatchObject({ status: "skipped", simpleStatus: "ok", skippedReason: "MANUALLY_CANCELLED" });
      expect(cancelled.skippedAt).toBeInstanceOf(Date);
      const refused = await knownErrorOf(admin.updateOutboxEmail(a!.id, { isPaused: false }));
      expect(refused.code).toBe("EMAIL_NOT_EDITABLE");
      expect(refused.details).toMatchObject({ email_id: a!.id, status: "SKIPPED" });

      // b: paused, then unpaused: on its way again.
      expect((await admin.pauseOutboxEmail(b!.id)).status).toBe("paused");
      const resumed = await admin.unpauseOutboxEmail(b!.id);
      expect(resumed.isPaused).toBe(false);
      expect(resumed.status).not.toBe("paused");
      expect((await admin.listOutboxEmails({ status: "skipped" })).items.map((e) => e.id)).toEqual([a!.id]);
    } finally {
      await faults(`/${port}`, "DELETE");
    }
  });

  it("a permanent failure (550) is server-error; Retry sends it again with its retries reset", async () => {
    const port = await faultServer({ replies: { mail: { code: 550, text: "5.7.1 Sender rejected" } } });
    try {
      const admin = await ownedProject(port);
      const address = uniqueEmail("retry-now");
      const [queued] = await sendTo(admin, [address], "Second chance");
      const failed = await waitUntil(admin, queued!.id, (e) => e.status === "server-error", "server-error");
      expect(failed).toMatchObject({ simpleStatus: "error", sendRetries: 1, hasDelivered: false });
      expect(failed.serverError).toEqual(expect.any(String));
      expect(failed.errorAt).toBeInstanceOf(Date);
      expect(failed.sendAttemptErrors).toHaveLength(1);
      expect((await admin.listOutboxEmails({ simpleStatus: "error" })).items.map((e) => e.id)).toEqual([failed.id]);

      await faults(`/${port}`, "PATCH", { accept: true });
      const retried = await admin.retryOutboxEmail(failed.id);
      expect(retried.simpleStatus).toBe("in-progress");
      expect(retried.sendRetries).toBe(0);
      const sent = await waitUntil(admin, failed.id, (e) => e.status === "sent", "sent");
      expect(sent.hasDelivered).toBe(true);
      const seen = (await faults(`/${port}`)) as { accepted: { to: string[] }[] };
      expect(seen.accepted.map((m) => m.to)).toEqual([[address]]);
    } finally {
      await faults(`/${port}`, "DELETE");
    }
  });
});
