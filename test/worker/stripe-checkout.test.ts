/**
 * Stripe live mode (issue 15), the calls Doorman makes: Connect onboarding (POST /internal/payments/setup),
 * the account's state, account sessions for the embedded components, and the Checkout Session of
 * POST /payments/purchases/purchase-session, through the real `stripe` package against a fake
 * Stripe API (test/helpers/stripe-fake.ts). Without STRIPE_SECRET_KEY every live route says so.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, type createProjectWithKeys, projectWithConfig, signUp } from "../helpers/api";
import { accountIdOf, installStripeFake, stripeCall } from "../helpers/stripe-fake";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const offers = {
  "payments.testMode": false,
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.offers.pack": {
    displayName: "Credit pack",
    customerType: "user",
    serverOnly: false,
    stackable: true,
    prices: { one: { USD: "9.99" }, yen: { JPY: "1200" } },
    includedItems: { credits: { quantity: 100 } },
  },
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    serverOnly: false,
    stackable: false,
    freeTrial: [2, "week"],
    prices: { monthly: { USD: "20", EUR: "18.50", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 1000, expires: "when-purchase-expires" } },
  },
};

function liveProject(config: Record<string, unknown> = offers): Promise<Project> {
  return projectWithConfig(config);
}

async function purchaseCode(p: Project, offerId: string, customerId: string): Promise<string> {
  const res = await call("/payments/purchases/create-purchase-url", {
    ...p.server,
    body: { customer_type: "user", customer_id: customerId, offer_id: offerId },
  });
  expect(res.status, res.text).toBe(200);
  return decodeURIComponent(new URL(res.body.url).pathname.split("/").pop()!);
}

let fake: ReturnType<typeof installStripeFake>;
beforeEach(() => {
  fake = installStripeFake();
});
afterEach(() => fake.restore());

describe("Connect onboarding", () => {
  it("creates the project's connected account once and answers Stripe's onboarding URL", async () => {
    const p = await liveProject();
    const first = await stripeCall("/internal/payments/setup", {
      ...p.admin,
      body: { return_url: "https://console.example.com/payments" },
    });
    expect(first.status, first.text).toBe(200);
    const created = fake.requests.filter((r) => r.path === "/v1/accounts");
    expect(created).toHaveLength(1);
    expect(created[0]!.form.get("metadata[project_id]")).toBe(p.projectId);
    expect(created[0]!.form.get("controller[stripe_dashboard][type]")).toBe("none");
    // A retried setup is the same account at Stripe too.
    expect(created[0]!.headers.get("idempotency-key")).toBe(`doorman-connect-account-${p.projectId}`);
    const accountId = accountIdOf(first.body.url);
    expect(first.body.url).toMatch(new RegExp(`^http://stripe\\.test/setup/s/${accountId}/acctlink_`));
    const link = fake.requests.find((r) => r.path === "/v1/account_links")!;
    expect(Object.fromEntries(link.form)).toEqual({
      account: accountId,
      type: "account_onboarding",
      refresh_url: "https://console.example.com/payments",
      return_url: "https://console.example.com/payments",
    });

    const again = await stripeCall("/internal/payments/setup", { ...p.admin, body: {} });
    expect(accountIdOf(again.body.url)).toBe(accountId);
    expect(fake.requests.filter((r) => r.path === "/v1/accounts")).toHaveLength(1);
    // The default return URL is the console's payments page.
    expect(fake.requests.filter((r) => r.path === "/v1/account_links")[1]!.form.get("return_url")).toBe(
      `http://localhost/projects/${p.projectId}/payments`,
    );

    const info = await stripeCall("/internal/payments/stripe/account-info", p.admin);
    // A new account has not onboarded yet (the fake's onboarding page completes it: payments-stripe-fake.test.ts).
    expect(info.body).toEqual({ account_id: accountId, charges_enabled: false, details_submitted: false, payouts_enabled: false });

    for (const path of ["/stripe-widgets/account-session", "/internal/payments/stripe-widgets/account-session"]) {
      const session = await stripeCall(path, { ...p.admin, body: {} });
      expect(session.status, session.text).toBe(200);
      expect(session.body.client_secret).toMatch(/^accs_secret_/);
    }
    const sessionRequest = fake.requests.find((r) => r.path === "/v1/account_sessions")!;
    expect(sessionRequest.form.get("account")).toBe(accountId);
    expect(sessionRequest.form.get("components[payments][enabled]")).toBe("true");
  });

  it("is admin-only, and answers STRIPE_ACCOUNT_INFO_NOT_FOUND before onboarding", async () => {
    const p = await liveProject();
    expect((await stripeCall("/internal/payments/setup", { ...p.server, body: {} })).status).toBe(401);
    const info = await stripeCall("/internal/payments/stripe/account-info", p.admin);
    expect([info.status, info.body.code]).toEqual([404, "STRIPE_ACCOUNT_INFO_NOT_FOUND"]);
    const widgets = await stripeCall("/stripe-widgets/account-session", { ...p.admin, body: {} });
    expect(widgets.body.code).toBe("STRIPE_ACCOUNT_INFO_NOT_FOUND");
    expect(fake.requests).toHaveLength(0);
  });

  it("answers a clear error, not a 500, when the server has no Stripe key", async () => {
    const p = await liveProject();
    const setup = await call("/internal/payments/setup", { ...p.admin, body: {} });
    expect(setup.status).toBe(400);
    expect(setup.text).toContain("STRIPE_SECRET_KEY");
    const info = await call("/internal/payments/stripe/account-info", p.admin);
    expect(info.body.code).toBe("STRIPE_ACCOUNT_INFO_NOT_FOUND");
    const widgets = await call("/stripe-widgets/account-session", { ...p.admin, body: {} });
    expect([widgets.status, widgets.text.includes("STRIPE_SECRET_KEY")]).toEqual([400, true]);
    const u = await signUp(p.client);
    const session = await call("/payments/purchases/checkout-session", {
      body: { full_code: await purchaseCode(p, "pack", u.userId), price_id: "one" },
    });
    expect([session.status, session.text.includes("STRIPE_SECRET_KEY")]).toEqual([400, true]);
    const hook = await call("/integrations/stripe/webhooks", { rawBody: "{}", headers: { "stripe-signature": "t=1,v1=00" } });
    expect([hook.status, hook.text.includes("STRIPE_WEBHOOK_SECRET")]).toEqual([400, true]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("purchase-session (Stripe Checkout)", () => {
  it("creates a one-time Checkout Session on the connected account, with the purchase in its metadata", async () => {
    const p = await liveProject();
    const setup = await stripeCall("/internal/payments/setup", { ...p.admin, body: {} });
    const accountId = accountIdOf(setup.body.url);
    const u = await signUp(p.client);
    const fullCode = await purchaseCode(p, "pack", u.userId);
    const res = await stripeCall("/payments/purchases/checkout-session", { body: { full_code: fullCode, price_id: "one", quantity: 3 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ url: expect.stringMatching(/^http:\/\/stripe\.test\/checkout\/cs_test_/), client_secret: null });
    const sent = fake.requests.find((r) => r.path === "/v1/checkout/sessions")!;
    expect(sent.method).toBe("POST");
    // A direct charge: the session lives on the project's connected account.
    expect(sent.headers.get("stripe-account")).toBe(accountId);
    const form = Object.fromEntries(sent.form);
    expect(form).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "999",
      "line_items[0][price_data][product_data][name]": "Credit pack",
      "line_items[0][quantity]": "3",
      "metadata[project_id]": p.projectId,
      "metadata[customer_type]": "user",
      "metadata[customer_id]": u.userId,
      "metadata[offer_id]": "pack",
      "metadata[price_id]": "one",
      "metadata[quantity]": "3",
      "payment_intent_data[metadata][project_id]": p.projectId,
      cancel_url: `http://localhost/purchase/${encodeURIComponent(fullCode)}`,
    });
    // The metadata carries the code's hash, never the code itself (only the purchase page's URLs do).
    expect(form["metadata[purchase_code_hash]"]).toMatch(/^[0-9a-f]{64}$/);
    const metadata = Object.entries(form).filter(([key]) => key.includes("metadata"));
    expect(JSON.stringify(metadata)).not.toContain(fullCode.split("_").pop()!);

    // Yen have no minor unit: 1200 JPY is 1200.
    await stripeCall("/payments/purchases/checkout-session", { body: { full_code: fullCode, price_id: "yen" } });
    const yen = Object.fromEntries(fake.requests.filter((r) => r.path === "/v1/checkout/sessions")[1]!.form);
    expect([yen["line_items[0][price_data][currency]"], yen["line_items[0][price_data][unit_amount]"]]).toEqual(["jpy", "1200"]);
  });

  it("creates a subscription Checkout Session with the price's interval and the offer's free trial", async () => {
    const p = await liveProject();
    await stripeCall("/internal/payments/setup", { ...p.admin, body: {} });
    const u = await signUp(p.client);
    const res = await stripeCall("/payments/purchases/checkout-session", {
      body: { full_code: await purchaseCode(p, "pro", u.userId), price_id: "monthly", quantity: 5 },
    });
    expect(res.status, res.text).toBe(200);
    const form = Object.fromEntries(fake.requests.find((r) => r.path === "/v1/checkout/sessions")!.form);
    expect(form).toMatchObject({
      mode: "subscription",
      "line_items[0][price_data][unit_amount]": "2000",
      "line_items[0][price_data][recurring][interval]": "month",
      "line_items[0][price_data][recurring][interval_count]": "1",
      // Not stackable: one at a time, whatever was asked.
      "line_items[0][quantity]": "1",
      "subscription_data[trial_period_days]": "14",
      "subscription_data[metadata][offer_id]": "pro",
    });
  });

  it("refuses what it cannot sell, before calling Stripe", async () => {
    const p = await liveProject();
    const u = await signUp(p.client);
    const code = await purchaseCode(p, "pack", u.userId);
    const noAccount = await stripeCall("/payments/purchases/checkout-session", { body: { full_code: code, price_id: "one" } });
    expect([noAccount.status, noAccount.body.code]).toEqual([404, "STRIPE_ACCOUNT_INFO_NOT_FOUND"]);
    await stripeCall("/internal/payments/setup", { ...p.admin, body: {} });
    const noPrice = await stripeCall("/payments/purchases/checkout-session", { body: { full_code: code, price_id: "nope" } });
    expect(noPrice.status).toBe(400);
    const badCode = await stripeCall("/payments/purchases/checkout-session", {
      body: { full_code: `${p.projectId}_nope`, price_id: "one" },
    });
    expect(badCode.body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    expect(fake.requests.filter((r) => r.path === "/v1/checkout/sessions")).toHaveLength(0);

    // A project in test mode pays through the test checkout, never Stripe.
    const t = await liveProject({ ...offers, "payments.testMode": true });
    const testCode = await purchaseCode(t, "pack", (await signUp(t.client)).userId);
    const testMode = await stripeCall("/payments/purchases/checkout-session", { body: { full_code: testCode, price_id: "one" } });
    expect([testMode.status, testMode.body.code]).toEqual([400, "SCHEMA_ERROR"]);
    expect(testMode.body.error).toContain("test-mode-purchase");
  });

  it("answers a plain 400 when Stripe refuses the checkout (an account that cannot take charges)", async () => {
    const p = await liveProject();
    const setup = await stripeCall("/internal/payments/setup", { ...p.admin, body: {} });
    fake.refuseCheckouts(accountIdOf(setup.body.url));
    const u = await signUp(p.client);
    const res = await stripeCall("/payments/purchases/checkout-session", {
      body: { full_code: await purchaseCode(p, "pack", u.userId), price_id: "one" },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain("cannot take this payment");
  });
});
