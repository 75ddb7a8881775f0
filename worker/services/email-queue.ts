/**
 * Big sends through the EMAIL_QUEUE Cloudflare Queue: the request splits the recipients into
 * batches of BATCH_SIZE, one message each carrying the job; the consumer renders and delivers
 * each recipient's message. A recipient's log id is fixed by the send (email-sending.ts logIdFor),
 * so a message retried after a crash skips whoever already has a log row: nobody gets it twice.
 */
import { findProjectById } from "../db/queries/projects";
import { findSentEmail } from "../db/queries/sent-emails";
import type { Deps } from "../lib/context";
import { readEmailSettings } from "./email-config";
import { logIdFor, type Recipient, resolveJobSources, type SendJob, type SendResultItem, sendToRecipient } from "./email-sending";
import { NOTIFICATION_CATEGORIES } from "./notification-preferences";

export type EmailBatchMessage = { kind: "email_batch"; job: SendJob; recipients: Recipient[] };

/** Recipients per queue message. */
export const BATCH_SIZE = 25;
/** sendBatch takes at most 100 messages and 256 KB: messages go in groups below both. */
const GROUP_MESSAGES = 100;
const GROUP_BYTES = 200_000;

export function isEmailBatchMessage(body: unknown): body is EmailBatchMessage {
  return typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "email_batch";
}

/** A queue message holds at most 128 KB. */
const MAX_MESSAGE_BYTES = 120_000;

/** Puts the send on the queue in batches; nothing is queued when a batch would not fit in a message. */
export async function enqueueEmailBatches(
  deps: Deps,
  job: SendJob,
  recipients: Recipient[],
): Promise<{ ok: true; batches: number } | { ok: false; reason: "too_large" }> {
  const messages: { body: EmailBatchMessage; size: number }[] = [];
  for (let i = 0; i < recipients.length; i += BATCH_SIZE) {
    const body: EmailBatchMessage = { kind: "email_batch", job, recipients: recipients.slice(i, i + BATCH_SIZE) };
    const size = new TextEncoder().encode(JSON.stringify(body)).length;
    if (size > MAX_MESSAGE_BYTES) return { ok: false, reason: "too_large" };
    messages.push({ body, size });
  }
  let group: { body: EmailBatchMessage }[] = [];
  let bytes = 0;
  for (const m of messages) {
    if (group.length > 0 && (group.length >= GROUP_MESSAGES || bytes + m.size > GROUP_BYTES)) {
      await deps.env.EMAIL_QUEUE.sendBatch(group);
      group = [];
      bytes = 0;
    }
    group.push({ body: m.body });
    bytes += m.size;
  }
  if (group.length > 0) await deps.env.EMAIL_QUEUE.sendBatch(group);
  return { ok: true, batches: messages.length };
}

/** The consumer: one batch of one send, against the project's config as it is now. */
export async function handleEmailBatch(deps: Deps, message: EmailBatchMessage): Promise<SendResultItem[]> {
  const { job } = message;
  const project = await findProjectById(deps.db, job.projectId);
  // The project was deleted since: nothing to send.
  if (!project) return [];
  const category = NOTIFICATION_CATEGORIES.find((c) => c.id === job.categoryId);
  const sources = await resolveJobSources(deps, readEmailSettings(project), job);
  if (!category || "ok" in sources) {
    // The template, draft or theme went away since the request: these recipients are not sent to.
    const error = category && "reason" in sources ? sources.reason : "unknown notification category";
    console.error(`email batch of send ${job.sendId} (project ${project.id}) dropped: ${error}`);
    return message.recipients.map((r) => ({ userId: r.userId, email: r.email, status: "failed", error }));
  }
  const results: SendResultItem[] = [];
  for (const recipient of message.recipients) {
    if (await findSentEmail(deps.db, project.id, await logIdFor(job.sendId, recipient.userId))) continue;
    results.push(await sendToRecipient(deps, project, job, sources, category, recipient));
  }
  return results;
}
