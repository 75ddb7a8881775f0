/**
 * Payments without a Stripe key, as `npm start` runs them: the worker talks to the local Stripe fake
 * (scripts/stripe-dev-server.mjs, started by globalSetup) with a test key, so Connect onboarding,
 * the account's state and the payment methods (GET/PATCH /internal/payments/method-configs) work
 * offline. A Stripe that hangs or is down ends the call with a clear 504/503, never a 500.
 */
import { describe, expect, inject, it } from "vitest";
import { STRIPE_DEV_SECRET_KEY } from "../../scripts/stripe-dev-server.mjs";
import { call, createProjectWithKeys } from "../helpers/api";
import { callWithEnv } from "../helpers/stripe-fake";

const stripeApiUrl = inject("stripeApiUrl");
/** The worker as npm start configures it when the shell sets no STRIPE_SECRET_KEY. */
const devCall = callWithEnv({ STRIPE_API_URL: stripeApiUrl, STRIPE_SECRET_KEY: STRIPE_DEV_SECRET_KEY });

type MethodConfig = {
  config_id: string;
  methods: { id: string; name: string; enabled: boolean; available: boolean; overridable: boolean }[];
};

async function onboardedProject() {
  const p = await createProjectWithKeys();
  const setup = await devCall("/internal/payments/setup", { ...p.admin, body: {} });
  expect(setup.status, setup.text).toBe(200);
  return { p, url: setup.body.url as string };
}

describe("POST /internal/payments/setup against the local Stripe fake", () => {
  it("answers an onboarding URL on the fake, keeps one account per project, and onboarding completes with one click", async () => {
    const { p, url } = await onboardedProject();
    // Stripe's shape: /setup/s/<account id>/<link>.
    expect(url).toMatch(new RegExp(`^${stripeApiUrl}/setup/s/acct_\\w+/acctlink_\\w+$`));

    const before = await devCall("/internal/payments/stripe/account-info", p.admin);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({
      account_id: expect.stringMatching(/^acct_/),
      charges_enabled: false,
      details_submitted: false,
      payouts_enabled: false,
    });

    // A second setup reuses the account (a new link to the same onboarding).
    const again = await devCall("/internal/payments/setup", { ...p.admin, body: {} });
    expect(again.status).toBe(200);
    expect((await devCall("/internal/payments/stripe/account-info", p.admin)).body.account_id).toBe(before.body.account_id);

    // The owner's browser on the fake's onboarding page: it completes and goes back to the console.
    const page = await fetch(url);
    expect(await page.text()).toContain("Complete onboarding");
    const done = await fetch(url, { method: "POST", body: new URLSearchParams({ complete: "yes" }), redirect: "manual" });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`http://localhost/projects/${p.projectId}/payments`);
    // Links are single-use, as Stripe's: a reused one goes to refresh_url.
    expect((await fetch(url, { redirect: "manual" })).status).toBe(303);

    const after = await devCall("/internal/payments/stripe/account-info", p.admin);
    expect(after.body).toMatchObject({ charges_enabled: true, details_submitted: true, payouts_enabled: true });
    const session = await devCall("/internal/payments/stripe-widgets/account-session", { ...p.admin, method: "POST" });
    expect(session.status, session.text).toBe(200);
    expect(session.body.client_secret).toMatch(/_secret_/);
  });

  it("without any key (production's setting) still answers the clear not-configured error", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/payments/setup", { ...p.admin, body: {} });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/STRIPE_SECRET_KEY is unset/);
  });
});

