// A D1 wrapper for startMiniflareWorker({ wrapDb }) (test/bench/lib/miniflare.mjs) that counts round trips: every
// call that goes to the database (a statement's first/run/all/raw, a batch, exec) prints one line on workerd's stdout,
// `[d1-count] <kind> <statements> <sql of each, first 90 characters, joined by " | ">`, and forwards the call to the
// real D1 (env.INNER) unchanged. test/bench/sign-in.mjs reads those lines to count round trips and statements per
// sign-in. A wrapped-binding module is one ES module with no imports (its default export gets the wrapper's bindings).
// It prints from the API's isolate, so it is for counting only, never in a run whose CPU is measured.
const short = (sql) => sql.replace(/\s+/g, " ").trim().slice(0, 90);

function statement(inner, sql) {
  const sent = (kind) => console.log(`[d1-count] ${kind} 1 ${short(sql)}`);
  return {
    inner,
    sql,
    bind(...values) {
      return statement(inner.bind(...values), sql);
    },
    first(column) {
      sent("first");
      return column === undefined ? inner.first() : inner.first(column);
    },
    run() {
      sent("run");
      return inner.run();
    },
    all() {
      sent("all");
      return inner.all();
    },
    raw(options) {
      sent("raw");
      return inner.raw(options);
    },
  };
}

export default function wrap(env) {
  const db = env.INNER;
  return {
    prepare(sql) {
      return statement(db.prepare(sql), sql);
    },
    batch(statements) {
      console.log(`[d1-count] batch ${statements.length} ${statements.map((s) => short(s.sql)).join(" | ")}`);
      return db.batch(statements.map((s) => s.inner));
    },
    exec(sql) {
      console.log(`[d1-count] exec 1 ${short(sql)}`);
      return db.exec(sql);
    },
    withSession(constraint) {
      return db.withSession(constraint);
    },
    dump() {
      return db.dump();
    },
  };
}
