/**
 * The failed-emails digest: the emails of the last 24 hours that failed (render or server error,
 * bounce), grouped by project, and one "Failed emails digest" email to each owner of such a
 * project. The digests are outbox rows of the internal project (the owners are its users), so the
 * queue consumer renders and sends them; nothing is rendered here. Run by the daily cron and by
 * POST /internal/failed-emails-digest (an external cron, or dry_run to only look).
 */
import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import type { EmailOutboxRecipient } from "@doorman/shared/wire-email-outbox";
import { constantTimeEqual, sha256Hex } from "../../crypto/hash";
import { insertOutboxRowIfAbsent, type NewOutboxRow } from "../../db/queries/email-outbox";
import { listFailedEmailsSince, listProjectOwners } from "../../db/queries/failed-emails";
import type { Deps } from "../deps";
import { NOTIFICATION_CATEGORIES } from "../notification-preferences";
import { templateSourceFromHtml } from "./defaults";
import { enqueueOutbox } from "./outbox";

export const DIGEST_SUBJECT = "Failed emails digest";
const WINDOW_MS = 24 * 3600_000;
/** Bounded work per run: at most this many failed emails are read. */
const MAX_FAILED_EMAILS = 5_000;
/** The digest lists the last few failures; the console's email log has all of them. */
const LISTED_PER_DIGEST = 10;

export type FailedEmail = { subject: string; to: string[] };
export type FailedEmailsOfProject = { projectId: string; emails: FailedEmail[]; ownerEmails: string[]; ownerUserIds: string[] };
export type DigestRun = { projects: FailedEmailsOfProject[]; queued: number };

/** The recipient as the digest names it (the reference's wording: a user by id, or the addresses). */
function recipientNames(recipient: unknown): string[] {
  const r = recipient as EmailOutboxRecipient;
  if (r?.type === "user-primary-email") return [`User ID: ${r.user_id}`];
  return Array.isArray(r?.emails) ? r.emails : [];
}

/** The failed emails since `since`, by project, with each project's owners. */
export async function collectFailedEmails(deps: Deps, since: number): Promise<FailedEmailsOfProject[]> {
  const rows = await listFailedEmailsSince(deps.db, since, MAX_FAILED_EMAILS);
  const byProject = new Map<string, FailedEmailsOfProject>();
  for (const row of rows) {
    let entry = byProject.get(row.projectId);
    if (!entry) byProject.set(row.projectId, (entry = { projectId: row.projectId, emails: [], ownerEmails: [], ownerUserIds: [] }));
    entry.emails.push({ subject: row.subject ?? "(No Subject)", to: recipientNames(row.recipient) });
  }
  for (const owner of await listProjectOwners(deps.db, [...byProject.keys()])) {
    const entry = byProject.get(owner.projectId)!;
    if (!entry.ownerUserIds.includes(owner.userId)) entry.ownerUserIds.push(owner.userId);
    if (owner.email && !entry.ownerEmails.includes(owner.email)) entry.ownerEmails.push(owner.email);
  }
  return [...byProject.values()];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The digest's body. Subjects and addresses come from the project's emails: escaped, never markup. */
export function digestHtml(project: FailedEmailsOfProject): string {
  const listed = project.emails.slice(-LISTED_PER_DIGEST).map((email) => {
    const subject = escapeHtml(email.subject.replace(/\s+/g, " ").slice(0, 50));
    return `<div><p>Subject: ${subject}<br />To: ${email.to.map(escapeHtml).join(", ")}</p></div>`;
  });
  return [
    "<p>Thank you for using Doorman!</p>",
    `<p>On your project ${escapeHtml(project.projectId)}, ${project.emails.length} emails failed to deliver in the last 24 hours. Please check the project's email server settings; the console's email log lists every one.</p>`,
    "<p>Last failing emails:</p>",
    ...listed,
    project.emails.length > LISTED_PER_DIGEST ? "<div>...</div>" : "",
  ].join("\n");
}

/** A UUID fixed by (project, owner, day): a second run on the same day finds the row and sends nothing. */
async function digestId(projectId: string, ownerUserId: string, day: number): Promise<string> {
  const h = await sha256Hex(`failed-emails-digest:${projectId}:${ownerUserId}:${day}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function digestRows(deps: Deps, project: FailedEmailsOfProject, now: number): Promise<NewOutboxRow[]> {
  const transactional = NOTIFICATION_CATEGORIES.find((c) => !c.canDisable)!;
  const tsxSource = templateSourceFromHtml(digestHtml(project));
  const day = Math.floor(now / WINDOW_MS);
  return Promise.all(
    project.ownerUserIds.map(async (userId) => ({
      id: await digestId(project.projectId, userId, day),
      projectId: INTERNAL_PROJECT_ID,
      createdAt: now,
      updatedAt: now,
      createdWith: "programmatic-call",
      tsxSource,
      themeChoice: null,
      // The owner's primary email as it is when sent; an owner without one is skipped by the consumer.
      recipient: { type: "user-primary-email", user_id: userId } satisfies EmailOutboxRecipient,
      variables: {},
      subjectOverride: DIGEST_SUBJECT,
      categoryId: transactional.id,
      apiUrl: deps.apiUrl,
      status: "queued",
      isPaused: false,
      scheduledAt: now,
      sendRetries: 0,
    })),
  );
}

/**
 * Collects the last 24 hours' failures and, unless `dryRun`, queues one digest per owner of each
 * project with failures (at most one per owner, project and day: the rows' ids are fixed by them).
 */
export async function runFailedEmailsDigest(deps: Deps, options: { dryRun: boolean }): Promise<DigestRun> {
  const now = deps.now();
  const projects = await collectFailedEmails(deps, now - WINDOW_MS);
  if (options.dryRun) return { projects, queued: 0 };
  const ids: string[] = [];
  for (const project of projects) {
    for (const row of await digestRows(deps, project, now)) {
      // Compare-and-set on the fixed id: of two runs on one day, only the one that inserted enqueues.
      if (await insertOutboxRowIfAbsent(deps.db, row)) ids.push(row.id);
    }
  }
  await enqueueOutbox(deps, ids);
  return { projects, queued: ids.length };
}

/** Is this Authorization header the cron's bearer secret? Never true without a configured secret. */
export function isCronCaller(deps: Deps, authorization: string): boolean {
  const secret = deps.config.cronSecret;
  // Constant time: the comparison must not reveal how much of the secret a guess got right.
  return secret !== null && constantTimeEqual(authorization, `Bearer ${secret}`);
}
