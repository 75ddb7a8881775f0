/**
 * Putting emails in the outbox (issue 24): every email Doorman sends is first an `email_outbox` row,
 * written with its cause (the caller puts the statement in its own D1 batch), then a message on the
 * EMAIL_QUEUE names it; the consumer (outbox-consumer.ts) renders and sends it. The request that
 * caused it answers at once: no end-user request renders or talks to a mail server.
 * If the enqueue is lost (a crash after the commit), the cron sweep finds the row (sweepOutbox).
 */

import type { EmailOutboxRecipient } from "@doorman/shared/wire-email-outbox";
import type { BatchItem } from "drizzle-orm/batch";
import { insertOutboxStatement, type NewOutboxRow } from "../../db/queries/email-outbox";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { sealConfigValue } from "../project-config/secrets";
import type { IssuedCode } from "../verification-codes";
import { type EmailLocale, pickEmailLocale } from "./locale";
import { REDACTED } from "./redact";
import { secretValuesOf, type TemplateKind, type TemplateVars } from "./templates";

export type OutboxMessage = { kind: "outbox"; id: string };

export function isOutboxMessage(body: unknown): body is OutboxMessage {
  return typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "outbox";
}

/** Queues allow at most 12 h of delay per message; a later time is picked up by the sweep. */
const MAX_DELAY_SECONDS = 12 * 3600;
/** sendBatch takes at most 100 messages. */
const BATCH = 100;

/** Names rows to the consumer, after their batch committed. `delaySeconds` for retries and scheduled sends. */
export async function enqueueOutbox(deps: Deps, ids: string[], delaySeconds = 0): Promise<void> {
  const delay = Math.min(Math.max(0, Math.ceil(delaySeconds)), MAX_DELAY_SECONDS);
  for (let i = 0; i < ids.length; i += BATCH) {
    const chunk = ids.slice(i, i + BATCH).map((id) => ({ body: { kind: "outbox", id } satisfies OutboxMessage, delaySeconds: delay }));
    await deps.env.EMAIL_QUEUE.sendBatch(chunk);
  }
}

/** The wire's variables of a built-in email: secret values (the code link, the OTP) shown as "[redacted]". */
function publicVariables(vars: TemplateVars): Record<string, unknown> {
  const secrets = new Set(secretValuesOf(vars));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined) continue;
    const secret = typeof value === "string" && [...secrets].some((s) => value.includes(s));
    out[key] = secret ? REDACTED : value;
  }
  return out;
}

function baseRow(deps: Deps, projectId: string, recipient: EmailOutboxRecipient) {
  const now = deps.now();
  return {
    id: deps.random.uuid(),
    projectId,
    createdAt: now,
    updatedAt: now,
    recipient,
    apiUrl: deps.apiUrl,
    status: "queued",
    isPaused: false,
    scheduledAt: now,
    sendRetries: 0,
  } satisfies Partial<NewOutboxRow>;
}

/**
 * Which locale a built-in email is written in: `"request"` (the default) takes the best supported
 * language of the request that causes it (its Accept-Language, services/email/locale.ts); `null`
 * leaves it to the project's default email locale, for emails the request's sender is not the reader
 * of (a lockout notice caused by someone typing wrong passwords, a payment email caused by Stripe).
 */
export type BuiltInLocale = "request" | EmailLocale | null;

/**
 * A built-in email (verification, reset, sign-in code, invitation, notice) as an outbox row. Its
 * variables are sealed: they carry the emailed code until the email is sent.
 */
export async function builtInOutboxRow(
  deps: Deps,
  project: ProjectRow,
  kind: TemplateKind,
  recipient: EmailOutboxRecipient,
  vars: TemplateVars,
  locale: BuiltInLocale = "request",
): Promise<NewOutboxRow> {
  return {
    ...baseRow(deps, project.id, recipient),
    createdWith: "programmatic-call",
    builtInKind: kind,
    locale: locale === "request" ? pickEmailLocale(deps.audit.acceptLanguage) : locale,
    variables: publicVariables(vars),
    // Why: the variables hold a live sign-in/verification code until the mail has left; D1 access must not hand it out.
    secretVariables: await sealConfigValue(deps, JSON.stringify(vars)),
  };
}

/** A built-in email's row as a statement for the cause's batch; `enqueue` after that batch committed. */
export async function builtInEmailStatement(
  deps: Deps,
  project: ProjectRow,
  kind: TemplateKind,
  recipient: EmailOutboxRecipient,
  vars: TemplateVars,
  locale: BuiltInLocale = "request",
): Promise<{ id: string; statement: BatchItem<"sqlite">; enqueue: () => Promise<void> }> {
  const row = await builtInOutboxRow(deps, project, kind, recipient, vars, locale);
  return { id: row.id, statement: insertOutboxStatement(deps.db, row), enqueue: () => enqueueOutbox(deps, [row.id]) };
}

/** A built-in email with no other write to join: its row alone, then the enqueue. Returns the row id. */
export async function queueBuiltInEmail(
  deps: Deps,
  project: ProjectRow,
  kind: TemplateKind,
  recipient: EmailOutboxRecipient,
  vars: TemplateVars,
  locale: BuiltInLocale = "request",
): Promise<string> {
  const queued = await builtInEmailStatement(deps, project, kind, recipient, vars, locale);
  await queued.statement;
  await queued.enqueue();
  return queued.id;
}

/**
 * The email that carries a code, for issueCode's `alongside`: its outbox row joins the code's
 * batch (both or neither), and `enqueue` names it to the consumer once that batch committed.
 */
export function emailCarryingCode(
  deps: Deps,
  project: ProjectRow,
  kind: TemplateKind,
  recipient: EmailOutboxRecipient,
  varsOf: (issued: IssuedCode) => TemplateVars,
) {
  let queued: { id: string; enqueue: () => Promise<void> } | null = null;
  return {
    alongside: async (issued: IssuedCode): Promise<BatchItem<"sqlite">[]> => {
      const q = await builtInEmailStatement(deps, project, kind, recipient, varsOf(issued));
      queued = q;
      return [q.statement];
    },
    enqueue: async (): Promise<string | null> => {
      if (!queued) return null;
      await queued.enqueue();
      return queued.id;
    },
  };
}
