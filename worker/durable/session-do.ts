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
 *
 * It is also the session's mirror for a D1 outage (services/outage/session-mirror.ts has the
 * design): its storage keeps what a refresh needs ("session"), a sticky "revoked" mark, and what an
 * outage left for D1 ("pending"), which its alarm flushes with backoff. An object named
 * "token:<hash>" holds only "pointsTo", the session a refresh token belongs to.
 */
import { DurableObject } from "cloudflare:workers";
import type { AccessTokenClaims } from "../crypto/access-tokens";
import { sha256Hex } from "../crypto/hash";
import { createDb } from "../db/client";
import { insertEventIfChangedStatement, type NewEvent } from "../db/queries/events";
import type { ProjectRow } from "../db/queries/projects";
import { deleteSessionStatement, stampSessionUse } from "../db/queries/sessions";
import type { Env } from "../env";
import { type IpInfo, type RefreshStep, refreshSessionStep, revokeSession } from "../services/auth/sessions";
import { type CallerAudit, makeDeps } from "../services/deps";
import { isD1Failure, withD1Deadline } from "../services/outage/deadline";
import {
  applyRotation,
  applySnapshot,
  FLUSH_FIRST_DELAY_MS,
  type MirroredSession,
  type MirrorSnapshot,
  mayRefresh,
  nextFlushAt,
  type OutageRefreshCheck,
  type PendingFlush,
} from "../services/outage/mirror-store";
import { readCuts } from "../services/outage/revocation-cuts";

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
    const step = this.serialised(async () => {
      // Signed out here (maybe during a D1 outage whose delete has not reached D1 yet): nothing to refresh.
      if (await this.isRevoked()) return { ok: false } as const;
      const result = await refreshSessionStep(depsFor(this.env, call), call.project, call.refreshToken, call.ipInfo);
      // A rotation is mirrored here, where it happens: the claims did not change, the token did.
      if (result.ok && result.refreshToken) await this.mirrorRotation(await sha256Hex(result.refreshToken), call.nowMs ?? Date.now());
      return result;
    });
    this.pending.set(key, step);
    const clear = () => {
      if (this.pending.get(key) === step) this.pending.delete(key);
    };
    step.then(clear, clear);
    return step;
  }

  /**
   * Marks the session revoked here first (an outage refresh then fails at once), then deletes the
   * row in D1. If D1 fails or stalls and the session is mirrored, the delete (and its event) waits
   * for the alarm and the sign-out holds; without a mirror the D1 failure is the caller's.
   */
  async revoke(call: SessionCall & { sessionId: string; event?: NewEvent }): Promise<boolean> {
    const wasRevoked = (await this.ctx.storage.get<boolean>("revoked")) === true;
    await this.ctx.storage.put("revoked", true);
    return this.serialised(async () => {
      try {
        return await withD1Deadline(() => revokeSession(depsFor(this.env, call), call.projectId, call.sessionId, call.event));
      } catch (err) {
        if (!isD1Failure(err) || !(await this.ctx.storage.get<MirroredSession>("session"))) throw err;
        console.warn(`session ${call.sessionId}: revoked during a D1 outage (${String(err)}); D1 catches up from the alarm`);
        await this.addPending({ remove: { event: call.event } });
        return !wasRevoked;
      }
    });
  }

  /** Signed out or revoked through this object (a sign-out during a D1 outage waits here until D1 has it). */
  async isRevoked(): Promise<boolean> {
    return (await this.ctx.storage.get<boolean>("revoked")) === true;
  }

  /** A session D1 has already ended: refuse outage refreshes from now on. */
  async markRevoked(): Promise<void> {
    await this.ctx.storage.put("revoked", true);
  }

  /** Writes the session's mirror (a new session, or its claims changed) and points its token here. */
  async mirror(snapshot: MirrorSnapshot): Promise<void> {
    const stored = await this.ctx.storage.get<MirroredSession>("session");
    const next = applySnapshot(stored, snapshot, Date.now());
    await this.ctx.storage.put("session", next);
    if (stored?.tokenHash !== next.tokenHash) await this.pointToken(next.tokenHash, next.sessionId);
  }

  /** (A "token:<hash>" object) which session this refresh token belongs to. */
  async point(sessionId: string): Promise<void> {
    await this.ctx.storage.put("pointsTo", sessionId);
  }

  async pointsTo(): Promise<string | null> {
    return (await this.ctx.storage.get<string>("pointsTo")) ?? null;
  }

  /**
   * A refresh while D1 is away, answered from storage: the stored claims (the caller signs them
   * with a new exp), or not found. Null: nothing is mirrored here. The use is stamped for D1.
   */
  async refreshDuringOutage(
    check: Omit<OutageRefreshCheck, "cuts"> & { ipInfo: unknown },
  ): Promise<{ ok: true; claims: AccessTokenClaims } | { ok: false } | null> {
    const stored = await this.ctx.storage.get<MirroredSession>("session");
    if (!stored) return null;
    const revoked = stored.revoked || (await this.ctx.storage.get<boolean>("revoked")) === true;
    const cuts = await readCuts(this.env, stored.projectId, stored.userId);
    if (!mayRefresh({ ...stored, revoked }, { ...check, cuts })) return { ok: false };
    await this.ctx.storage.put("session", { ...stored, lastUsedAt: Math.max(stored.lastUsedAt, check.now) });
    await this.addPending({ stamp: { at: check.now, ipInfo: check.ipInfo } });
    return { ok: true, claims: stored.claims };
  }

  /** Flushes what an outage left (the delete of a revoked session, or the last-used stamp) to D1; retries with backoff. */
  async alarm(): Promise<void> {
    const pending = await this.ctx.storage.get<PendingFlush>("pending");
    const session = await this.ctx.storage.get<MirroredSession>("session");
    if (!pending || !session) return;
    try {
      const db = createDb(this.env.DB);
      if (pending.remove) {
        const event = pending.remove.event;
        await withD1Deadline(() =>
          db.batch([
            deleteSessionStatement(db, session.projectId, session.sessionId),
            ...(event ? [insertEventIfChangedStatement(db, event)] : []),
          ]),
        );
      } else if (pending.stamp) {
        const { at, ipInfo } = pending.stamp;
        await withD1Deadline(() => stampSessionUse(db, session.projectId, session.sessionId, at, ipInfo));
      }
    } catch (err) {
      const failed = { ...pending, attempts: pending.attempts + 1 };
      console.warn(`session ${session.sessionId}: D1 still unavailable for the flush (${String(err)}); retrying`);
      await this.ctx.storage.put("pending", failed);
      await this.ctx.storage.setAlarm(nextFlushAt(Date.now(), failed));
      return;
    }
    // Only what this flush wrote is cleared: a stamp added meanwhile waits for the next alarm.
    const now = await this.ctx.storage.get<PendingFlush>("pending");
    if (now && now.version !== pending.version) await this.ctx.storage.setAlarm(Date.now() + FLUSH_FIRST_DELAY_MS);
    else await this.ctx.storage.delete("pending");
  }

  private async addPending(change: Pick<PendingFlush, "stamp" | "remove">): Promise<void> {
    const pending = await this.ctx.storage.get<PendingFlush>("pending");
    const next: PendingFlush = {
      stamp: change.stamp ?? pending?.stamp,
      remove: change.remove ?? pending?.remove,
      attempts: pending?.attempts ?? 0,
      version: (pending?.version ?? 0) + 1,
    };
    await this.ctx.storage.put("pending", next);
    // A delete may bring the alarm forward (it retries sooner than a stamp), never push it back.
    const at = nextFlushAt(Date.now(), next);
    const scheduled = await this.ctx.storage.getAlarm();
    if (scheduled === null || scheduled > at) await this.ctx.storage.setAlarm(at);
  }

  private async mirrorRotation(newHash: string, now: number): Promise<void> {
    const stored = await this.ctx.storage.get<MirroredSession>("session");
    if (!stored || stored.tokenHash === newHash) return;
    await this.ctx.storage.put("session", applyRotation(stored, newHash, now));
    // Awaited (rotation is opt-in, not the hot path): the new token works during an outage from its first answer on.
    await this.pointToken(newHash, stored.sessionId).catch((err) => console.warn("token pointer not written", err));
  }

  private pointToken(tokenHash: string, sessionId: string): Promise<void> {
    const ns = this.env.SESSION_DO;
    return ns.get(ns.idFromName(`token:${tokenHash}`)).point(sessionId);
  }
}
