/**
 * Outbound calls against hostile counterparts (DESIGN §4.10): a webhook receiver, an AI provider, an
 * OAuth provider and a Stripe API that hang, redirect, flood (50 MB) or drip, all real local servers
 * (test/hostile-http.mjs, test/openai-sink.mjs). Each ends on its bound as a recorded outcome (a failed
 * attempt with its message, the known error with nothing stored, the OAuth error redirect), and
 * meanwhile `GET /api/v1/health`, polled through SELF every ~50 ms, answers 200 every time. The max
 * /health latency per fault is logged, never asserted. Small bounds come from the *_TIMEOUT_MS vars
 * (a copy of the test env) or the deps' config, so the file stays fast.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { readServerSentEvents } from "../../sdk/src/apps/admin-ai-chat";
import { readConfig } from "../../worker/config";
import { findWebhookEndpoint } from "../../worker/db/queries/webhooks";
import worker from "../../worker/index";
import { makeDeps } from "../../worker/services/deps";
import { createStripeProvider } from "../../worker/services/payments/stripe-client";
import { ProviderUnavailableError } from "../../worker/services/payments/stripe-provider";
import { sendTestWebhook } from "../../worker/services/webhooks/queue";
import { call, createProjectWithKeys } from "../helpers/api";
import { withHealthPolls } from "../helpers/health";
import { authorizeUrl, CookieJar } from "../helpers/oauth";

const _sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hostileOrigin = () => `http://127.0.0.1:${inject("hostilePort")}`;
/** A hostile URL whose requests the server records under a tag of their own. */
const hostileUrl = (mode: string) => `${hostileOrigin()}/${mode}.${mode.replace(/\W/g, "")}${crypto.randomUUID().slice(0, 8)}`;

/** Runs `work` while polling /health through SELF every ~50 ms; every poll must answer 200. */
async function whilePollingHealth<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const { result, polls, failures, maxMs } = await withHealthPolls(work);
  console.log(`[outbound-faults] ${label}: ended after ${Date.now() - started} ms; /health polled ${polls}×, max latency ${maxMs} ms`);
  expect(polls).toBeGreaterThan(0);
  expect(failures).toBe(0);
  return result;
}

/** The worker's fetch handler with some vars changed (a copy of the test env; the rest of the suite keeps its own). */
function workerWith(vars: Record<string, string>) {
  const changed = { ...(env as unknown as Record<string, unknown>), ...vars };
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const ctx = createExecutionContext();
    const request = new Request(url, { ...init, redirect: "manual" });
    const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, changed as never, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
}

describe("webhook deliveries", () => {
  const webhookBounds = { timeoutMs: 2000, firstByteMs: 1000, maxBodyBytes: 64 * 1024 };

  /** One test delivery to a hostile receiver, attempted with small bounds; its row as the delivery log shows it. */
  async function deliverTo(mode: string) {
    const p = await createProjectWithKeys();
    const created = await call("/internal/webhooks/endpoints", { ...p.admin, body: { url: hostileUrl(mode), description: mode } });
    expect(created.status, created.text).toBe(200);
    const config = readConfig(env);
    const deps = makeDeps(env, {
      origin: "http://localhost",
      config: { ...config, outbound: { ...config.outbound, webhook: webhookBounds } },
    });
    const endpoint = await findWebhookEndpoint(deps.db, p.projectId, created.body.id);
    const sent = await whilePollingHealth(`webhook receiver ${mode}`, () => sendTestWebhook(deps, endpoint!));
    const log = await call(`/internal/webhooks/deliveries?endpoint_id=${created.body.id}`, p.admin);
    const row = (log.body.items as { id: string; status: string; next_attempt_at_millis: number | null; attempts: unknown[] }[]).find(
      (d) => d.id === sent.delivery,
    );
    // The retry the queue now holds finds no endpoint and sends nothing.
    await call(`/internal/webhooks/endpoints/${created.body.id}`, { ...p.admin, method: "DELETE" });
    return { result: sent.result, row };
  }

  const retried = { result: { outcome: "retry", delaySeconds: 5 }, row: { status: "pending", next_attempt_at_millis: expect.any(Number) } };

  it("a receiver that never answers is a failed attempt at the first-byte limit, retried on the schedule", async () => {
    const { result, row } = await deliverTo("hang");
    expect({ result, row }).toMatchObject(retried);
    expect(row!.attempts).toEqual([expect.objectContaining({ status_code: null, response_excerpt: null, error: "No answer within 1 s." })]);
  });

  it("a redirect is a failed attempt naming its Location, not followed", async () => {
    const { result, row } = await deliverTo("redirect");
    expect({ result, row }).toMatchObject(retried);
    expect(row!.attempts).toEqual([
      expect.objectContaining({
        status_code: 302,
        error: `Redirected (HTTP 302) to ${hostileOrigin()}/ok; redirects are not followed.`,
      }),
    ]);
  });

  it("a 50 MB answer is a failed attempt at the byte cap", async () => {
    const { result, row } = await deliverTo("big");
    expect({ result, row }).toMatchObject(retried);
    expect(row!.attempts).toEqual([
      expect.objectContaining({ status_code: 200, error: "The answer is larger than 64 KiB; reading stopped there." }),
    ]);
  });

  it("an answer that drips a byte a second is a failed attempt at the total limit", async () => {
    const { result, row } = await deliverTo("drip");
    expect({ result, row }).toMatchObject(retried);
    expect(row!.attempts).toEqual([expect.objectContaining({ status_code: 200, error: "The answer did not complete within 2 s." })]);
  });
});

