/**
 * A D1 binding that fails on demand (issue 32, sessions that survive a D1 outage): wraps the real
 * D1 and, per `mode`, runs statements ("ok"), rejects them as D1 does when its database is away
 * ("error"), or never answers ("stall": the caller's deadline must end the wait). The mode is read
 * when a statement runs, so statements prepared once per isolate fail too. Pass `faultyEnv(fault)`
 * as the env of worker.fetch (call's `env` option): the Durable Objects keep their own (real) D1.
 */
import { env } from "cloudflare:test";

export type FaultMode = "ok" | "error" | "stall";

export type D1Fault = {
  db: D1Database;
  mode: FaultMode;
  /** Statements that reached D1 while the mode was not "ok" (refused or stalled). */
  refused: number;
};

const INJECTED = "D1_ERROR: Network connection lost. (injected by test/helpers/d1-fault.ts)";

export function d1Fault(inner: D1Database = env.DB): D1Fault {
  const fault: D1Fault = { db: undefined as unknown as D1Database, mode: "ok", refused: 0 };
  const innerOf = new WeakMap<object, D1PreparedStatement>();
  // Runs `run` unless the database is "away"; a stall is a promise that never settles.
  const gate = <T>(run: () => Promise<T>): Promise<T> => {
    if (fault.mode === "ok") return run();
    fault.refused++;
    if (fault.mode === "stall") return new Promise<T>(() => {});
    return Promise.reject(new Error(INJECTED));
  };
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values)),
      first: (column?: string) => gate(() => (column === undefined ? stmt.first() : stmt.first(column))),
      all: () => gate(() => stmt.all()),
      run: () => gate(() => stmt.run()),
      raw: (options?: { columnNames?: boolean }) => gate(() => stmt.raw(options as never)),
    } as unknown as D1PreparedStatement;
    innerOf.set(wrapped, stmt);
    return wrapped;
  };
  fault.db = {
    prepare: (query: string) => wrap(inner.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => gate(() => inner.batch(statements.map((s) => innerOf.get(s) ?? s))),
    exec: (query: string) => gate(() => inner.exec(query)),
    withSession: () => fault.db,
    dump: () => gate(() => inner.dump()),
  } as unknown as D1Database;
  return fault;
}

/** The test env with the faulty D1 as DB (every other binding is the real one). */
export function faultyEnv(fault: D1Fault): typeof env {
  return { ...env, DB: fault.db };
}
