/** The per-isolate password-hash queue: FIFO, bounded, and never stuck on a job that never ends (issue 16). */

import { describe, expect, it } from "vitest";
import { createHashQueue, PASSWORD_HASH_CONCURRENCY, passwordHashQueue } from "../../worker/crypto/hash-queue";
import { hashPassword, verifyPassword } from "../../worker/crypto/password";

/** A job the test finishes by hand, recording when it starts. */
function deferredJob(id: number, log: string[], live: { now: number; peak: number }) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const work = async () => {
    log.push(`start ${id}`);
    live.now += 1;
    live.peak = Math.max(live.peak, live.now);
    await done;
    live.now -= 1;
    log.push(`end ${id}`);
    return id;
  };
  return { work, finish };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
// No polling in these tests: only the releaser's wake-up moves the queue (deterministic).
const neverPoll = () => new Promise<void>(() => {});

describe("hash queue", () => {
  it("with a bound of 1, starts jobs in arrival order, one at a time", async () => {
    const queue = createHashQueue({ limit: 1, sleep: neverPoll, yieldTurn: () => Promise.resolve() });
    const log: string[] = [];
    const live = { now: 0, peak: 0 };
    const jobs = Array.from({ length: 6 }, (_, i) => deferredJob(i, log, live));
    const results = jobs.map((j) => queue.run(j.work));
    await settle();
    expect(log).toEqual(["start 0"]);
    expect(queue.stats()).toMatchObject({ active: 1, waiting: 5 });
    // Finish them out of order: a later job cannot run before an earlier one has started.
    for (const i of [0, 1, 2, 3, 4, 5]) {
      jobs[i]!.finish();
      await settle();
    }
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(log).toEqual([0, 1, 2, 3, 4, 5].flatMap((i) => [`start ${i}`, `end ${i}`]));
    expect(live.peak).toBe(1);
    expect(queue.stats()).toEqual({ active: 0, waiting: 0, peakActive: 1 });
  });

  it("with a bound of 2, never runs more than 2 and starts in arrival order", async () => {
    const queue = createHashQueue({ limit: 2, sleep: neverPoll, yieldTurn: () => Promise.resolve() });
    const log: string[] = [];
    const live = { now: 0, peak: 0 };
    const jobs = Array.from({ length: 7 }, (_, i) => deferredJob(i, log, live));
    const results = jobs.map((j) => queue.run(j.work));
    await settle();
    expect(log).toEqual(["start 0", "start 1"]);
    for (const i of [1, 0, 3, 2, 5, 4, 6]) {
      jobs[i]!.finish();
      await settle();
    }
    await Promise.all(results);
    expect(log.filter((l) => l.startsWith("start"))).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `start ${i}`));
    expect(live.peak).toBe(2);
    expect(queue.stats().peakActive).toBe(2);
  });

  it("a newcomer waits behind earlier waiters even when it finds a slot free", async () => {
    const queue = createHashQueue({ limit: 1, sleep: neverPoll, yieldTurn: () => Promise.resolve() });
    const log: string[] = [];
    const live = { now: 0, peak: 0 };
    const [a, b, c] = [0, 1, 2].map((i) => deferredJob(i, log, live));
    const ra = queue.run(a!.work);
    const rb = queue.run(b!.work);
    await settle();
    a!.finish();
    const rc = queue.run(c!.work); // arrives as the slot frees, before b has claimed it
    await settle();
    b!.finish();
    await settle();
    c!.finish();
    await Promise.all([ra, rb, rc]);
    expect(log.filter((l) => l.startsWith("start"))).toEqual(["start 0", "start 1", "start 2"]);
  });

  it("a job that never settles loses its slot after its lease, so the queue moves on", async () => {
    let clock = 0;
    const queue = createHashQueue({ limit: 1, now: () => clock, sleep: () => settle().then(() => undefined), maxRunMs: 1000 });
    const stuck = queue.run(() => new Promise<number>(() => {}));
    const next = queue.run(async () => 42);
    await settle();
    expect(queue.stats()).toMatchObject({ active: 1, waiting: 1 });
    clock = 1001;
    expect(await next).toBe(42);
    void stuck;
  });

  it("a waiter whose request is aborted gives its place up at once: the next one runs, without timers", async () => {
    const queue = createHashQueue({ limit: 1, sleep: neverPoll, yieldTurn: () => Promise.resolve() });
    const log: string[] = [];
    const live = { now: 0, peak: 0 };
    const [a, b, c] = [0, 1, 2].map((i) => deferredJob(i, log, live));
    const gone = new AbortController();
    const ra = queue.run(a!.work);
    const rb = queue.run(b!.work, { signal: gone.signal });
    const rc = queue.run(c!.work);
    await settle();
    expect(queue.stats()).toMatchObject({ active: 1, waiting: 2 });
    // The client of b disconnects while b is at the head of the line: it leaves the line there and then.
    gone.abort(new Error("client disconnected"));
    expect(queue.stats()).toMatchObject({ active: 1, waiting: 1 });
    await expect(rb).rejects.toThrow("client disconnected");
    a!.finish();
    await settle();
    // c started on a's release alone (no poll, no stale-waiter timeout), and b's hash never ran.
    expect(log).toEqual(["start 0", "end 0", "start 2"]);
    c!.finish();
    expect(await Promise.all([ra, rc])).toEqual([0, 2]);
    expect(queue.stats()).toMatchObject({ active: 0, waiting: 0 });
  });

  it("a job whose request is aborted while it yields gives its slot back at once", async () => {
    // The first yield never returns: a cancelled request's timer never fires (its continuations are dropped).
    let yields = 0;
    const yieldTurn = () => (yields++ === 0 ? new Promise<void>(() => {}) : Promise.resolve());
    const queue = createHashQueue({ limit: 1, sleep: neverPoll, yieldTurn, maxRunMs: 60_000 });
    const log: string[] = [];
    const live = { now: 0, peak: 0 };
    const [a, b, c] = [0, 1, 2].map((i) => deferredJob(i, log, live));
    const gone = new AbortController();
    const ra = queue.run(a!.work);
    const rb = queue.run(b!.work, { signal: gone.signal });
    const rc = queue.run(c!.work);
    await settle();
    a!.finish();
    await settle();
    // b holds the slot, stuck in its yield; c waits behind it.
    expect(queue.stats()).toMatchObject({ active: 1, waiting: 1 });
    gone.abort();
    await settle();
    expect(log).toEqual(["start 0", "end 0", "start 2"]);
    c!.finish();
    expect(await Promise.all([ra, rc])).toEqual([0, 2]);
    expect(queue.stats()).toMatchObject({ active: 0, waiting: 0 });
    void rb;
  });

  it("without a signal, a job that never comes back from its yield loses its slot after the waiters' short lease", async () => {
    let clock = 0;
    let yields = 0;
    const yieldTurn = () => (yields++ === 0 ? new Promise<void>(() => {}) : Promise.resolve());
    const queue = createHashQueue({
      limit: 1,
      now: () => clock,
      sleep: () => settle().then(() => undefined),
      yieldTurn,
      staleWaiterMs: 1000,
    });
    const log: string[] = [];
    const live = { now: 0, peak: 0 };
    const [a, b, c] = [0, 1, 2].map((i) => deferredJob(i, log, live));
    const ra = queue.run(a!.work);
    void queue.run(b!.work);
    const rc = queue.run(c!.work);
    await settle();
    a!.finish();
    await settle();
    await settle();
    expect(log).toEqual(["start 0", "end 0"]);
    clock = 1001;
    c!.finish();
    // b's job is still in its yield (its request is gone): c's next poll takes the slot back, long before MAX_RUN_MS.
    expect(await Promise.all([ra, rc])).toEqual([0, 2]);
    expect(log).toEqual(["start 0", "end 0", "start 2", "end 2"]);
  });

  it("a live waiter dropped as stale (its isolate was busy) takes its place back in arrival order", async () => {
    let clock = 0;
    const queue = createHashQueue({ limit: 1, now: () => clock, sleep: () => settle().then(() => undefined), staleWaiterMs: 1000 });
    const log: string[] = [];
    const live = { now: 0, peak: 0 };
    const jobs = [0, 1, 2].map((i) => deferredJob(i, log, live));
    const results = jobs.map((j) => queue.run(j.work));
    await settle();
    // Nobody polled for longer than the limit: the first poll drops the others, who come back on theirs.
    clock = 5000;
    await settle();
    await settle();
    expect(queue.stats()).toMatchObject({ active: 1, waiting: 2 });
    for (const job of jobs) {
      job.finish();
      await settle();
      await settle();
    }
    expect(await Promise.all(results)).toEqual([0, 1, 2]);
    expect(log.filter((l) => l.startsWith("start"))).toEqual(["start 0", "start 1", "start 2"]);
  });

  it("a request already aborted does not queue", async () => {
    const queue = createHashQueue({ limit: 1, sleep: neverPoll });
    const gone = new AbortController();
    gone.abort(new Error("gone"));
    let ran = false;
    await expect(
      queue.run(
        async () => {
          ran = true;
        },
        { signal: gone.signal },
      ),
    ).rejects.toThrow("gone");
    expect(ran).toBe(false);
    expect(queue.stats()).toMatchObject({ active: 0, waiting: 0 });
  });

  it("a failing job releases its slot", async () => {
    const queue = createHashQueue({ limit: 1, sleep: neverPoll, yieldTurn: () => Promise.resolve() });
    const failing = queue.run(async () => {
      throw new Error("boom");
    });
    const next = queue.run(async () => "ok");
    await expect(failing).rejects.toThrow("boom");
    expect(await next).toBe("ok");
  });

  it("password hashes and verifications go through the isolate's queue, finishing in arrival order", async () => {
    const stored = await hashPassword("correct horse battery");
    const before = passwordHashQueue.stats().peakActive;
    const finished: number[] = [];
    const checks = Array.from({ length: 4 }, (_, i) =>
      verifyPassword(i % 2 ? "wrong password here" : "correct horse battery", stored).then((r) => {
        finished.push(i);
        return r.ok;
      }),
    );
    expect(passwordHashQueue.stats().waiting + passwordHashQueue.stats().active).toBeGreaterThan(0);
    expect(await Promise.all(checks)).toEqual([true, false, true, false]);
    expect(finished).toEqual([0, 1, 2, 3]);
    expect(Math.max(before, passwordHashQueue.stats().peakActive)).toBeLessThanOrEqual(PASSWORD_HASH_CONCURRENCY);
    expect(passwordHashQueue.stats()).toMatchObject({ active: 0, waiting: 0 });
  });
});
