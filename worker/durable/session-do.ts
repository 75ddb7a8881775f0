/**
 * SessionDO: one instance per session id. Serialises the state changes of one session (refresh
 * stamps or rotations, and revoke), so a refresh racing a sign-out runs before or after it, never
 * in between.
 *
 * Why it stays small: D1 calls are outbound I/O, which does not hold a DO's input gate, so every
 * request is admitted at once and waits in the explicit queue below. It once held the whole
 * refresh (state change, user record, ES256 signing) for every caller, so 100 concurrent
 * refreshes of one token queued ~6 D1 round trips plus a signature each behind one another in
 * one object: calls waited for seconds, an overloaded object is reset by the runtime, and every
 * queued call (a sign-out among them) failed with it. Now:
 * - only the compare-and-set step runs in the queue; the access token is minted by the caller;
 * - concurrent refreshes of the same token share one queued step (they would all do the same
 *   thing), so the queue holds at most one entry per distinct token plus the revokes;
 * - a call never rejects from the queue's own bookkeeping, and nothing runs in blockConcurrencyWhile.
 * The gateway (services/auth/session-gateway.ts) still retries, then falls back to D1 compare-and-set,
 * if the object is unavailable.
 */
import { DurableObject } from "cloudflare:workers";
import { sha256Hex } from "../crypto/hash";
import type { NewEvent } from "../db/queries/events";
import type { ProjectRow } from "../db/queries/projects";
import type { Env } from "../env";
import { type IpInfo, type RefreshStep, refreshSessionStep, revokeSession } from "../services/auth/sessions";
import { type CallerAudit, makeDeps } from "../services/deps";

/** The caller's clock, origin and (for the event log) who acts from where. */
export type SessionCall = { projectId: string; apiUrl: string; nowMs?: number; audit: CallerAudit };

function depsFor(env: Env, call: SessionCall) {
  const deps = makeDeps(env, { origin: call.apiUrl, nowMs: call.nowMs });
  Object.assign(deps.audit, call.audit);
  return deps;
}

export class SessionDO extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();
  /** Queued or running refresh steps, by token hash: later callers join instead of queueing again. */
  private pending = new Map<string, Promise<RefreshStep>>();

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** The serialised state change of a refresh; the caller mints the access token (finishRefresh). */
  async refreshStep(call: SessionCall & { project: ProjectRow; refreshToken: string; ipInfo: IpInfo }): Promise<RefreshStep> {
    // Joining is linearisable: a joined step is still queued or running, so it is ordered with
    // any sign-out exactly as this call would be. The first caller's clock and address are stamped.
    const key = `${call.projectId}:${await sha256Hex(call.refreshToken)}`;
    const joined = this.pending.get(key);
    if (joined) return joined;
    const step = this.serialised(() => refreshSessionStep(depsFor(this.env, call), call.project, call.refreshToken, call.ipInfo));
    this.pending.set(key, step);
    const clear = () => {
      if (this.pending.get(key) === step) this.pending.delete(key);
    };
    step.then(clear, clear);
    return step;
  }

  async revoke(call: SessionCall & { sessionId: string; event?: NewEvent }): Promise<boolean> {
    return this.serialised(() => revokeSession(depsFor(this.env, call), call.projectId, call.sessionId, call.event));
  }
}
