/**
 * A per-isolate FIFO queue that bounds how many password hashes (Argon2id, scrypt or bcrypt, hash
 * or verify) run at once. A burst of sign-ins then finishes in arrival order instead of all
 * together, and hash memory stays bounded: at most PASSWORD_HASH_CONCURRENCY × 19 MiB (one
 * Argon2id's m=19456 KiB; a legacy scrypt verify is 16 MiB) plus a few hundred bytes per waiting
 * request, far under the 128 MB isolate limit. docs/benchmarks.md has the measured burst.
 *
 * Argon2id (WebAssembly) and workerd's node:crypto "async" scrypt both run synchronously on the
 * isolate thread, so without the
 * queue a burst hashes back to back before any request's later I/O is handled. A waiter that
 * gets a slot therefore yields one macrotask before it hashes, so the D1 writes of requests
 * whose hashes are done go first.
 *
 * The queue is shared by concurrent requests, and workerd drops the continuations of a request
 * the client gave up on. So a slot is never handed to another request: the waiter claims it in
 * its own context (woken by the releaser, or by its own poll). A caller passes its request's
 * AbortSignal (aborted when the client disconnects: the enable_request_signal flag): on abort its
 * waiter leaves the line, or its job gives the slot back, at once, and the next in line is woken.
 * Without a signal (or a request cancelled some other way) the backstops remain: a waiter that
 * stops polling is dropped after STALE_WAITER_MS (a live one wrongly dropped, its isolate busy,
 * takes its place back at the head on its next poll), a job that has not come back from its
 * yield loses its slot after STALE_WAITER_MS too, and one that never settles after MAX_RUN_MS.
 * A cancelled request can stall the queue for a second at worst, never forever.
 */

/** One slot: the isolate thread runs the hash synchronously anyway, and one keeps strict arrival order. */
export const PASSWORD_HASH_CONCURRENCY = 1;

const POLL_MS = 250;
/** Four missed polls: a waiter (or a job still in its one-macrotask yield) that went this long unseen is gone. */
const STALE_WAITER_MS = 1_000;
const MAX_RUN_MS = 10_000;

/** `signal`: the request's; once aborted, its place in line (or its slot) goes to the next request. */
export type HashQueueRunOptions = { signal?: AbortSignal };

export type HashQueue = {
  /** Runs `work` once a slot is free, in arrival order; rejects with the signal's reason once it aborts before `work` starts. */
  run<T>(work: () => Promise<T>, options?: HashQueueRunOptions): Promise<T>;
  /** Hashes running now, requests waiting, and the most that ever ran at once (for tests and benches). */
  stats(): { active: number; waiting: number; peakActive: number };
};

export type HashQueueOptions = {
  limit: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Runs before a job that had to wait; by default a zero-delay timer (a macrotask). */
  yieldTurn?: () => Promise<void>;
  pollMs?: number;
  staleWaiterMs?: number;
  maxRunMs?: number;
};

const timerSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `ticket`: arrival order (a waiter dropped as stale while alive goes back to its place by it). */
type Waiter = { ticket: number; seenAt: number; wake: () => void };
/** `working`: back from its yield (a job still yielding has the short lease of a waiter). */
type Job = { startedAt: number; working: boolean };

/** A FIFO queue of at most `limit` concurrent jobs. */
export function createHashQueue(options: HashQueueOptions): HashQueue {
  const { limit, now = Date.now, sleep = timerSleep, pollMs = POLL_MS, staleWaiterMs = STALE_WAITER_MS, maxRunMs = MAX_RUN_MS } = options;
  const yieldTurn = options.yieldTurn ?? (() => sleep(0));
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError("limit must be a positive integer");
  const waiters: Waiter[] = [];
  const running = new Set<Job>();
  let peakActive = 0;
  let tickets = 0;

  /** Drops jobs that outlived their lease and waiters that stopped polling (their requests are gone). */
  function prune(self: Waiter): void {
    const t = now();
    for (const job of running) if (t - job.startedAt > (job.working ? maxRunMs : staleWaiterMs)) running.delete(job);
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i]!;
      if (w !== self && t - w.seenAt > staleWaiterMs) waiters.splice(i, 1);
    }
  }

  return {
    async run<T>(work: () => Promise<T>, { signal }: HashQueueRunOptions = {}): Promise<T> {
      signal?.throwIfAborted();
      const self: Waiter = { ticket: tickets++, seenAt: now(), wake: () => {} };
      waiters.push(self);
      let job: Job | null = null;
      // Runs in the cancelled request's context while that context's own continuations never will:
      // the place in line (or the slot) is given up here, and the next waiter is woken to claim it.
      const giveUp = () => {
        const at = waiters.indexOf(self);
        if (at >= 0) waiters.splice(at, 1);
        if (job) running.delete(job);
        self.wake();
        waiters[0]?.wake();
      };
      signal?.addEventListener("abort", giveUp, { once: true });
      try {
        let waited = false;
        for (;;) {
          signal?.throwIfAborted();
          prune(self);
          // Dropped as stale while alive (its isolate was busy past the limit): back to its place in arrival order.
          if (!waiters.includes(self)) {
            const after = waiters.findIndex((w) => w.ticket > self.ticket);
            waiters.splice(after < 0 ? waiters.length : after, 0, self);
          }
          if (waiters[0] === self && running.size < limit) break;
          waited = true;
          const woken = new Promise<void>((resolve) => {
            self.wake = resolve;
          });
          await Promise.race([woken, sleep(pollMs)]);
          self.seenAt = now();
        }
        waiters.shift();
        job = { startedAt: now(), working: !waited };
        running.add(job);
        peakActive = Math.max(peakActive, running.size);
        // A second free slot (limit > 1) belongs to the next in line.
        if (running.size < limit) waiters[0]?.wake();
        try {
          if (waited) await yieldTurn();
          // Cancelled while yielding: the slot is already the next waiter's (giveUp); no hash for nobody.
          signal?.throwIfAborted();
          job.working = true;
          job.startedAt = now();
          return await work();
        } finally {
          running.delete(job);
          // Only a wake-up: the oldest waiter claims the slot itself, in its own request.
          waiters[0]?.wake();
        }
      } finally {
        signal?.removeEventListener("abort", giveUp);
      }
    },
    stats: () => ({ active: running.size, waiting: waiters.length, peakActive }),
  };
}

/** The isolate's queue for every password hash and verification (crypto/password.ts). */
export const passwordHashQueue = createHashQueue({ limit: PASSWORD_HASH_CONCURRENCY });
