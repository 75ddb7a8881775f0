/**
 * The email pipeline's health for an operator's monitor (POST /health/email): the reference signs a
 * user up and waits for the verification email; Doorman checks what that proves without sending
 * anything: that the outbox is draining. An email still queued five minutes after it was due (the
 * consumer keeps up in seconds, the sweep re-enqueues lost messages every ten minutes) means the
 * queue or its consumer is stuck. One indexed count, no outbound call.
 */
import { countOverdueOutboxRows } from "../../db/queries/email-outbox";
import type { Deps } from "../deps";

/** How long after it was due a queued email counts as stuck. */
export const OVERDUE_MS = 5 * 60_000;

export type EmailHealth = { ok: true } | { ok: false; overdue: number };

export async function checkEmailHealth(deps: Deps): Promise<EmailHealth> {
  const overdue = await countOverdueOutboxRows(deps.db, deps.now() - OVERDUE_MS);
  return overdue === 0 ? { ok: true } : { ok: false, overdue };
}
