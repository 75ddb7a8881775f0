/**
 * SessionDO: one instance per session id. Serialises refresh and revoke of one session, so
 * two refreshes (or a refresh racing a sign-out) run one after the other. D1 calls are
 * outbound I/O, which does not hold a DO's input gate, hence the explicit queue below.
 */
import { DurableObject } from "cloudflare:workers";
import type { ProjectRow } from "../db/queries/projects";
import type { Env } from "../env";
import { makeDeps } from "../lib/context";
import { type IpInfo, type RefreshResult, refreshSession, revokeSession } from "../services/sessions";

export type SessionCall = { projectId: string; apiUrl: string; nowMs?: number };

export class SessionDO extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The caller passes the project it already loaded, saving the DO a query. */
  async refresh(call: SessionCall & { project: ProjectRow; refreshToken: string; ipInfo: IpInfo }): Promise<RefreshResult> {
    return this.serialised(async () => {
      const deps = makeDeps(this.env, { origin: call.apiUrl, nowMs: call.nowMs });
      return refreshSession(deps, call.project, call.refreshToken, call.ipInfo);
    });
  }

  async revoke(call: SessionCall & { sessionId: string }): Promise<boolean> {
    return this.serialised(async () => {
      const deps = makeDeps(this.env, { origin: call.apiUrl, nowMs: call.nowMs });
      return revokeSession(deps, call.projectId, call.sessionId);
    });
  }
}