describe("the assistant's provider", () => {
  // The whole answer within 2.5 s; the project's gap timeout (1 s) is longer than the drip's 0.9 s.
  const aiWorker = workerWith({ AI_ANSWER_TIMEOUT_MS: "2500" });

  async function projectWithModel(model: string, baseUrl = `http://127.0.0.1:${inject("openAiPort")}/v1`) {
    const p = await createProjectWithKeys();
    const override = {
      "doorman.ai.provider": "openai-compatible",
      "doorman.ai.baseUrl": baseUrl,
      "doorman.ai.model": model,
      "doorman.ai.timeoutMs": 1000,
    };
    const res = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify(override) },
    });
    expect(res.status, res.text).toBe(200);
    return p;
  }

  async function ask(p: Awaited<ReturnType<typeof projectWithModel>>, threadId: string, stream: boolean) {
    const res = await aiWorker(`http://localhost/api/v1/internal/ai-chat/${threadId}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: stream ? "text/event-stream" : "application/json",
        "x-stack-project-id": p.projectId,
        "x-stack-access-type": "admin",
        "x-stack-admin-access-token": p.admin.adminAccessToken,
      },
      body: JSON.stringify({ message: "hello" }),
    });
    const events: { event: string; data: any }[] = [];
    if (stream && res.body && (res.headers.get("content-type") ?? "").startsWith("text/event-stream"))
      for await (const e of readServerSentEvents(res.body)) events.push({ event: e.event, data: JSON.parse(e.data) });
    return { status: res.status, events, json: stream ? null : await res.json<any>() };
  }

  const storedMessages = async (p: Awaited<ReturnType<typeof projectWithModel>>, threadId: string) =>
    (await call(`/internal/ai-chat/${threadId}`, p.admin)).body.messages;

  it("a stream that drips a piece every 0.9 s forever ends at the answer's cap as AI_PROVIDER_TIMEOUT, nothing stored", async () => {
    const p = await projectWithModel("drip");
    const { status, events } = await whilePollingHealth("AI provider drip (streamed)", () => ask(p, "drip-stream", true));
    expect(status).toBe(200);
    expect(events.filter((e) => e.event === "delta").length).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({
      event: "error",
      data: expect.objectContaining({ code: "AI_PROVIDER_TIMEOUT", details: { timeout_ms: 2500 } }),
    });
    expect(await storedMessages(p, "drip-stream")).toEqual([]);
    // Whole, the same provider is a timeout too.
    const whole = await whilePollingHealth("AI provider drip (whole)", () => ask(p, "drip-whole", false));
    expect([whole.status, whole.json.code]).toEqual([504, "AI_PROVIDER_TIMEOUT"]);
    expect(await storedMessages(p, "drip-whole")).toEqual([]);
  });

  it("a 50 MB answer stops at the byte cap as AI_PROVIDER_ERROR, nothing stored", async () => {
    const p = await projectWithModel("flood");
    const { events } = await whilePollingHealth("AI provider flood (streamed)", () => ask(p, "flood-stream", true));
    expect(events.at(-1)).toMatchObject({ event: "error", data: { code: "AI_PROVIDER_ERROR" } });
    expect(events.at(-1)!.data.error).toContain("passed 2097152 bytes");
    const whole = await whilePollingHealth("AI provider flood (whole)", () => ask(p, "flood-whole", false));
    expect([whole.status, whole.json.code]).toEqual([502, "AI_PROVIDER_ERROR"]);
    expect(await storedMessages(p, "flood-stream")).toEqual([]);
    expect(await storedMessages(p, "flood-whole")).toEqual([]);
  });

  it("a provider that redirects is AI_PROVIDER_ERROR naming the Location, not followed", async () => {
    const p = await projectWithModel("echo", hostileUrl("redirect"));
    const whole = await whilePollingHealth("AI provider redirect", () => ask(p, "redirected", false));
    expect(whole.status).toBe(502);
    expect(whole.json).toMatchObject({ code: "AI_PROVIDER_ERROR", details: { provider_status: 302 } });
    expect(whole.json.error).toContain(`redirected to ${hostileOrigin()}/ok; redirects are not followed`);
    expect(await storedMessages(p, "redirected")).toEqual([]);
  });
});

describe("OAuth providers", () => {
  /** authorize → the provider's callback with a code, against a provider (the mock issuer) that is `mode`. */
  async function signInThrough(mode: string) {
    const fetchWorker = workerWith({ OAUTH_MOCK_ISSUER: hostileUrl(mode), OAUTH_TIMEOUT_MS: "1500" });
    const p = await createProjectWithKeys({ oauth_providers: [{ id: "github", type: "shared" }] });
    const jar = new CookieJar();
    const start = await fetchWorker(authorizeUrl(p.client));
    expect(start.status, await start.clone().text()).toBe(307);
    jar.store(start);
    const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
    const callbackUrl = `http://localhost/api/v1/auth/oauth/callback/github?code=provider-code&state=${state}`;
    const callback = await whilePollingHealth(`OAuth provider ${mode}`, () =>
      fetchWorker(callbackUrl, { headers: { cookie: jar.header() } }),
    );
    return { status: callback.status, location: new URL(callback.headers.get("location") ?? "http://invalid/") };
  }

  const unavailable = (location: URL) => ({
    target: `${location.origin}${location.pathname}`,
    errorCode: location.searchParams.get("errorCode"),
  });
  const expected = { target: "http://localhost:3000/handler/error", errorCode: "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE" };

  it.each([
    ["hang", "a token endpoint that never answers"],
    ["token-then-hang", "a userinfo endpoint that never answers"],
    ["token-then-drip", "a userinfo answer that drips"],
    ["token-then-big", "a 50 MB userinfo answer"],
    ["token-then-redirect", "a userinfo redirect"],
  ])("%s (%s) ends the sign-in with OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE at the app's error URL", async (mode) => {
    const { status, location } = await signInThrough(mode);
    expect(status).toBe(307);
    expect(unavailable(location)).toEqual(expected);
  });
});

