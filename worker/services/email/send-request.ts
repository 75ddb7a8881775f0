/**
 * POST /emails/send-email: who gets the message. Users without a primary email, and users who
 * turned the category off, are reported as skipped; every other one gets an outbox row (all rows in
 * D1 batches, then named to the email queue), and the answer carries each row's id at once.
 * The template is rendered once up front (an owner's call, in the sandbox) so a broken template
 * fails the call instead of every row, and so its own category decides when none is named.
 */

import { insertOutboxStatement, type NewOutboxRow } from "../../db/queries/email-outbox";
import { type EmailRecipientRow, findEmailRecipients, listAllEmailRecipients } from "../../db/queries/email-recipients";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { NOTIFICATION_CATEGORIES, type NotificationCategory } from "../notification-preferences";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { pacedSlots } from "./capacity";
import { readEmailSettings } from "./config";
import { markEmailDraftSent } from "./drafts";
import { enqueueOutbox } from "./outbox";
import { type RenderFailure, renderSources, type ThemeChoice, themeSourceFor } from "./rendering";
import { resolveSendSources, type SendResultItem, type SendSource } from "./sending";

/** all_users reaches at most this many users per call. */
export const MAX_ALL_USERS = 10_000;
/** Rows per D1 batch (each row is one statement). */
const ROWS_PER_BATCH = 100;

export type SendEmailInput = {
  userIds?: string[];
  allUsers?: boolean;
  source: SendSource;
  variables?: Record<string, unknown>;
  themeId?: ThemeChoice;
  subject?: string;
  notificationCategoryName?: string;
};

export type SendEmailOutcome =
  | { ok: true; results: SendResultItem[] }
  | Problem<
      | "requires_custom_email_server"
      | "email_category_not_found"
      | "source_template_not_found"
      | "draft_not_found"
      | "source_theme_not_found"
      | "user_id_not_found"
    >
  | RenderFailure;

type Recipient = { userId: string; email: string; displayName: string | null };

const TRANSACTIONAL = NOTIFICATION_CATEGORIES.find((c) => !c.canDisable)!;

function categoryByName(name: string | undefined): NotificationCategory | null {
  if (name === undefined) return TRANSACTIONAL;
  return NOTIFICATION_CATEGORIES.find((c) => c.name === name) ?? null;
}

type Skipped = SendResultItem & { skippedReason: "USER_HAS_NO_PRIMARY_EMAIL" | "USER_UNSUBSCRIBED" };

/** Users without a primary email or who turned the category off are skipped; the rest are recipients. */
function sortRecipients(rows: EmailRecipientRow[], category: NotificationCategory) {
  const recipients: Recipient[] = [];
  const skipped: Skipped[] = [];
  for (const row of rows) {
    if (!row.email)
      skipped.push({
        userId: row.userId,
        email: null,
        status: "skipped",
        error: "User does not have a primary email",
        skippedReason: "USER_HAS_NO_PRIMARY_EMAIL",
      });
    else if (category.canDisable && !(row.preference ?? category.defaultEnabled))
      skipped.push({
        userId: row.userId,
        email: row.email,
        status: "skipped",
        error: "User has disabled notifications for this category",
        skippedReason: "USER_UNSUBSCRIBED",
      });
    else recipients.push({ userId: row.userId, email: row.email, displayName: row.displayName });
  }
  return { recipients, skipped };
}

