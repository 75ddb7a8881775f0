/**
 * The owner's side of the outbox (GET/PATCH /emails/outbox): listing with cursor paging, one row,
 * and changes: pause, unpause, cancel, reschedule (the console's Retry on a failed row) and new
 * content. A change applies only while the row is still in the status it was read in, so it never
 * races the consumer: a row being sent cannot change.
 */
import {
  EMAIL_OUTBOX_EDITABLE_STATUSES,
  EMAIL_OUTBOX_STATUSES,
  type EmailOutboxItemJson,
  type EmailOutboxSimpleStatus,
  type EmailOutboxStatus,
  type EmailOutboxUpdateJson,
  simpleStatusOf,
} from "@doorman/shared/wire-email-outbox";
import { findOutboxRow, listOutboxRows, type NewOutboxRow, type OutboxRow, updateOutboxRowFrom } from "../../db/queries/email-outbox";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { readEmailSettings } from "./config";
import { BUILT_IN_TEMPLATE_IDS, DEFAULT_EMAIL_TEMPLATES } from "./defaults";
import { enqueueOutbox } from "./outbox";
import { emailOutboxView } from "./outbox-view";

export type OutboxProblem = Problem<"outbox_email_not_found" | "outbox_email_not_editable" | "outbox_request_invalid">;

/** The TSX a row renders: its own, or the project's template of a built-in email's kind. */
function sourceOf(project: ProjectRow, row: OutboxRow): string {
  if (row.tsxSource !== null) return row.tsxSource;
  const id = BUILT_IN_TEMPLATE_IDS[row.builtInKind as keyof typeof BUILT_IN_TEMPLATE_IDS];
  if (!id) return "";
  return (readEmailSettings(project).templates[id] ?? DEFAULT_EMAIL_TEMPLATES[id])?.tsxSource ?? "";
}

export function outboxItem(project: ProjectRow, row: OutboxRow): EmailOutboxItemJson {
  return emailOutboxView(row, sourceOf(project, row));
}

export async function listOutbox(
  deps: Deps,
  project: ProjectRow,
  query: { status?: EmailOutboxStatus; simpleStatus?: EmailOutboxSimpleStatus; limit?: number; cursor?: string },
): Promise<{ ok: true; items: EmailOutboxItemJson[]; nextCursor: string | null } | OutboxProblem> {
  const limit = query.limit ?? 100;
  let statuses: string[] | undefined;
  if (query.status) statuses = [query.status];
  if (query.simpleStatus) {
    const bySimple = EMAIL_OUTBOX_STATUSES.filter((s) => simpleStatusOf(s) === query.simpleStatus);
    statuses = statuses ? statuses.filter((s) => (bySimple as readonly string[]).includes(s)) : [...bySimple];
  }
  let from: OutboxRow | null = null;
  if (query.cursor) {
    from = await findOutboxRow(deps.db, project.id, query.cursor);
    if (!from) return fail("outbox_request_invalid", { message: "cursor names no email of this project" });
  }
  const rows = await listOutboxRows(deps.db, project.id, {
    statuses,
    limit: limit + 1,
    ...(from ? { from: { createdAt: from.createdAt, id: from.id } } : {}),
  });
  const page = rows.slice(0, limit);
  return { ok: true, items: page.map((r) => outboxItem(project, r)), nextCursor: rows.length > limit ? rows[limit]!.id : null };
}

export async function getOutboxEmail(
  deps: Deps,
  project: ProjectRow,
  id: string,
): Promise<{ ok: true; item: EmailOutboxItemJson } | OutboxProblem> {
  const row = await findOutboxRow(deps.db, project.id, id);
  if (!row) return fail("outbox_email_not_found");
  return { ok: true, item: outboxItem(project, row) };
}

/** What a change sets, from the row as read; null when it asks for something this row cannot do. */
function changesFor(row: OutboxRow, patch: EmailOutboxUpdateJson, now: number): Partial<NewOutboxRow> | OutboxProblem {
  if (patch.cancel)
    return {
      status: "skipped",
      isPaused: false,
      skippedReason: "MANUALLY_CANCELLED",
      skippedDetails: {},
      secretVariables: null,
      nextSendRetryAt: null,
      updatedAt: now,
    };
  const set: Partial<NewOutboxRow> = { updatedAt: now };
  const content = patch.tsx_source !== undefined || patch.theme_id !== undefined || patch.variables !== undefined || patch.to !== undefined;
  if (content && row.builtInKind && (patch.tsx_source !== undefined || patch.variables !== undefined))
    return fail("outbox_request_invalid", {
      message: "A built-in email renders the project's template of its kind: edit that template instead.",
    });
  if (patch.tsx_source !== undefined) set.tsxSource = patch.tsx_source;
  if (patch.theme_id !== undefined) set.themeChoice = patch.theme_id;
  if (patch.variables !== undefined) set.variables = patch.variables;
  if (patch.to !== undefined) set.recipient = patch.to;
  const failed = row.status === "server-error" || row.status === "render-error";
  if (content || (failed && patch.scheduled_at_millis !== undefined)) {
    // New content, or a retry of a failed row: it renders and sends afresh.
    Object.assign(set, {
      renderError: null,
      renderedAt: null,
      startedRenderingAt: null,
      subject: null,
      html: null,
      text: null,
      renderFallbackError: null,
      startedSendingAt: null,
      finishedSendingAt: null,
      serverError: null,
      sendRetries: 0,
      nextSendRetryAt: null,
    } satisfies Partial<NewOutboxRow>);
    if (content) set.sendAttemptErrors = null;
  }
  if (patch.scheduled_at_millis !== undefined) set.scheduledAt = patch.scheduled_at_millis;
  const paused = patch.is_paused ?? row.status === "paused";
  set.isPaused = paused;
  const scheduledAt = set.scheduledAt ?? row.scheduledAt;
  if (paused) set.status = "paused";
  else if (row.status === "paused" || content || set.scheduledAt !== undefined) set.status = scheduledAt > now ? "scheduled" : "queued";
  return set;
}

export async function updateOutboxEmail(
  deps: Deps,
  project: ProjectRow,
  id: string,
  patch: EmailOutboxUpdateJson,
): Promise<{ ok: true; item: EmailOutboxItemJson } | OutboxProblem> {
  const row = await findOutboxRow(deps.db, project.id, id);
  if (!row) return fail("outbox_email_not_found");
  if (!EMAIL_OUTBOX_EDITABLE_STATUSES.includes(row.status as EmailOutboxStatus))
    return fail("outbox_email_not_editable", { emailId: id, status: row.status });
  const now = deps.now();
  const set = changesFor(row, patch, now);
  if ("ok" in set) return set;
  const updated = await updateOutboxRowFrom(deps.db, project.id, id, row.status, set);
  if (!updated) {
    // The consumer moved it meanwhile (e.g. it is being sent now).
    const current = await findOutboxRow(deps.db, project.id, id);
    return fail("outbox_email_not_editable", { emailId: id, status: current?.status ?? row.status });
  }
  if (updated.status === "queued") await enqueueOutbox(deps, [id]);
  else if (updated.status === "scheduled") await enqueueOutbox(deps, [id], (updated.scheduledAt - now) / 1000);
  return { ok: true, item: outboxItem(project, updated) };
}
