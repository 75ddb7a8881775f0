// autocannon with the benches' defaults (no pipelining, 30 s timeout, nothing rendered).
import autocannon from "autocannon";

/** One bounded autocannon run; resolves with autocannon's result. */
export function cannon(opts) {
  return new Promise((res, rej) => {
    const instance = autocannon({ pipelining: 1, timeout: 30, ...opts }, (err, result) => (err ? rej(err) : res(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/** Answers received in a run (2xx and others), and the failures among them. */
export function counts(result) {
  const ok = result["2xx"];
  const bad = result.non2xx + result.errors + result.timeouts;
  return { ok, bad, total: ok + bad };
}
