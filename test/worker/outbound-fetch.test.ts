/**
 * worker/lib/outbound-fetch.ts against a real misbehaving server (test/hostile-http.mjs, over
 * loopback): a hang ends at the first-byte limit, a drip at the total limit, a 50 MB body at the cap
 * (and the server sees the caller hang up long before 50 MB), a redirect is a failure naming its
 * Location; the fetch handed to libraries (boundedFetchFn) fails the same cases their way.
 */
import { describe, expect, inject, it } from "vitest";
import { boundedFetch, boundedFetchFn, OutboundTimeoutError, OutboundTooLargeError, withTimeout } from "../../worker/lib/outbound-fetch";
import type { HostileStats } from "../hostile-http.d.mts";

const hostile = (mode: string) => {
  const tag = `${mode.replace(/\W/g, "")}${crypto.randomUUID().slice(0, 8)}`;
  return { url: `http://127.0.0.1:${inject("hostilePort")}/${mode}.${tag}`, tag };
};

/** The server's record of one tag, once the caller's hang-up has reached it. */
async function serverStats(tag: string): Promise<HostileStats> {
  const read = async () =>
    (await (await fetch(`http://127.0.0.1:${inject("hostilePort")}/control/stats?tag=${tag}`)).json()) as HostileStats;
  for (let i = 0; i < 40; i++) {
    const stats = await read();
    if (stats.closedEarly || stats.finished) return stats;
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}

const MB = 1024 * 1024;
const bounds = { timeoutMs: 2500, firstByteMs: 1000, maxBodyBytes: 64 * 1024 };

describe("boundedFetch", () => {
  it("answers a well-behaved server's status, headers and body", async () => {
    const r = await boundedFetch(hostile("ok").url, { method: "POST", body: "{}" }, bounds);
    expect(r).toMatchObject({ ok: true, status: 200, body: '{"ok":true}', truncated: false });
  });

  it("a server that never answers is a timeout at the first-byte limit", async () => {
    const r = await boundedFetch(hostile("hang").url, {}, bounds);
    expect(r).toEqual({ ok: false, kind: "timeout", status: null, message: "No answer within 1 s." });
  });

  it("a body that drips one byte a second is a timeout at the total limit", async () => {
    const { url, tag } = hostile("drip");
    const r = await boundedFetch(url, {}, bounds);
    expect(r).toEqual({ ok: false, kind: "timeout", status: 200, message: "The answer did not complete within 2.5 s." });
    expect(await serverStats(tag)).toMatchObject({ finished: false, closedEarly: true });
  });

  it("a 50 MB body stops at the cap: the caller hangs up long before 50 MB", async () => {
    const { url, tag } = hostile("big");
    const r = await boundedFetch(url, {}, bounds);
    expect(r).toEqual({ ok: false, kind: "too_large", status: 200, message: "The answer is larger than 64 KiB; reading stopped there." });
    const stats = await serverStats(tag);
    expect(stats).toMatchObject({ finished: false, closedEarly: true });
    // What the server managed to write before it noticed (socket buffers included), far below 50 MB.
    expect(stats.bytesSent).toBeLessThan(20 * MB);
  });

  it("a declared Content-Length over the cap fails before any of the body is read", async () => {
    const { url, tag } = hostile("big-declared");
    const r = await boundedFetch(url, {}, bounds);
    expect(r).toMatchObject({ ok: false, kind: "too_large", status: 200 });
    expect(await serverStats(tag)).toMatchObject({ finished: false, closedEarly: true });
  });

  it("with overflow: truncate, a big body is its first bytes", async () => {
    const r = await boundedFetch(hostile("big").url, {}, { ...bounds, overflow: "truncate" });
    expect(r.ok && r.truncated && r.body.length).toBe(64 * 1024);
  });

  it("a redirect is not followed: a failure naming its Location", async () => {
    const r = await boundedFetch(hostile("redirect").url, {}, bounds);
    expect(r).toEqual({
      ok: false,
      kind: "redirect",
      status: 302,
      message: `Redirected (HTTP 302) to http://127.0.0.1:${inject("hostilePort")}/ok; redirects are not followed.`,
    });
  });

  it("a refused connection is a network failure", async () => {
    const r = await boundedFetch("http://127.0.0.1:9/", {}, bounds);
    expect(r).toMatchObject({ ok: false, kind: "network", status: null });
    expect(!r.ok && r.message).toMatch(/^Request failed: /);
  });
});

describe("boundedFetchFn (for libraries that take a fetch)", () => {
  const bounded = boundedFetchFn(bounds);

  it("passes a good answer through", async () => {
    const res = await bounded(hostile("ok").url);
    expect([res.status, await res.text()]).toEqual([200, '{"ok":true}']);
  });

  it("a hang rejects with the first-byte timeout; a drip's body with the total one", async () => {
    await expect(bounded(hostile("hang").url)).rejects.toMatchObject({ name: "OutboundTimeoutError", phase: "first_byte" });
    const dripping = await bounded(hostile("drip").url);
    const error = await dripping.text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(error).toMatchObject({ phase: "total", limitMs: 2500 });
  });

  it("a 50 MB body errors at the cap, and the server sees the hang-up", async () => {
    const { url, tag } = hostile("big");
    const res = await bounded(url);
    expect(await res.text().catch((e: unknown) => e)).toBeInstanceOf(OutboundTooLargeError);
    expect(await serverStats(tag)).toMatchObject({ finished: false, closedEarly: true });
  });

  it("a redirect comes back as it is, not followed", async () => {
    const res = await bounded(hostile("redirect").url);
    expect([res.status, res.headers.get("location")]).toEqual([302, `http://127.0.0.1:${inject("hostilePort")}/ok`]);
  });
});

describe("withTimeout", () => {
  it("frees the caller of a promise that never settles", async () => {
    const never = new Promise<never>(() => {});
    await expect(withTimeout(never, 200, () => new Error("too slow"))).rejects.toThrow("too slow");
    await expect(withTimeout(Promise.resolve(7), 200, () => new Error("too slow"))).resolves.toBe(7);
  });
});
