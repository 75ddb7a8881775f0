/**
 * Stripe for the worker tests (issue 15): the worker with Stripe configured (a copy of the test
 * env with STRIPE_* set, so the rest of the suite keeps its own config), the local Stripe fake
 * (scripts/stripe-fake.mjs) at the fetch boundary (the stripe package's fetch client sends real HTTP
 * requests to STRIPE_API_URL; the fake records them and answers Stripe-shaped objects), and webhook
 * events signed with the stripe package's own test helper. The same fake over HTTP, as npm start
 * runs it, is globalSetup's `stripeApiUrl` (test/worker/payments-stripe-fake.test.ts).
 *
 * Why not stripe-stateful-mock: that mock (0.0.16) has no Checkout Sessions, Account Links or Account Sessions.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import Stripe from "stripe";
import { expect, vi } from "vitest";
import { createStripeFake } from "../../scripts/stripe-fake.mjs";
import worker from "../../worker/index";
import type { CallOptions, CallResult, createProjectWithKeys } from "./api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

export const STRIPE_TEST_HOST = "http://stripe.test";
export const STRIPE_WEBHOOK_SECRET = "whsec_doorman_test_secret";

const stripeEnv = {
  ...(env as unknown as Record<string, unknown>),
  STRIPE_SECRET_KEY: "sk_test_doorman_fake",
  STRIPE_WEBHOOK_SECRET,
  STRIPE_API_URL: STRIPE_TEST_HOST,
};

/** `call` (test/helpers/api.ts) against the worker with Stripe configured. */
export function stripeCall(path: string, o: CallOptions = {}): Promise<CallResult> {
  return callWithVars(stripeEnv, path, o);
}

/** `call` (test/helpers/api.ts) against the worker with these vars over the test env (e.g. another STRIPE_API_URL). */
export function callWithEnv(vars: Record<string, string | undefined>) {
  const merged = { ...(env as unknown as Record<string, unknown>), ...vars };
  return (path: string, o: CallOptions = {}) => callWithVars(merged, path, o);
}

async function callWithVars(vars: Record<string, unknown>, path: string, o: CallOptions): Promise<CallResult> {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined) headers[`x-stack-${name}`] = value;
  };
  set("project-id", o.projectId);
  set("access-type", o.accessType);
  set("publishable-client-key", o.publishableClientKey);
  set("secret-server-key", o.secretServerKey);
  set("super-secret-admin-key", o.superSecretAdminKey);
  set("admin-access-token", o.adminAccessToken);
  set("access-token", o.accessToken);
  let body = o.rawBody;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`http://localhost/api/v1${path}`, {
    method: o.method ?? (body !== undefined ? "POST" : "GET"),
    headers,
    body,
  });
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, vars as never, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  const parsed: unknown = (res.headers.get("content-type") ?? "").includes("application/json") ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/**
 * Installs the fake Stripe API (scripts/stripe-fake.mjs, the one npm start serves) at the fetch
 * boundary, for STRIPE_TEST_HOST only (everything else passes through), so tests can read each
 * request Doorman sent. `restore()` removes it.
 */
export function installStripeFake() {
  const fake = createStripeFake({ origin: STRIPE_TEST_HOST });
  const realFetch = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input as RequestInfo, init);
    return request.url.startsWith(STRIPE_TEST_HOST) ? fake.handle(request) : realFetch(input as RequestInfo, init);
  });
  return {
    requests: fake.requests,
    /** Stripe knows this subscription on the connected account. */
    addSubscription: fake.addSubscription,
    /** Checkout Sessions on this account are refused, as for an account that cannot take charges. */
    refuseCheckouts: fake.refuseCheckouts,
    /** Stripe knows this customer on the connected account. */
    addCustomer: fake.addCustomer,
    /** The refunds made on the connected account. */
    refundsOf: fake.refundsOf,
    /** The metadata the last Checkout Session was created with, as Stripe echoes it in events. */
    lastCheckoutMetadata(): Record<string, string> {
      const last = [...fake.requests].reverse().find((r) => r.path === "/v1/checkout/sessions");
      if (!last) throw new Error("no checkout session was created");
      const metadata: Record<string, string> = {};
      for (const [key, value] of last.form) {
        const m = /^metadata\[(.+)\]$/.exec(key);
        if (m) metadata[m[1]!] = value;
      }
      return metadata;
    },
    restore: () => spy.mockRestore(),
  };
}

/** The connected account of an onboarding URL (Stripe's shape, /setup/s/<account id>/<link>). */
export const accountIdOf = (onboardingUrl: string) => new URL(onboardingUrl).pathname.split("/").find((part) => part.startsWith("acct_"))!;

const subtle = Stripe.createSubtleCryptoProvider();

/** A webhook delivery as Stripe sends it: the raw JSON, signed with the stripe package's own helper. */
export async function deliverStripeEvent(
  event: Record<string, unknown>,
  options: { secret?: string; timestamp?: number; tamper?: (payload: string) => string } = {},
): Promise<CallResult> {
  const payload = JSON.stringify({ object: "event", api_version: Stripe.API_VERSION, livemode: false, ...event });
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? STRIPE_WEBHOOK_SECRET,
    cryptoProvider: subtle,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return stripeCall("/integrations/stripe/webhooks", {
    rawBody: options.tamper ? options.tamper(payload) : payload,
    headers: { "stripe-signature": signature, "content-type": "application/json; charset=utf-8" },
  });
}

/** Connects the project's Stripe account (POST /internal/payments/setup); its account id. */
export async function connectStripe(p: Project): Promise<string> {
  const setup = await stripeCall("/internal/payments/setup", { ...p.admin, body: {} });
  expect(setup.status, setup.text).toBe(200);
  return accountIdOf(setup.body.url);
}
