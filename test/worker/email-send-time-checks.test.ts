/**
 * What the outbox consumer checks again after rendering, just before sending: a user deleted, left
 * without a primary email, or unsubscribed while their email was rendering is skipped, not sent to.
 * The template waits on `performance.now()` (the sandbox has it) so the change lands mid-render.
 */
import { describe, expect, it } from "vitest";
import { type CallOptions, call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { outbox, sinkEmailConfig } from "../helpers/mail";
import { waitForOutboxStatus } from "../helpers/outbox";

const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
const slowTemplate = (subject: string) => `import { Subject, NotificationCategory } from "@stackframe/emails";
const started = performance.now();
while (performance.now() - started < 800) {}
export function EmailTemplate() {
  return <><Subject value="${subject}" /><NotificationCategory value="Marketing" /><p>Slow</p></>;
}`;

/** Sends a slow Marketing draft to one user; answers once the consumer is rendering it. */
async function sendSlow(p: { admin: CallOptions; server: CallOptions }, userId: string, subject: string): Promise<string> {
  const draft = await call("/internal/email-drafts", {
    ...p.admin,
    body: { display_name: "Slow", tsx_source: slowTemplate(subject), theme_id: false },
  });
  expect(draft.status, draft.text).toBe(200);
  const sent = await call("/emails/send-email", { ...p.server, body: { user_ids: [userId], draft_id: draft.body.id } });
  expect(sent.status, sent.text).toBe(200);
  const id: string = sent.body.results[0].email_id;
  await waitForOutboxStatus(p.server, id, ["rendering"], 10_000);
  return id;
}

describe("send-time checks after rendering", () => {
  it("a user deleted, without a primary email, or unsubscribed mid-render is skipped with the reason", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const newUser = async () => {
      const email = uniqueEmail("mid-render");
      const res = await call("/users", { ...p.server, body: { primary_email: email, primary_email_verified: true } });
      expect(res.status, res.text).toBe(201);
      return { id: res.body.id as string, email };
    };

    const deleted = await newUser();
    const a = await sendSlow(p, deleted.id, "Deleted mid-render");
    expect((await call(`/users/${deleted.id}`, { ...p.server, method: "DELETE" })).status).toBe(200);

    const noEmail = await newUser();
    const b = await sendSlow(p, noEmail.id, "Email removed mid-render");
    const channels = await call(`/contact-channels?user_id=${noEmail.id}`, p.server);
    const removed = await call(`/contact-channels/${noEmail.id}/${channels.body.items[0].id}`, { ...p.server, method: "DELETE" });
    expect(removed.status, removed.text).toBe(200);

    const unsubscribed = await newUser();
    const c = await sendSlow(p, unsubscribed.id, "Unsubscribed mid-render");
    const off = await call(`/emails/notification-preference/${unsubscribed.id}/${MARKETING}`, {
      ...p.server,
      method: "PATCH",
      body: { enabled: false },
    });
    expect(off.status, off.text).toBe(200);

    // Skipped after rendering, as the reference: the outbox keeps the rendered copy.
    expect(await waitForOutboxStatus(p.server, a, ["skipped", "sent"])).toMatchObject({
      skipped_reason: "USER_ACCOUNT_DELETED",
      has_rendered: true,
      subject: "Deleted mid-render",
    });
    expect(await waitForOutboxStatus(p.server, b, ["skipped", "sent"])).toMatchObject({
      skipped_reason: "USER_HAS_NO_PRIMARY_EMAIL",
      subject: "Email removed mid-render",
    });
    expect(await waitForOutboxStatus(p.server, c, ["skipped", "sent"])).toMatchObject({
      skipped_reason: "USER_UNSUBSCRIBED",
      subject: "Unsubscribed mid-render",
    });
    for (const u of [deleted, noEmail, unsubscribed]) expect(await outbox(u.email)).toEqual([]);
  });
});