describe("Stripe", () => {
  const stripe = createStripeProvider({
    secretKey: "sk_test_hostile",
    apiUrl: hostileOrigin(),
    bounds: { timeoutMs: 1500, firstByteMs: 1000, maxBodyBytes: 64 * 1024 },
  });
  /** The account id is the hostile mode (Stripe's path `/v1/accounts/{id}`). */
  const accountId = (mode: string) => new URL(hostileUrl(mode)).pathname.slice(1);

  /** The messages of an error and what it wraps (its cause, the stripe package's `detail` and `exception`). */
  const messages = (e: unknown): string[] =>
    e instanceof Error
      ? [
          e.message,
          ...messages(e.cause),
          ...messages((e as { detail?: unknown }).detail),
          ...messages((e as { exception?: unknown }).exception),
        ]
      : [];

  it.each([
    ["hang", "No answer within 1 s."],
    ["drip", "The answer did not complete within 1.5 s."],
    ["big", "The answer is larger than 64 KiB; reading stopped there."],
    ["redirect", "Invalid JSON received from the Stripe API"],
  ])("a Stripe API that is %s fails the call within its bounds: %s", async (mode, message) => {
    const error = await whilePollingHealth(`Stripe ${mode}`, () =>
      stripe.readAccount(accountId(mode)).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    expect(messages(error), JSON.stringify(messages(error))).toContain(message);
    // The services turn it into stripe_unavailable (a 503/504), never a 500.
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).timedOut).toBe(mode === "hang" || mode === "drip");
  });
});