describe("GET/PATCH /internal/payments/method-configs", () => {
  it("is admin-only, and answers STRIPE_ACCOUNT_INFO_NOT_FOUND before onboarding", async () => {
    const p = await createProjectWithKeys();
    for (const who of [p.client, p.server]) {
      const res = await devCall("/internal/payments/method-configs", who);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
    const res = await devCall("/internal/payments/method-configs", p.admin);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("STRIPE_ACCOUNT_INFO_NOT_FOUND");
  });

  it("lists the account's known methods by name, available ones first, and turns them on and off", async () => {
    const { p } = await onboardedProject();
    const res = await devCall("/internal/payments/method-configs", p.admin);
    expect(res.status, res.text).toBe(200);
    const config = res.body as MethodConfig;
    expect(config.config_id).toMatch(/^pmc_/);
    expect(config.methods.find((m) => m.id === "card")).toEqual({
      id: "card",
      name: "Credit/Debit Card",
      enabled: true,
      available: true,
      overridable: true,
    });
    const firstUnavailable = config.methods.findIndex((m) => !m.available);
    expect(config.methods.slice(firstUnavailable).every((m) => !m.available)).toBe(true);

    const patch = await devCall("/internal/payments/method-configs", {
      ...p.admin,
      method: "PATCH",
      body: { config_id: config.config_id, updates: { card: "off", klarna: "on" } },
    });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body).toEqual({ success: true });
    const methods = ((await devCall("/internal/payments/method-configs", p.admin)).body as MethodConfig).methods;
    expect(methods.find((m) => m.id === "card")!.enabled).toBe(false);
    expect(methods.find((m) => m.id === "klarna")!.enabled).toBe(true);
  });

  it("refuses unknown methods and preferences (SCHEMA_ERROR), and another configuration id is not found", async () => {
    const { p } = await onboardedProject();
    const patch = (body: unknown) => devCall("/internal/payments/method-configs", { ...p.admin, method: "PATCH", body });
    expect((await patch({ config_id: "pmc_x", updates: { invalid_method: "on" } })).body.code).toBe("SCHEMA_ERROR");
    expect((await patch({ config_id: "pmc_x", updates: { card: "enabled" } })).body.code).toBe("SCHEMA_ERROR");
    // Nothing to change: answered without asking Stripe.
    expect((await patch({ config_id: "pmc_x", updates: {} })).status).toBe(200);
    // Another project's configuration: Stripe scopes it to the account, so it is not found here.
    const other = await onboardedProject();
    const otherId = ((await devCall("/internal/payments/method-configs", other.p.admin)).body as MethodConfig).config_id;
    const res = await patch({ config_id: otherId, updates: { card: "off" } });
    expect(res.status).toBe(404);
    expect(res.text).toContain(otherId);
  });
});

describe("a Stripe that hangs or is down", () => {
  it("ends setup, account-info and method-configs with a 504 within STRIPE_TIMEOUT_MS, not a 500", async () => {
    const { p } = await onboardedProject();
    // The fake never answers a key that starts with sk_test_hang.
    const hanging = callWithEnv({ STRIPE_API_URL: stripeApiUrl, STRIPE_SECRET_KEY: "sk_test_hang_doorman", STRIPE_TIMEOUT_MS: "300" });
    for (const [path, method] of [
      ["/internal/payments/setup", "POST"],
      ["/internal/payments/stripe/account-info", "GET"],
      ["/internal/payments/method-configs", "GET"],
    ] as const) {
      const started = Date.now();
      const res = await hanging(path, { ...p.admin, method, ...(method === "POST" ? { body: {} } : {}) });
      expect(res.status, `${path}: ${res.text}`).toBe(504);
      expect(res.text).toMatch(/Stripe did not answer in time/);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it("answers 503 when Stripe cannot be reached", async () => {
    const { p } = await onboardedProject();
    // Port 1 on loopback: nothing listens, the connection is refused.
    const down = callWithEnv({ STRIPE_API_URL: "http://127.0.0.1:1", STRIPE_SECRET_KEY: STRIPE_DEV_SECRET_KEY, STRIPE_TIMEOUT_MS: "2000" });
    const res = await down("/internal/payments/stripe/account-info", p.admin);
    expect(res.status, res.text).toBe(503);
    expect(res.text).toMatch(/Stripe could not be reached/);
  });
});
