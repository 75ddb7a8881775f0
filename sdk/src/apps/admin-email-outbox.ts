/**
 * The admin app's email outbox calls (issue 24), as the reference's StackAdminApp has them: list
 * (newest first, by cursor), get, and update (pause, unpause, cancel, reschedule, re-render), plus
 * Doorman's `retry` of a failed email. Every email is an outbox row first; a queue sends it and
 * retries temporary failures. The wire contract is sdk/src/shared/wire-email-outbox.ts.
 */
import type {
  EmailOutboxAttemptError,
  EmailOutboxItemJson,
  EmailOutboxListJson,
  EmailOutboxRecipient,
  EmailOutboxSimpleStatus,
  EmailOutboxStatus,
} from "../shared/wire-email-outbox";
import { defined, snakeKeys, toCamelKey } from "./case";

type Request = <T>(path: string, options?: { method?: string; body?: unknown }) => Promise<T>;

export type AdminEmailOutboxStatus = EmailOutboxStatus;
export type AdminEmailOutboxSimpleStatus = EmailOutboxSimpleStatus;

export type AdminEmailOutboxRecipient =
  | { type: "user-primary-email"; userId: string }
  | { type: "user-custom-emails"; userId: string; emails: string[] }
  | { type: "custom-emails"; emails: string[] };

/** One failed send attempt: `externalMessage` is safe to show; `internalMessage` is the SMTP server's own words. */
export type AdminSendAttemptError = {
  attemptNumber: number;
  /** ISO 8601. */
  timestamp: string;
  externalMessage: string;
  externalDetails: Record<string, unknown>;
  internalMessage: string;
  internalDetails: Record<string, unknown>;
};

/**
 * One outbox email. The fields after `hasDelivered` exist only in some states, as the reference's
 * per-status types: rendered (`subject`, `html`, …), sending (`startedSendingAt`), sent
 * (`deliveredAt`), failed (`renderError` or `serverError`, `errorAt`), skipped (`skippedReason`, …).
 */
export type AdminEmailOutbox = {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  tsxSource: string;
  themeId: string | null;
  to: AdminEmailOutboxRecipient;
  variables: Record<string, unknown>;
  skipDeliverabilityCheck: boolean;
  scheduledAt: Date;
  createdWith: "draft" | "programmatic-call";
  emailDraftId: string | null;
  emailProgrammaticCallTemplateId: string | null;
  /** Failed attempts so far (temporary failures are retried with backoff). */
  sendRetries: number;
  nextSendRetryAt: Date | null;
  sendAttemptErrors: AdminSendAttemptError[] | null;
  status: AdminEmailOutboxStatus;
  simpleStatus: AdminEmailOutboxSimpleStatus;
  isPaused: boolean;
  hasRendered: boolean;
  hasDelivered: boolean;
  startedRenderingAt?: Date;
  renderedAt?: Date;
  subject?: string;
  /** Codes and secret links redacted, as in the email log. */
  html?: string | null;
  text?: string | null;
  isTransactional?: boolean;
  isHighPriority?: boolean;
  notificationCategoryId?: string | null;
  renderError?: string;
  startedSendingAt?: Date;
  deliveredAt?: Date;
  canHaveDeliveryInfo?: boolean;
  errorAt?: Date;
  serverError?: string;
  skippedAt?: Date;
  /** MANUALLY_CANCELLED, USER_ACCOUNT_DELETED, USER_HAS_NO_PRIMARY_EMAIL, USER_UNSUBSCRIBED or NO_EMAIL_PROVIDED. */
  skippedReason?: string;
  skippedDetails?: Record<string, unknown>;
  /** Doorman: the project's template failed and the built-in one was sent instead (why, for the owner). */
  renderFallbackError?: string | null;
};

export type EmailOutboxListOptions = {
  status?: AdminEmailOutboxStatus;
  simpleStatus?: AdminEmailOutboxSimpleStatus;
  /** 1..100 (default 100). */
  limit?: number;
  cursor?: string;
};

export type EmailOutboxListResult = { items: AdminEmailOutbox[]; nextCursor: string | null };

/** What `updateOutboxEmail` can change; changing what is rendered (source, theme, recipient, variables) renders it again. */
export type EmailOutboxUpdateOptions = {
  tsxSource?: string;
  themeId?: string | null;
  to?: AdminEmailOutboxRecipient;
  variables?: Record<string, unknown>;
  skipDeliverabilityCheck?: boolean;
  scheduledAt?: Date;
  /** The reference's name for `scheduledAt` (milliseconds since the epoch). */
  scheduledAtMillis?: number;
  isPaused?: boolean;
  /** Cancels the email: it becomes `skipped` (MANUALLY_CANCELLED). */
  cancel?: true;
};

/** Top-level keys to camelCase; `…_at_millis` becomes a Date named `…At` (values such as `variables` are left alone). */
const fromWire = (json: object) =>
  Object.fromEntries(
    Object.entries(json).map(([k, v]) =>
      k.endsWith("_at_millis") ? [toCamelKey(k.slice(0, -7)), v === null ? null : new Date(v as number)] : [toCamelKey(k), v],
    ),
  );

/** The camelCase outbox email of a wire item. */
export function outboxEmailFromJson(json: EmailOutboxItemJson): AdminEmailOutbox {
  return {
    ...fromWire(json),
    to: fromWire(json.to as EmailOutboxRecipient),
    sendAttemptErrors: json.send_attempt_errors?.map((e: EmailOutboxAttemptError) => fromWire(e)) ?? null,
  } as AdminEmailOutbox;
}

const path = (id: string) => `/emails/outbox/${encodeURIComponent(id)}`;

export async function listOutboxEmails(request: Request, options: EmailOutboxListOptions = {}): Promise<EmailOutboxListResult> {
  // limit becomes a string in the query.
  const q = new URLSearchParams(snakeKeys<Record<string, string>>(defined(options)));
  const page = await request<EmailOutboxListJson>(`/emails/outbox${q.size ? `?${q}` : ""}`);
  return { items: page.items.map(outboxEmailFromJson), nextCursor: page.pagination.next_cursor };
}

export async function getOutboxEmail(request: Request, id: string): Promise<AdminEmailOutbox> {
  return outboxEmailFromJson(await request<EmailOutboxItemJson>(path(id)));
}

export async function updateOutboxEmail(request: Request, id: string, o: EmailOutboxUpdateOptions): Promise<AdminEmailOutbox> {
  // `variables` are the caller's own keys: sent as given, not snake_cased.
  const { variables, scheduledAt, ...rest } = o;
  const body = { ...snakeKeys(rest), variables, scheduled_at_millis: scheduledAt?.getTime() ?? o.scheduledAtMillis };
  return outboxEmailFromJson(await request<EmailOutboxItemJson>(path(id), { method: "PATCH", body }));
}
