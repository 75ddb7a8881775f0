/**
 * The D1 deadline of the paths that survive an outage (refresh, request authentication): the D1
 * step races a timer, and a D1 error or a stall past the deadline both become a D1Unavailable,
 * after which the caller uses its fallback (services/outage/README in session-mirror.ts).
 */
import { KnownError } from "@doorman/shared/known-errors";
import { StatusError } from "../../lib/errors";

/**
 * Why 2 s: a healthy D1 batch answers in well under 100 ms even from a far region, and D1's own
 * retries of a lost connection take about a second; past 2 s the database is degraded, and an SDK
 * that waits longer than a few seconds for a refresh shows its user a spinner (Clerk's 2026
 * outages were slow answers first, errors later). The stalled call goes on in the background.
 */
export const D1_DEADLINE_MS = 2_000;

/** D1 failed or did not answer within the deadline. */
export class D1Unavailable extends Error {
  constructor(readonly cause: unknown) {
    super(`D1 unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * A failure of the D1 step itself, not an answer of the service: a known error or a status the
 * code meant to send is never an outage (it is rethrown as is).
 */
export function isD1Failure(err: unknown): boolean {
  if (err instanceof D1Unavailable) return true;
  return !(err instanceof KnownError) && !(err instanceof StatusError);
}

/** `work()` within D1_DEADLINE_MS; its rejection or the deadline becomes D1Unavailable. */
export async function withD1Deadline<T>(work: () => Promise<T>, deadlineMs = D1_DEADLINE_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new D1Unavailable(`no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    return await Promise.race([work(), deadline]);
  } catch (err) {
    throw isD1Failure(err) && !(err instanceof D1Unavailable) ? new D1Unavailable(err) : err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What this isolate and this request know of the outage. A request whose auth lookup already found
 * D1 away does not wait for the deadline again in its refresh (a stalled D1 would cost it twice).
 * The isolate remembers when it last saw D1 away: for POST_OUTAGE_CHECK_MS after that, a refresh D1
 * answered also asks the session's object whether it was signed out during the outage (its delete
 * may not have reached D1 yet). Isolates that saw no outage never pay that call.
 */
const downInRequest = new WeakSet<object>();
let lastSeenDownAt = Number.NEGATIVE_INFINITY;

/** Why 5 minutes: the objects retry a pending delete at most 30 s apart, so D1 is caught up well within it. */
export const POST_OUTAGE_CHECK_MS = 5 * 60_000;

export function noteD1Down(deps: { now(): number }): void {
  downInRequest.add(deps);
  lastSeenDownAt = deps.now();
}

export function d1DownInThisRequest(deps: object): boolean {
  return downInRequest.has(deps);
}

export function recentlySawD1Down(deps: { now(): number }): boolean {
  return deps.now() - lastSeenDownAt < POST_OUTAGE_CHECK_MS;
}

/** The known 503 a request gets when it needs D1 and no fallback can answer it. */
export function databaseUnavailable(): KnownError {
  return new KnownError("DATABASE_TEMPORARILY_UNAVAILABLE");
}

/**
 * An error D1 raises when it is away or overloaded (not a query D1 refused as wrong: D1_TYPE_ERROR
 * and constraint failures stay 500s and 4xx where the code maps them), or our own deadline.
 */
export function isD1OutageError(err: unknown): boolean {
  if (err instanceof D1Unavailable) return true;
  const message = err instanceof Error ? `${err.message} ${err.cause instanceof Error ? err.cause.message : ""}` : "";
  if (/constraint|D1_TYPE_ERROR|syntax error|no such (table|column)/i.test(message)) return false;
  return /D1_ERROR|D1 DB|D1_EXEC_ERROR|D1 unavailable|network connection lost|overloaded|storage operation/i.test(message);
}
