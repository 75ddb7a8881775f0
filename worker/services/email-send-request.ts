/**
 * POST /emails/send-email: who gets the message and how it goes out. Users without a primary
 * email, and users who turned the category off, are reported as skipped; the rest get one
 * message each, sent inside the request when there are at most QUEUE_THRESHOLD of them, otherwise
 * through the email queue in batches (each recipient's log id is in the answer either way).
 */
import { type EmailRecipientRow, findEmailRecipients, listAllEmailRecipients } from "../db/queries/email-recipients";
import type { ProjectRow } from "../db/queries/projects";
import type { Deps } from "../lib/context";
import { readEmailSettings } from "./email-config";
import { markEmailDraftSent } from "./email-drafts";
import { enqueueEmailBatches } from "./email-queue";
import type { RenderFailure, ThemeChoice } from "./email-rendering";
import {
  logIdFor,
  type Recipient,
  renderForUser,
  resolveJobSources,
  type SendJob,
  type SendResultItem,
  sendToRecipient,
} from "./email-sending";
import { NOTIFICATION_CATEGORIES, type NotificationCategory } from "./notification-preferences";
import { readProjectConfig } from "./project-config";

/** Above this many recipients a send goes through the email queue. */
export const QUEUE_THRESHOLD = 100;
/** all_users reaches at most this many users per call. */
export const MAX_ALL_USERS = 10_000;
/** Messages inside one request go out this many at a time (Workers allow six open connections). */
const CONCURRENCY = 4;

export type SendEmailInput = {
  userIds?: string[];
  allUsers?: boolean;
  source: SendJob["source"];
  variables?: Record<string, unknown>;
  themeId?: ThemeChoice;
  subject?: string;
  notificationCategoryName?: string;
};

export type SendEmailOutcome =
  | { ok: true; results: SendResultItem[] }
  | {
      ok: false;
      reason:
        | "requires_custom_email_server"
        | "category_not_found"
        | "template_not_found"
        | "draft_not_found"
        | "theme_not_found"
        | "too_large";
    }
  | { ok: false; reason: "user_not_found"; userId: string }
  | RenderFailure;

const TRANSACTIONAL = NOTIFICATION_CATEGORIES.find((c) => !c.canDisable)!;

function categoryByName(name: string | undefined): NotificationCategory | null {
  if (name === undefined) return TRANSACTIONAL;
  return NOTIFICATION_CATEGORIES.find((c) => c.name === name) ?? null;
}

/** Runs `fn` over the items, `limit` at a time, keeping their order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Users without a primary email or who turned the category off are skipped; the rest are recipients. */
function sortRecipients(rows: EmailRecipientRow[], category: NotificationCategory) {
  const recipients: Recipient[] = [];
  const skipped: SendResultItem[] = [];
  for (const row of rows) {
    if (!row.email) skipped.push({ userId: row.userId, email: null, status: "skipped", error: "User does not have a primary email" });
    else if (category.canDisable && !(row.preference ?? category.defaultEnabled))
      skipped.push({ userId: row.userId, email: row.email, status: "skipped", error: "User has disabled notifications for this category" });
    else recipients.push({ userId: row.userId, email: row.email, displayName: row.displayName });
  }
  return { recipients, skipped };
}

export async function sendEmailToUsers(deps: Deps, project: ProjectRow, input: SendEmailInput): Promise<SendEmailOutcome> {
  // As the reference: custom messages need the project's own mail server (the shared sender's reputation is everyone's).
  if (readProjectConfig(project.config).email_config.type === "shared") return { ok: false, reason: "requires_custom_email_server" };
  const settings = readEmailSettings(project);
  const job: SendJob = {
    projectId: project.id,
    apiUrl: deps.apiUrl,
    sendId: deps.random.uuid(),
    source: input.source,
    variables: input.variables ?? {},
    themeId: input.themeId ?? null,
    subject: input.subject ?? null,
    categoryId: "",
  };
  const sources = await resolveJobSources(deps, settings, job);
  if ("ok" in sources) return sources;
  // One render up front: a broken template fails the whole send, and without a category name the template's own decides.
  const probe = await renderForUser(project, job, sources, null, null);
  if (!probe.ok) return probe;
  const category = categoryByName(input.notificationCategoryName ?? probe.notificationCategory);
  if (!category) return { ok: false, reason: "category_not_found" };

  let rows: EmailRecipientRow[];
  if (input.allUsers) rows = await listAllEmailRecipients(deps.db, project.id, category.id, MAX_ALL_USERS);
  else {
    const ids = [...new Set(input.userIds ?? [])];
    rows = await findEmailRecipients(deps.db, project.id, ids, category.id);
    const found = new Set(rows.map((r) => r.userId));
    const missing = ids.find((id) => !found.has(id));
    if (missing) return { ok: false, reason: "user_not_found", userId: missing };
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.userId)! - order.get(b.userId)!);
  }
  job.categoryId = category.id;

  const { recipients, skipped } = sortRecipients(rows, category);
  let sent: SendResultItem[];
  if (recipients.length > QUEUE_THRESHOLD) {
    const queued = await enqueueEmailBatches(deps, job, recipients);
    if (!queued.ok) return queued;
    sent = await Promise.all(
      recipients.map(async (r) => ({
        userId: r.userId,
        email: r.email,
        status: "queued" as const,
        emailId: await logIdFor(job.sendId, r.userId),
      })),
    );
  } else sent = await mapLimited(recipients, CONCURRENCY, (r) => sendToRecipient(deps, project, job, sources, category, r));
  if (input.source.kind === "draft") await markEmailDraftSent(deps, project.id, input.source.draftId);

  const byUser = new Map([...sent, ...skipped].map((r) => [r.userId, r]));
  return { ok: true, results: rows.map((r) => byUser.get(r.userId)!) };
}
