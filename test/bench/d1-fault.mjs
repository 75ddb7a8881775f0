// A D1 that fails on demand, for test/bench/outage.mjs (issue 32, sessions that survive a D1 outage): the
// wrapped-binding module of startMiniflareWorker({ wrapDb }) (test/bench/lib/miniflare.mjs). One ES module, no
// imports. Its default export gets the wrapper's bindings: INNER (the real local D1) and FAULT_FLAGS (KV); the
// bench writes FAULT_FLAGS "d1" = "ok" | "error" | "stall". A statement fails when it RUNS (prepared ones too):
// "error" rejects as D1 does when its database is away, "stall" never answers (the worker's deadline ends the
// wait). The worker and its Durable Objects share this DB, so the objects' flush alarms see the outage too.
// The flag is read from KV at most every FLAG_RECHECK_MS per isolate: not a KV read per statement.

const FLAG_RECHECK_MS = 100;
const INJECTED = "D1_ERROR: Network connection lost. (injected by test/bench/d1-fault.mjs)";

export default function wrap(env) {
  const inner = env.INNER;
  let mode = "ok";
  let checkedAt = 0;
  let checking = null;
  async function currentMode() {
    if (Date.now() - checkedAt < FLAG_RECHECK_MS) return mode;
    checking ??= env.FAULT_FLAGS.get("d1").then(
      (value) => {
        mode = value ?? "ok";
        checkedAt = Date.now();
        checking = null;
        return mode;
      },
      () => {
        checking = null;
        return mode;
      },
    );
    return checking;
  }
  async function gate(run) {
    const now = await currentMode();
    if (now === "stall") return new Promise(() => {});
    if (now === "error") throw new Error(INJECTED);
    return run();
  }
  const innerOf = new WeakMap();
  function wrapStatement(stmt) {
    const wrapped = {
      bind: (...values) => wrapStatement(stmt.bind(...values)),
      first: (column) => gate(() => (column === undefined ? stmt.first() : stmt.first(column))),
      all: () => gate(() => stmt.all()),
      run: () => gate(() => stmt.run()),
      raw: (options) => gate(() => stmt.raw(options)),
    };
    innerOf.set(wrapped, stmt);
    return wrapped;
  }
  const db = {
    prepare: (sql) => wrapStatement(inner.prepare(sql)),
    batch: (statements) => gate(() => inner.batch(statements.map((s) => innerOf.get(s) ?? s))),
    exec: (sql) => gate(() => inner.exec(sql)),
    withSession: () => db,
    dump: () => gate(() => inner.dump()),
  };
  return db;
}
