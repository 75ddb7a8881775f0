/**
 * D1 read replication (D1_READ_REPLICATION=true): every request runs in one D1 session and answers
 * its bookmark; a caller that sends the bookmark back reads what it wrote. Local D1 has no replicas,
 * so this checks the wiring and consistency, not replica routing (docs/deploy.md, "Read replicas").
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { StackClientApp } from "../../sdk/src";
import worker from "../../worker/index";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";

const replicatedEnv = { ...env, D1_READ_REPLICATION: "true" };

async function replicatedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(input, init) as never, replicatedEnv as never, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("D1 sessions (read replication on)", () => {
  it("answers a bookmark that only moves forward, and the SDK reads its own writes with it", async () => {
    const p = await createProjectWithKeys();
    const seen: string[] = [];
    const sent: (string | null)[] = [];
    const fetchImpl = async (input: string, init: RequestInit) => {
      sent.push(new Headers(init.headers).get("x-doorman-d1-bookmark"));
      const res = await replicatedFetch(input, init);
      const bookmark = res.headers.get("x-doorman-d1-bookmark");
      if (bookmark) seen.push(bookmark);
      return res;
    };
    const app = new StackClientApp({
      baseUrl: "http://localhost",
      projectId: p.projectId,
      publishableClientKey: p.client.publishableClientKey,
      fetch: fetchImpl,
      tokenStore: "memory",
      redirectMethod: "none",
    });
    await app.signUpWithCredential({ email: uniqueEmail("d1s"), password: "sessions password 1", noRedirect: true });
    const user = (await app.getUser({ or: "throw" }))!;
    await user.update({ displayName: "Read my write" });
    expect((await app.getUser({ or: "throw" }))!.displayName).toBe("Read my write");
    expect(seen.length).toBeGreaterThan(2);
    expect([...seen].sort()).toEqual(seen);
    // The first request had none to send; every later one sent the newest it had seen.
    expect(sent[0]).toBeNull();
    expect(sent.slice(1).every((b) => b !== null)).toBe(true);
  });

  it("ignores a malformed bookmark instead of failing the request", async () => {
    // /health pings D1, so the session is used.
    const res = await replicatedFetch("http://localhost/api/v1/health", { headers: { "x-doorman-d1-bookmark": "not a bookmark; DROP" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-doorman-d1-bookmark")).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/);
  });

  it("sends no bookmark while read replication is off (the default)", async () => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request("http://localhost/api/v1/health") as never, env as never, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.headers.get("x-doorman-d1-bookmark")).toBeNull();
  });
});
