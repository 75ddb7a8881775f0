/**
 * Polling GET /api/v1/health while a fault runs (the fault suites: hostile SMTP servers, HTTP
 * receivers, templates, the outbox). Tests assert that every poll answered; the latencies go to the
 * log (never a pass/fail timing).
 */
import { SELF } from "cloudflare:test";

export type HealthPolls = { polls: number; statuses: number[]; failures: number; maxMs: number };

/** Starts polling every `everyMs`; the returned function stops it and answers what the polls saw. */
export function pollHealth(everyMs = 50): () => Promise<HealthPolls> {
  const seen: HealthPolls = { polls: 0, statuses: [], failures: 0, maxMs: 0 };
  let stopped = false;
  const loop = (async () => {
    do {
      const started = Date.now();
      let status = 0;
      try {
        const res = await SELF.fetch("http://localhost/api/v1/health");
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0;
      }
      seen.polls++;
      seen.statuses.push(status);
      if (status !== 200) seen.failures++;
      seen.maxMs = Math.max(seen.maxMs, Date.now() - started);
      await new Promise((r) => setTimeout(r, everyMs));
    } while (!stopped);
  })();
  return async () => {
    stopped = true;
    await loop;
    return seen;
  };
}

/** Runs `work` while /health is polled; answers its result and what the polls saw. */
export async function withHealthPolls<T>(work: () => Promise<T>, everyMs = 50): Promise<HealthPolls & { result: T }> {
  const stop = pollHealth(everyMs);
  try {
    const result = await work();
    return { ...(await stop()), result };
  } catch (err) {
    await stop();
    throw err;
  }
}
