// The smallest D1 wrapper for startMiniflareWorker({ wrapDb }) (test/bench/lib/miniflare.mjs): every call goes
// to the real D1 (env.INNER) unchanged. A wrapped-binding module must be one ES module with no imports; its
// default export gets the wrapper worker's bindings (INNER, FAULT_FLAGS) and returns what the API sees as DB.
// The API worker then has no D1 binding of its own, so a working /users/me shows the wrapper is in the path.
export default function wrap(env) {
  const inner = env.INNER;
  return {
    prepare(sql) {
      return inner.prepare(sql);
    },
    batch(statements) {
      return inner.batch(statements);
    },
    exec(sql) {
      return inner.exec(sql);
    },
    withSession(constraint) {
      return inner.withSession(constraint);
    },
    dump() {
      return inner.dump();
    },
  };
}
