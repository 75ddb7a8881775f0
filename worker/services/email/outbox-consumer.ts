/**
 * The email queue's consumer for outbox rows (issue 24). One message names one row; the consumer
 * claims it (compare-and-set, so a message seen twice sends once), finds who it goes to, renders it
 * (built-in emails on the cheap path, in the row's locale or the project's default; owners' TSX in the
 * sandbox) and makes one delivery attempt.
 * - sent: done; its sealed variables are dropped.
 * - a temporary failure (4xx, timeout, dropped connection): back to queued with backoff
 *   (EMAIL_RETRY_BASE_SECONDS × 2^attempt, ±50%), at most MAX_SEND_ATTEMPTS attempts, then server-error;
 * - a permanent failure (5xx): server-error at once;
 * - a render failure: render-error (owners' sends). A built-in email whose project template fails is
 *   sent with the built-in template instead, and the failure is kept on the row.
 */
import type { EmailOutboxAttemptError, EmailOutboxRecipient } from "@doorman/shared/wire-email-outbox";
import { advanceOutboxRow, claimOutboxRow, listStrandedOutboxRows, type NewOutboxRow, type OutboxRow } from "../../db/queries/email-outbox";
import { findProjectById, type ProjectRow } from "../../db/queries/projects";
import { findUserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { openConfigSecret } from "../project-config/secrets";
import { renderBuiltInEmail } from "./built-in";
import { attemptDelivery } from "./delivery";
import { isEmailLocale } from "./locale";
import { enqueueOutbox } from "./outbox";
import { redactEmail } from "./redact";
import { hasTurnedOff, renderSendRow } from "./sending";
import type { RenderedEmail, TemplateKind, TemplateVars } from "./templates";

/** The reference's MAX_SEND_ATTEMPTS. */
export const MAX_SEND_ATTEMPTS = 5;

export type OutboxOutcome = "not_claimed" | "skipped" | "render_error" | "sent" | "retry" | "failed";

/** Why a row has no recipient now: the outbox's skipped reason (not a problem: the row is skipped, nothing answers). */
type RecipientSkip = "NO_EMAIL_PROVIDED" | "USER_ACCOUNT_DELETED" | "USER_HAS_NO_PRIMARY_EMAIL";
type Resolved = { ok: true; emails: string[]; userId: string | null; displayName: string | null } | { ok: false; skip: RecipientSkip };

/** Who a row goes to now: a user's primary email as it is at send time, or the addresses it names. */
async function resolveRecipient(deps: Deps, projectId: string, to: EmailOutboxRecipient): Promise<Resolved> {
  if (to.type === "custom-emails")
    return to.emails.length ? { ok: true, emails: to.emails, userId: null, displayName: null } : { ok: false, skip: "NO_EMAIL_PROVIDED" };
  const record = await findUserRecord(deps.db, projectId, to.user_id);
  if (!record) return { ok: false, skip: "USER_ACCOUNT_DELETED" };
  if (to.type === "user-custom-emails") return { ok: true, emails: to.emails, userId: to.user_id, displayName: record.user.displayName };
  const email = record.primaryEmail?.value;
  if (!email) return { ok: false, skip: "USER_HAS_NO_PRIMARY_EMAIL" };
  return { ok: true, emails: [email], userId: to.user_id, displayName: record.user.displayName };
}

/** The first retry waits the base delay; each next one doubles it, with ±50% jitter so a burst does not retry in step. */
export function retryDelaySeconds(baseSeconds: number, attempt: number, random = Math.random()): number {
  return Math.max(1, Math.round(baseSeconds * 2 ** (attempt - 1) * (0.5 + random)));
}

type Rendered = { ok: true; message: RenderedEmail; isTransactional: boolean; categoryId: string | null; fallbackError: string | null };
type RenderOutcome = Rendered | { ok: false; error: string };

async function renderRow(
  deps: Deps,
  project: ProjectRow,
  row: OutboxRow,
  displayName: string | null,
  userId: string | null,
): Promise<RenderOutcome> {
  if (row.builtInKind) {
    const sealed = row.secretVariables ? await openConfigSecret(deps, row.secretVariables) : null;
    const vars: TemplateVars = sealed ? (JSON.parse(sealed) as TemplateVars) : ((row.variables ?? {}) as TemplateVars);
    const message = await renderBuiltInEmail(
      deps,
      project,
      row.builtInKind as TemplateKind,
      { ...vars, userDisplayName: vars.userDisplayName ?? displayName },
      isEmailLocale(row.locale) ? row.locale : null,
    );
    return { ok: true, message, isTransactional: true, categoryId: null, fallbackError: message.fallbackError ?? null };
  }
  const result = await renderSendRow(deps, project, row, { userId, displayName });
  if (!result.ok) return result;
  return { ok: true, message: result.message, isTransactional: result.isTransactional, categoryId: result.categoryId, fallbackError: null };
}

/** One outbox message: claim, resolve, render, attempt, and record what happened. */
export async function processOutboxEmail(deps: Deps, id: string): Promise<OutboxOutcome> {
  const row = await claimOutboxRow(deps.db, id, deps.now());
  if (!row) return "not_claimed";
  const project = await findProjectById(deps.db, row.projectId);
  if (!project) return "not_claimed"; // the project is gone, and its rows with it
  const now = () => deps.now();

  const recipient = row.recipient as EmailOutboxRecipient;
  const to = await resolveRecipient(deps, project.id, recipient);
  // As the reference, the email is rendered before the recipient is checked, so a skipped email keeps
  // its rendered copy (its subject shows in the outbox).
  const userId = to.ok ? to.userId : "user_id" in recipient ? recipient.user_id : null;
  const rendered = await renderRow(deps, project, row, to.ok ? to.displayName : null, userId);
  if (!rendered.ok) {
    await advanceOutboxRow(deps.db, row.id, "rendering", {
      status: "render-error",
      renderError: rendered.error,
      renderedAt: now(),
      updatedAt: now(),
    });
    return "render_error";
  }
  // Rendering may take a while: the recipient and their choice are read again just before sending, so a
  // user deleted, left without a primary email, or unsubscribed meanwhile is skipped, not sent to.
  const current = await resolveRecipient(deps, project.id, recipient);
  if (!current.ok) return skip(deps, row, current.skip, rendered);
  if (current.userId && rendered.categoryId && (await hasTurnedOff(deps, project.id, current.userId, rendered.categoryId)))
    return skip(deps, row, "USER_UNSUBSCRIBED", rendered);
  const logged = redactEmail(rendered.message);
  const sendingAt = now();
  const moved = await advanceOutboxRow(deps.db, row.id, "rendering", {
    status: "sending",
    renderedAt: sendingAt,
    subject: logged.subject,
    html: logged.html,
    text: logged.text,
    isTransactional: rendered.isTransactional,
    notificationCategoryId: rendered.categoryId,
    renderFallbackError: rendered.fallbackError,
    startedSendingAt: sendingAt,
    updatedAt: sendingAt,
  });
  // An owner paused or cancelled it meanwhile (PATCH moves a rendering row too): nothing is sent.
  if (!moved) return "not_claimed";

  const outcome = await attemptDelivery(deps, project, current.emails, rendered.message, { id: row.id });
  const at = now();
  if (outcome.ok) {
    await advanceOutboxRow(deps.db, row.id, "sending", { status: "sent", finishedSendingAt: at, secretVariables: null, updatedAt: at });
    return "sent";
  }
  const attempt = row.sendRetries + 1;
  const error: EmailOutboxAttemptError = {
    attempt_number: attempt,
    timestamp: new Date(at).toISOString(),
    external_message: outcome.message,
    external_details: {},
    internal_message: outcome.message,
    internal_details: { stage: outcome.stage, smtp_code: outcome.code, temporary: outcome.temporary },
  };
  const errors = [...((row.sendAttemptErrors as EmailOutboxAttemptError[] | null) ?? []), error];
  if (outcome.temporary && attempt < MAX_SEND_ATTEMPTS) {
    const delay = retryDelaySeconds(deps.config.emailRetryBaseSeconds, attempt);
    const set: Partial<NewOutboxRow> = {
      status: "queued",
      sendRetries: attempt,
      nextSendRetryAt: at + delay * 1000,
      sendAttemptErrors: errors,
      updatedAt: at,
    };
    if (await advanceOutboxRow(deps.db, row.id, "sending", set)) await enqueueOutbox(deps, [row.id], delay);
    return "retry";
  }
  await advanceOutboxRow(deps.db, row.id, "sending", {
    status: "server-error",
    serverError: outcome.temporary ? `Gave up after ${attempt} attempts: ${outcome.message}` : outcome.message,
    sendRetries: attempt,
    sendAttemptErrors: errors,
    finishedSendingAt: at,
    updatedAt: at,
  });
  return "failed";
}

/** Ends a row as skipped, keeping its rendered copy (codes and links redacted). */
async function skip(deps: Deps, row: OutboxRow, reason: string, rendered: Rendered): Promise<OutboxOutcome> {
  const at = deps.now();
  const logged = redactEmail(rendered.message);
  await advanceOutboxRow(deps.db, row.id, "rendering", {
    status: "skipped",
    skippedReason: reason,
    skippedDetails: {},
    secretVariables: null,
    renderedAt: at,
    subject: logged.subject,
    html: logged.html,
    text: logged.text,
    isTransactional: rendered.isTransactional,
    notificationCategoryId: rendered.categoryId,
    updatedAt: at,
  });
  return "skipped";
}

/** A queued row not picked up this long after it was due lost its message: the sweep enqueues it again. */
const STALE_MS = 2 * 60_000;
/** A row mid-render or mid-send this long was left by a crashed consumer. */
const STUCK_MS = 10 * 60_000;

/**
 * The cron's sweep (every 10 minutes): re-enqueues due rows whose message was lost, puts rows left
 * mid-render back in the queue, and ends rows left mid-send as server-error: the mail server may have
 * accepted that message, so it is not sent again on its own (the reference does the same); the owner
 * can retry it from the console.
 */
export async function sweepOutbox(deps: Deps): Promise<{ requeued: number; interrupted: number }> {
  const now = deps.now();
  const rows = await listStrandedOutboxRows(deps.db, now, STALE_MS, now - STUCK_MS, 500);
  const requeue: string[] = [];
  let interrupted = 0;
  for (const row of rows) {
    if (row.status === "sending") {
      const message = "The send was interrupted; it is not retried on its own, because the mail server may have accepted it.";
      if (
        await advanceOutboxRow(deps.db, row.id, "sending", {
          status: "server-error",
          serverError: message,
          finishedSendingAt: now,
          updatedAt: now,
        })
      )
        interrupted++;
    } else if (row.status === "rendering") {
      if (await advanceOutboxRow(deps.db, row.id, "rendering", { status: "queued", updatedAt: now })) requeue.push(row.id);
    } else {
      await advanceOutboxRow(deps.db, row.id, row.status, { updatedAt: now });
      requeue.push(row.id);
    }
  }
  await enqueueOutbox(deps, requeue);
  return { requeued: requeue.length, interrupted };
}
