/**
 * Stripe for the worker tests (issue 15): the worker with Stripe configured (a copy of the test
 * env with STRIPE_* set, so the rest of the suite keeps its own config), a fake Stripe API at the
 * fetch boundary (the stripe package's fetch client sends real HTTP requests to STRIPE_API_URL;
 * the fake records them and answers Stripe-shaped objects), and webhook events signed with the
 * stripe package's own test helper.
 *
 * Why a fetch stub and not stripe-stateful-mock: that mock (0.0.16) has no Checkout Sessions,
 * Account Links or Account Sessions, and tests run inside workerd, which cannot listen on a port.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import Stripe from "stripe";
import { vi } from "vitest";
import worker from "../../worker/index";
import type { CallOptions, CallResult } from "./api";

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

export type StripeRequest = { method: string; path: string; headers: Headers; form: URLSearchParams };

const stripeError = (status: number, type: string, message: string, code?: string) =>
  Response.json({ error: { type, message, ...(code ? { code } : {}) } }, { status });

/**
 * Installs the fake Stripe API (global fetch, for STRIPE_TEST_HOST only; everything else passes
 * through). `restore()` removes it.
 */
export function installStripeFake() {
  const requests: StripeRequest[] = [];
  const accounts = new Map<
    string,
    { id: string; object: "account"; charges_enabled: boolean; details_submitted: boolean; payouts_enabled: boolean }
  >();
  const subscriptions = new Map<string, Record<string, unknown>>();
  const refusing = new Set<string>();
  let counter = 0;
  const realFetch = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input as RequestInfo, init);
    if (!request.url.startsWith(STRIPE_TEST_HOST)) return realFetch(input as RequestInfo, init);
    const url = new URL(request.url);
    const form = new URLSearchParams(request.method === "GET" ? url.search : new TextDecoder().decode(await request.arrayBuffer()));
    const recorded = { method: request.method, path: url.pathname, headers: request.headers, form };
    requests.push(recorded);
    if (!/^Bearer sk_test_/.test(request.headers.get("authorization") ?? ""))
      return stripeError(401, "invalid_request_error", "Invalid API Key provided");
    counter += 1;
    const route = `${request.method} ${url.pathname}`;
    if (route === "POST /v1/accounts") {
      const account = {
        id: `acct_fake${counter}`,
        object: "account" as const,
        charges_enabled: true,
        details_submitted: true,
        payouts_enabled: false,
      };
      accounts.set(account.id, account);
      return Response.json(account);
    }
    const accountMatch = /^GET \/v1\/accounts\/([^/]+)$/.exec(route);
    if (accountMatch) {
      const account = accounts.get(decodeURIComponent(accountMatch[1]!));
      return account ? Response.json(account) : stripeError(404, "invalid_request_error", "No such account", "resource_missing");
    }
    if (route === "POST /v1/account_links")
      return Response.json({ object: "account_link", url: `https://connect.stripe.test/setup/${form.get("account")}`, expires_at: 0 });
    if (route === "POST /v1/account_sessions")
      return Response.json({ object: "account_session", account: form.get("account"), client_secret: `accs_secret_fake${counter}` });
    if (route === "POST /v1/checkout/sessions") {
      const account = request.headers.get("stripe-account") ?? "";
      if (refusing.has(account)) return stripeError(400, "invalid_request_error", "This account cannot currently make live charges.");
      const id = `cs_test_fake${counter}`;
      return Response.json({ id, object: "checkout.session", url: `https://checkout.stripe.test/c/pay/${id}`, client_secret: null });
    }
    const subMatch = /^GET \/v1\/subscriptions\/([^/]+)$/.exec(route);
    if (subMatch) {
      const sub = subscriptions.get(decodeURIComponent(subMatch[1]!));
      return sub ? Response.json(sub) : stripeError(404, "invalid_request_error", "No such subscription", "resource_missing");
    }
    return stripeError(404, "invalid_request_error", `Unrecognized request URL (${route})`);
  });
  return {
    requests,
    /** Stripe knows this subscription (on a connected account). */
    addSubscription: (sub: Record<string, unknown> & { id: string }) => subscriptions.set(sub.id, sub),
    /** Checkout Sessions on this account are refused, as for an account that cannot take charges. */
    refuseCheckouts: (accountId: string) => refusing.add(accountId),
    /** The metadata the last Checkout Session was created with, as Stripe echoes it in events. */
    lastCheckoutMetadata(): Record<string, string> {
      const last = [...requests].reverse().find((r) => r.path === "/v1/checkout/sessions");
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