export async function sendEmailToUsers(deps: Deps, project: ProjectRow, input: SendEmailInput): Promise<SendEmailOutcome> {
  // As the reference: custom messages need the project's own mail server (the shared sender's reputation is everyone's).
  if (readProjectConfig(project.config).email_config.type === "shared") return fail("requires_custom_email_server");
  const settings = readEmailSettings(project);
  const sources = await resolveSendSources(deps, project.id, settings, input.source, input.themeId ?? null);
  if ("ok" in sources) return sources;
  const variables = input.variables ?? {};
  // One render up front: a broken template fails the whole send, and without a category name the template's own decides.
  const probe = await renderSources(deps, {
    themeSource: themeSourceFor(settings, sources.themeChoice),
    templateSource: sources.templateSource,
    variables,
    user: { displayName: null },
    project: { displayName: project.displayName },
  });
  if (!probe.ok) return probe;
  const category = categoryByName(input.notificationCategoryName ?? probe.notificationCategory);
  if (!category) return fail("email_category_not_found");

  let rows: EmailRecipientRow[];
  if (input.allUsers) rows = await listAllEmailRecipients(deps.db, project.id, category.id, MAX_ALL_USERS);
  else {
    const ids = [...new Set(input.userIds ?? [])];
    rows = await findEmailRecipients(deps.db, project.id, ids, category.id);
    const found = new Set(rows.map((r) => r.userId));
    const missing = ids.find((id) => !found.has(id));
    if (missing) return fail("user_id_not_found", { userId: missing });
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.userId)! - order.get(b.userId)!);
  }

  const { recipients, skipped } = sortRecipients(rows, category);
  const sendId = deps.random.uuid();
  const now = deps.now();
  // Paced at the project's capacity: each queued row gets its own slot (docs/emails.md "Capacity").
  const slots = await pacedSlots(deps, project.id, recipients.length);
  const rowFor = (userId: string, scheduledAt = now): NewOutboxRow => ({
    id: deps.random.uuid(),
    projectId: project.id,
    createdAt: now,
    updatedAt: now,
    createdWith: input.source.kind === "draft" ? "draft" : "programmatic-call",
    templateId: sources.templateId,
    draftId: sources.draftId,
    sendId,
    tsxSource: sources.templateSource,
    themeChoice: sources.themeChoice ?? null,
    recipient: { type: "user-primary-email", user_id: userId },
    variables,
    subjectOverride: input.subject ?? null,
    categoryId: category.id,
    apiUrl: deps.apiUrl,
    status: "queued",
    isPaused: false,
    scheduledAt,
    sendRetries: 0,
  });
  const outbox: NewOutboxRow[] = recipients.map((r, i) => rowFor(r.userId, slots[i]));
  // As the reference: a skipped user still gets an outbox row, in its final state (skipped, with the
  // reason), carrying the up-front render as its rendered copy (the reference renders before it skips).
  const skippedRows: NewOutboxRow[] = skipped.map((r) => ({
    ...rowFor(r.userId),
    status: "skipped",
    skippedReason: r.skippedReason,
    skippedDetails: {},
    startedRenderingAt: now,
    renderedAt: now,
    subject: input.subject ?? probe.subject,
    html: probe.html,
    text: probe.text,
    isTransactional: !category.canDisable,
    notificationCategoryId: category.id,
    // The reference finds a missing primary email in its sending phase, so that skip has a sending start.
    startedSendingAt: r.skippedReason === "USER_HAS_NO_PRIMARY_EMAIL" ? now : null,
  }));
  const allRows = [...outbox, ...skippedRows];
  for (let i = 0; i < allRows.length; i += ROWS_PER_BATCH) {
    const statements = allRows.slice(i, i + ROWS_PER_BATCH).map((row) => insertOutboxStatement(deps.db, row));
    await deps.db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  }
  // Each row is delivered to the consumer at its slot (a queue delay is whole seconds, never early).
  const byDelay = new Map<number, string[]>();
  for (const row of outbox) {
    const delay = Math.ceil(Math.max(0, row.scheduledAt - now) / 1000);
    byDelay.set(delay, [...(byDelay.get(delay) ?? []), row.id]);
  }
  for (const [delay, ids] of byDelay) await enqueueOutbox(deps, ids, delay);
  if (input.source.kind === "draft") await markEmailDraftSent(deps, project.id, input.source.draftId);

  const queued: SendResultItem[] = recipients.map((r, i) => ({
    userId: r.userId,
    email: r.email,
    status: "queued",
    emailId: outbox[i]!.id,
  }));
  const skippedItems: SendResultItem[] = skipped.map(({ skippedReason: _, ...r }, i) => ({ ...r, emailId: skippedRows[i]!.id }));
  const byUser = new Map([...queued, ...skippedItems].map((r) => [r.userId, r]));
  return { ok: true, results: rows.map((r) => byUser.get(r.userId)!) };
}
