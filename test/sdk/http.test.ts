/** The SDK's HTTP layer with injected fetch and sleep: retries, 429/508, known-error rebuild. */

import { KnownError } from "@doorman/shared/known-errors";
import { describe, expect, it } from "vitest";
import { ConnectionError, HttpClient, HttpError } from "../../sdk/src/interface/http";

type Call = { url: string; init: RequestInit };

function scripted(responses: (Response | Error)[]) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const next = responses.shift();
    if (!next) throw new Error("no more scripted responses");
    if (next instanceof Error) throw next;
    return next;
  };
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);
  return { calls, sleeps, fetch, sleep };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const client = (s: ReturnType<typeof scripted>, random = () => 0.5) =>
  new HttpClient({
    baseUrl: "http://api.test/",
    projectId: "p",
    access: { type: "client", publishableClientKey: "pck" },
    fetch: s.fetch,
    sleep: s.sleep,
    random,
  });

describe("http client", () => {
  it("sends the wire headers to {baseUrl}/api/v1{path}", async () => {
    const s = scripted([json({ ok: 1 })]);
    await client(s).request("/users/me");
    const h = s.calls[0]!.init.headers as Record<string, string>;
    expect(s.calls[0]!.url).toBe("http://api.test/api/v1/users/me");
    expect(h["x-stack-project-id"]).toBe("p");
    expect(h["x-stack-access-type"]).toBe("client");
    expect(h["x-stack-publishable-client-key"]).toBe("pck");
    expect(h["x-stack-allow-anonymous-user"]).toBe("true");
    expect(h["x-stack-override-error-status"]).toBe("true");
    expect(h["x-stack-random-nonce"]).toMatch(/^[0-9a-f]{56}$/);
    expect(s.calls[0]!.init.credentials).toBe("omit");
  });

  it("retries network errors on idempotent methods with exponential backoff, then gives up", async () => {
    const s = scripted([new TypeError("down"), new TypeError("down"), new TypeError("down"), new TypeError("down"), new TypeError("down")]);
    await expect(client(s).request("/users/me")).rejects.toBeInstanceOf(ConnectionError);
    expect(s.calls).toHaveLength(5);
    expect(s.sleeps).toEqual([1000, 2000, 4000, 8000]);
  });

  it("does not retry a failed POST (not idempotent)", async () => {
    const s = scripted([new TypeError("down")]);
    await expect(client(s).request("/auth/password/sign-in", { body: {} })).rejects.toBeInstanceOf(ConnectionError);
    expect(s.calls).toHaveLength(1);
  });

  it("waits Retry-After on 429 and retries 508", async () => {
    const s = scripted([
      new Response("slow down", { status: 429, headers: { "retry-after": "3" } }),
      new Response("loop", { status: 508 }),
      json({ fine: true }),
    ]);
    expect(await client(s).request("/users/me")).toEqual({ fine: true });
    expect(s.sleeps).toEqual([3000, 2000]);
  });

  it("backoff uses a random factor between 0.5 and 1.5", async () => {
    expect(client(scripted([]), () => 0).backoff(1)).toBe(500);
    expect(client(scripted([]), () => 0.999).backoff(2)).toBeCloseTo(2998, 0);
  });

  it("rebuilds known errors from the header and body, restoring the actual status", async () => {
    const s = scripted([
      json({ code: "PASSWORD_TOO_SHORT", error: "Password too short.", details: { min_length: 8 } }, 200, {
        "x-stack-known-error": "PASSWORD_TOO_SHORT",
        "x-stack-actual-status": "400",
      }),
    ]);
    const error = (await client(s)
      .request("/auth/password/sign-up", { body: {} })
      .catch((e) => e)) as KnownError;
    expect(error).toBeInstanceOf(KnownError);
    expect(error.code).toBe("PASSWORD_TOO_SHORT");
    expect(error.status).toBe(400);
    expect(error.details).toEqual({ min_length: 8 });
    expect(error.is("PASSWORD_REQUIREMENTS_NOT_MET")).toBe(true);
  });

  it("reads the x-hexclave-* response headers too", async () => {
    const s = scripted([
      json({ code: "USER_NOT_FOUND", error: "User not found." }, 200, {
        "x-hexclave-known-error": "USER_NOT_FOUND",
        "x-hexclave-actual-status": "404",
      }),
    ]);
    await expect(client(s).request("/users/x")).rejects.toMatchObject({ code: "USER_NOT_FOUND" });
  });

  it("an unknown code becomes UNSUPPORTED_ERROR", async () => {
    const s = scripted([json({ code: "FROM_THE_FUTURE", error: "?" }, 400, { "x-stack-known-error": "FROM_THE_FUTURE" })]);
    await expect(client(s).request("/x")).rejects.toMatchObject({
      code: "UNSUPPORTED_ERROR",
      details: { originalErrorCode: "FROM_THE_FUTURE" },
    });
  });

  it("plain error responses become HttpError", async () => {
    const s = scripted([new Response("Session not found.", { status: 404 })]);
    await expect(client(s).request("/auth/sessions/x", { method: "DELETE" })).rejects.toBeInstanceOf(HttpError);
  });
});
