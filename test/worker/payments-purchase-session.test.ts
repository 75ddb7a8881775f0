/**
 * POST /payments/purchases/purchase-session, the reference's wire (issue 27): the payment of a
 * purchase code as a Stripe subscription or payment intent on the connected account, answered as its
 * client secret; a switch within a product line moves the Stripe subscription; the payment's webhook
 * events grant the offer once. Also the checks every purchase shares (price, quantity, product line),
 * payments.blockNewPurchases, and the purchase URL's origin (WEB_APP_URL).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, type createProjectWithKeys, projectWithConfig, signUp } from "../helpers/api";
import { callWithEnv, connectStripe, deliverStripeEvent, installStripeFake, stripeCall } from "../helpers/stripe-fake";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const config = {
  "payments.testMode": false,
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.productLines.plans": { displayName: "Plans" },
  "payments.products.pack": {
    displayName: "Credit pack",
    customerType: "user",
    serverOnly: false,
    stackable: true,
    prices: { one: { USD: "9.99" } },
    includedItems: { credits: { quantity: 100 } },
  },
  "payments.products.single": {
    displayName: "Single",
    customerType: "user",
    serverOnly: false,
    stackable: false,
    prices: { one: { USD: "5" } },
    includedItems: {},
  },
  "payments.products.basic": {
    displayName: "Basic",
    customerType: "user",
    serverOnly: false,
    stackable: false,
    productLineId: "plans",
    prices: { monthly: { USD: "10", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 10, expires: "when-purchase-expires" } },
  },
  "payments.products.pro": {
    displayName: "Pro",
    customerType: "user",
    serverOnly: false,
    stackable: false,
    productLineId: "plans",
    prices: { monthly: { USD: "20", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 1000, expires: "when-purchase-expires" } },
  },
  "payments.products.lifetime": {
    displayName: "Lifetime",
    customerType: "user",
    serverOnly: false,
    stackable: true,
    productLineId: "plans",
    prices: { once: { USD: "300" } },
    includedItems: {},
  },
};

let fake: ReturnType<typeof installStripeFake>;
beforeEach(() => {
  fake = installStripeFake();
});
afterEach(() => fake.restore());

async function seller(overrides: Record<string, unknown> = {}): Promise<{ p: Project; accountId: string; userId: string }> {
  const p = await projectWithConfig({ ...config, ...overrides });
  const accountId = await connectStripe(p);
  const u = await signUp(p.client);
  return { p, accountId, userId: u.userId };
}

async function code(p: Project, userId: string, productId: string): Promise<string> {
  const res = await stripeCall("/payments/purchases/create-purchase-url", {
    ...p.server,
    body: { customer_type: "user", customer_id: userId, product_id: productId },
  });
  expect(res.status, res.text).toBe(200);
  return new URL(res.body.url).pathname.split("/").pop()!;
}

const session = (fullCode: string, priceId: string, quantity?: number) =>
  stripeCall("/payments/purchases/purchase-session", {
    body: { full_code: fullCode, price_id: priceId, ...(quantity ? { quantity } : {}) },
  });

const credits = async (p: Project, userId: string) =>
  (await call(`/payments/items/user/${userId}/credits`, p.server)).body.quantity as number;

/** The form of the last request to `path` on the fake. */
const lastForm = (path: string) => Object.fromEntries([...fake.requests].reverse().find((r) => r.path === path)!.form);

describe("purchase-session", () => {
  it("starts an incomplete subscription on the connected account and answers only its first invoice's client secret", async () => {
    const { p, accountId, userId } = await seller();
    const fullCode = await code(p, userId, "basic");
    const res = await session(fullCode, "monthly");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ client_secret: expect.stringMatching(/^pi_\w+_secret_\w+$/) });
    const sub = fake.requests.find((r) => r.path === "/v1/subscriptions")!;
    expect(sub.headers.get("stripe-account")).toBe(accountId);
    expect(Object.fromEntries(sub.form)).toMatchObject({
      payment_behavior: "default_incomplete",
      "items[0][price_data][unit_amount]": "1000",
      "items[0][price_data][recurring][interval]": "month",
      "items[0][quantity]": "1",
      "metadata[payment_flow]": "elements",
      "metadata[offer_id]": "basic",
      "metadata[customer_id]": userId,
    });
    // Nothing is granted before Stripe reports the payment, and the code buys once.
    expect(await credits(p, userId)).toBe(0);
    expect((await session(fullCode, "monthly")).body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
  });

  it("answers a payment intent's client secret for a one-time price, for unit price × quantity, on one Stripe customer per customer", async () => {
    const { p, userId } = await seller();
    const res = await session(await code(p, userId, "pack"), "one", 3);
    expect(res.status, res.text).toBe(200);
    expect(res.body.client_secret).toMatch(/^pi_\w+_secret_\w+$/);
    expect(lastForm("/v1/payment_intents")).toMatchObject({ amount: "2997", currency: "usd", "metadata[quantity]": "3" });
    await session(await code(p, userId, "pack"), "one");
    expect(fake.requests.filter((r) => r.path === "/v1/customers" && r.method === "POST")).toHaveLength(1);
  });

  it("refuses a bad price, a quantity of a non-stackable offer, and a project without its connected account", async () => {
    const { p, userId } = await seller();
    const noPrice = await session(await code(p, userId, "single"), "nope");
    expect([noPrice.status, noPrice.text]).toEqual([400, "Price not found on product associated with this purchase code"]);
    const two = await session(await code(p, userId, "single"), "one", 2);
    expect([two.status, two.text]).toEqual([400, "This product is not stackable; quantity must be 1"]);

    const bare = await projectWithConfig(config);
    const u = await signUp(bare.client);
    const url = await stripeCall("/payments/purchases/create-purchase-url", {
      ...bare.client,
      accessToken: u.accessToken,
      body: { customer_type: "user", customer_id: u.userId, product_id: "pack" },
    });
    expect(url.status).toBe(400);
    expect(url.text).toContain("Payments are not set up");
    expect(fake.requests.filter((r) => r.path === "/v1/payment_intents")).toHaveLength(0);
  });

  it("moves the customer's Stripe subscription to the new offer when switching within a product line", async () => {
    const { p, accountId, userId } = await seller();
    await session(await code(p, userId, "basic"), "monthly");
    const created = lastForm("/v1/subscriptions");
    const subId = [...fake.requests].reverse().find((r) => r.path === "/v1/subscriptions")!;
    expect(subId).toBeDefined();
    // Stripe reports the first payment: the subscription is active and Basic is granted.
    const started = await deliverStripeEvent({
      id: "evt_basic_active",
      type: "customer.subscription.updated",
      account: accountId,
      data: { object: subscriptionObject("sub_switch", created, "active") },
    });
    expect(started.status, started.text).toBe(200);
    expect(await credits(p, userId)).toBe(10);
    fake.addSubscription(accountId, { ...subscriptionObject("sub_switch", created, "active"), items: fakeItems() });

    const res = await session(await code(p, userId, "pro"), "monthly");
    expect(res.status, res.text).toBe(200);
    const update = [...fake.requests].reverse().find((r) => r.path === "/v1/subscriptions/sub_switch" && r.method === "POST")!;
    expect(Object.fromEntries(update.form)).toMatchObject({
      "items[0][id]": "si_fake_item",
      "items[0][price_data][unit_amount]": "2000",
      "metadata[offer_id]": "pro",
    });
    expect(fake.requests.filter((r) => r.path === "/v1/subscriptions" && r.method === "POST")).toHaveLength(1);

    // Stripe reports the moved subscription: Pro replaces Basic, once however often the event comes.
    const moved = subscriptionObject("sub_switch", Object.fromEntries(update.form), "active");
    for (const id of ["evt_pro_active", "evt_pro_again"])
      await deliverStripeEvent({ id, type: "customer.subscription.updated", account: accountId, data: { object: moved } });
    expect(await credits(p, userId)).toBe(1000);
    const owned = await call(`/payments/products/user/${userId}`, p.server);
    expect(owned.body.items.map((i: { id: string }) => i.id)).toEqual(["pro"]);
  });

  it("ends a subscription only Doorman knows when switching, and blocks a second offer next to a one-time purchase in its product line", async () => {
    const { p, userId } = await seller({ "payments.testMode": true });
    const test = await call("/internal/payments/test-mode-purchase-session", {
      ...p.admin,
      body: { full_code: await code(p, userId, "basic"), price_id: "monthly" },
    });
    expect(test.status, test.text).toBe(200);
    expect(await credits(p, userId)).toBe(10);
    const res = await session(await code(p, userId, "lifetime"), "once");
    expect(res.status, res.text).toBe(200);
    expect(await credits(p, userId)).toBe(0);

    const other = await seller({ "payments.testMode": true });
    const once = await call("/internal/payments/test-mode-purchase-session", {
      ...other.p.admin,
      body: { full_code: await code(other.p, other.userId, "lifetime"), price_id: "once" },
    });
    expect(once.status, once.text).toBe(200);
    const blocked = await session(await code(other.p, other.userId, "pro"), "monthly");
    expect([blocked.status, blocked.text]).toEqual([400, "Customer already has a one-time purchase in this product line"]);
  });

  it("grants a one-time offer when its payment intent succeeds, once, and ignores another account's event", async () => {
    const { p, accountId, userId } = await seller();
    await session(await code(p, userId, "pack"), "one", 2);
    const form = lastForm("/v1/payment_intents");
    const intent = { id: "pi_paid", object: "payment_intent", status: "succeeded", metadata: metadataOf(form) };
    const foreign = await deliverStripeEvent({
      id: "evt_foreign",
      type: "payment_intent.succeeded",
      account: "acct_other",
      data: { object: intent },
    });
    expect(foreign.status).toBe(200);
    expect(await credits(p, userId)).toBe(0);
    for (const id of ["evt_pi", "evt_pi_again"])
      await deliverStripeEvent({ id, type: "payment_intent.succeeded", account: accountId, data: { object: intent } });
    expect(await credits(p, userId)).toBe(200);
  });
});

describe("test purchases and grants", () => {
  it("the console's test purchase takes a quantity of a stackable offer, and is refused outside test mode", async () => {
    const { p, userId } = await seller({ "payments.testMode": true });
    const res = await call("/internal/payments/test-mode-purchase-session", {
      ...p.admin,
      body: { full_code: await code(p, userId, "pack"), price_id: "one", quantity: 3 },
    });
    expect(res.status, res.text).toBe(200);
    expect(await credits(p, userId)).toBe(300);
    const two = await call("/internal/payments/test-mode-purchase-session", {
      ...p.admin,
      body: { full_code: await code(p, userId, "single"), price_id: "one", quantity: 2 },
    });
    expect([two.status, two.text]).toEqual([400, "This product is not stackable; quantity must be 1"]);

    const live = await seller();
    const refused = await call("/internal/payments/test-mode-purchase-session", {
      ...live.p.admin,
      body: { full_code: await code(live.p, live.userId, "pack"), price_id: "one" },
    });
    expect([refused.status, refused.text]).toEqual([403, "Test mode is not enabled for this project"]);
  });

  it("a grant refuses a quantity of a non-stackable offer and names a missing user or team", async () => {
    const p = await projectWithConfig(config);
    const u = await signUp(p.client);
    const two = await call(`/payments/products/user/${u.userId}`, { ...p.server, body: { product_id: "single", quantity: 2 } });
    expect([two.status, two.text]).toEqual([400, "This product is not stackable; quantity must be 1"]);
    const none = await call(`/payments/products/user/${crypto.randomUUID()}`, { ...p.server, body: { product_id: "single" } });
    expect([none.status, none.body.code]).toEqual([404, "USER_NOT_FOUND"]);
    const neither = await call(`/payments/products/user/${u.userId}`, { ...p.server, body: {} });
    expect([neither.status, neither.text]).toEqual([400, "Must specify either product_id or product_inline!"]);
  });

  it("keeps an inline offer's server metadata for servers, never for clients or the purchase page", async () => {
    const p = await projectWithConfig(config);
    const u = await signUp(p.client);
    const inline = {
      display_name: "Inline",
      customer_type: "user",
      server_only: false,
      prices: { monthly: { USD: "5", interval: [1, "month"] } },
      included_items: {},
      client_metadata: { color: "blue" },
      server_metadata: { secret: "internal" },
    };
    const url = await call("/payments/purchases/create-purchase-url", {
      ...p.server,
      body: { customer_type: "user", customer_id: u.userId, product_inline: inline },
    });
    expect(url.status, url.text).toBe(200);
    const validated = await call("/payments/purchases/validate-code", {
      body: { full_code: new URL(url.body.url).pathname.split("/").pop() },
    });
    expect(validated.body.product.client_metadata).toEqual({ color: "blue" });
    expect(validated.body.product).not.toHaveProperty("server_metadata");
    expect((await call(`/payments/products/user/${u.userId}`, { ...p.server, body: { product_inline: inline } })).status).toBe(200);
    const server = await call(`/payments/products/user/${u.userId}`, p.server);
    expect(server.body.items[0].product.server_metadata).toEqual({ secret: "internal" });
    const client = await call(`/payments/products/user/${u.userId}`, { ...p.client, accessToken: u.accessToken });
    expect(client.body.items[0].product).not.toHaveProperty("server_metadata");
  });

  it("a client creates purchase URLs for itself only, with the reference's message", async () => {
    const p = await projectWithConfig(config);
    const u = await signUp(p.client);
    const res = await call("/payments/purchases/create-purchase-url", {
      ...p.client,
      accessToken: u.accessToken,
      body: { customer_type: "user", customer_id: crypto.randomUUID(), product_id: "pack" },
    });
    expect([res.status, res.text]).toEqual([
      403,
      "Clients can only create purchase URLs for their own user or teams they have admin access to.",
    ]);
  });

  it("makes purchase URLs on WEB_APP_URL when it is set", async () => {
    const p = await projectWithConfig(config);
    const u = await signUp(p.client);
    const res = await callWithEnv({ WEB_APP_URL: "https://shop.example.com/" })("/payments/purchases/create-purchase-url", {
      ...p.server,
      body: { customer_type: "user", customer_id: u.userId, product_id: "pack" },
    });
    expect(res.body.url).toMatch(/^https:\/\/shop\.example\.com\/purchase\/[a-z0-9-_]+$/);
  });
});

describe("switching plans", () => {
  const switchPlan = (p: Project, userId: string, body: Record<string, unknown>, auth: Record<string, unknown> = p.server) =>
    stripeCall(`/payments/products/user/${userId}/switch`, { ...auth, body });

  /** Stripe's own API (the fake), as the seller's account: what Stripe.js and the dashboard would do. */
  const stripeApi = (accountId: string, path: string, form?: Record<string, string>) =>
    fetch(`http://stripe.test${path}`, {
      method: form ? "POST" : "GET",
      headers: { authorization: "Bearer sk_test_doorman_fake", "stripe-account": accountId },
      ...(form ? { body: new URLSearchParams(form) } : {}),
    }).then((r) => r.json() as Promise<Record<string, any>>);

  it("moves a Stripe-billed subscription to another product of its line, charged to the default payment method", async () => {
    const { p, accountId, userId } = await seller();
    await session(await code(p, userId, "basic"), "monthly");
    const query = encodeURIComponent(`metadata['customerId']:'${userId}' AND metadata['customerType']:'USER'`);
    const customer = (await stripeApi(accountId, `/v1/customers/search?query=${query}`)).data[0];
    fake.addSubscription(accountId, { ...subscriptionObject("sub_plan", lastForm("/v1/subscriptions"), "active"), customer: customer.id });
    await deliverStripeEvent({
      id: "evt_plan_active",
      type: "customer.subscription.updated",
      account: accountId,
      data: { object: subscriptionObject("sub_plan", lastForm("/v1/subscriptions"), "active") },
    });
    expect(await credits(p, userId)).toBe(10);

    const noCard = await switchPlan(p, userId, { from_product_id: "basic", to_product_id: "pro" });
    expect([noCard.status, noCard.body.code]).toEqual([400, "DEFAULT_PAYMENT_METHOD_REQUIRED"]);
    await stripeApi(accountId, `/v1/customers/${customer.id}`, { "invoice_settings[default_payment_method]": "pm_card_visa" });
    const res = await switchPlan(p, userId, { from_product_id: "basic", to_product_id: "pro" });
    expect([res.status, res.body]).toEqual([200, { success: true }]);
    expect(lastForm("/v1/subscriptions/sub_plan")).toMatchObject({
      payment_behavior: "error_if_incomplete",
      default_payment_method: "pm_card_visa",
      "items[0][id]": "si_fake_item",
      "items[0][price_data][unit_amount]": "2000",
      "metadata[offer_id]": "pro",
    });
    expect((await stripeApi(accountId, "/v1/subscriptions/sub_plan")).status).toBe("active");
    expect(await credits(p, userId)).toBe(1000);
    const owned = await call(`/payments/products/user/${userId}`, p.server);
    expect(owned.body.items.map((i: { id: string }) => i.id)).toEqual(["pro"]);
  });

  it("refuses what the reference refuses, with its messages", async () => {
    const { p, userId } = await seller({ "payments.testMode": true });
    const across = await switchPlan(p, userId, { from_product_id: "pack", to_product_id: "pro" });
    expect([across.status, across.text]).toEqual([400, "Products must be in the same product line to switch."]);
    const same = await switchPlan(p, userId, { from_product_id: "pro", to_product_id: "pro" });
    expect([same.status, same.text]).toEqual([400, "Product is already active."]);
    // A subscription only Doorman knows (test mode) is not billed by Stripe: it cannot be switched.
    const bought = await call("/internal/payments/test-mode-purchase-session", {
      ...p.admin,
      body: { full_code: await code(p, userId, "basic"), price_id: "monthly" },
    });
    expect(bought.status).toBe(200);
    const local = await switchPlan(p, userId, { from_product_id: "basic", to_product_id: "pro" });
    expect([local.status, local.text]).toEqual([400, "This subscription cannot be switched."]);
    const other = await signUp(p.client);
    const asOther = { ...p.client, accessToken: other.accessToken };
    const forbidden = await switchPlan(p, userId, { from_product_id: "basic", to_product_id: "pro" }, asOther);
    expect([forbidden.status, forbidden.text]).toEqual([403, "Clients can only manage their own subscriptions."]);
    const missing = await switchPlan(p, crypto.randomUUID(), { from_product_id: "basic", to_product_id: "pro" });
    expect(missing.body.code).toBe("USER_NOT_FOUND");
  });
});

describe("config defaults", () => {
  it("an item without a display name or customer type is the reference's default: its id, for users", async () => {
    const p = await projectWithConfig({ "payments.items.seats": {} });
    const u = await signUp(p.client);
    const res = await call(`/payments/items/user/${u.userId}/seats`, p.server);
    expect([res.status, res.body]).toEqual([200, { id: "seats", display_name: "seats", quantity: 0 }]);
  });
});

describe("payments.blockNewPurchases", () => {
  it("refuses purchase URLs, purchase sessions and test purchases with NEW_PURCHASES_BLOCKED, and lets them through once turned off", async () => {
    const { p, userId } = await seller({ "payments.testMode": true });
    const liveCode = await code(p, userId, "pack");
    const block = (on: boolean) =>
      call("/internal/config/override/environment", {
        ...p.admin,
        method: "PATCH",
        body: { config_override_string: JSON.stringify({ "payments.blockNewPurchases": on }) },
      });
    expect((await block(true)).status).toBe(200);
    const url = await stripeCall("/payments/purchases/create-purchase-url", {
      ...p.server,
      body: { customer_type: "user", customer_id: userId, product_id: "pack" },
    });
    expect([url.status, url.body.code]).toEqual([403, "NEW_PURCHASES_BLOCKED"]);
    expect((await session(liveCode, "one")).body.code).toBe("NEW_PURCHASES_BLOCKED");
    const test = await call("/internal/payments/test-mode-purchase-session", {
      ...p.admin,
      body: { full_code: liveCode, price_id: "one" },
    });
    expect([test.status, test.body.code]).toEqual([403, "NEW_PURCHASES_BLOCKED"]);
    const switched = await stripeCall(`/payments/products/user/${userId}/switch`, {
      ...p.server,
      body: { from_product_id: "basic", to_product_id: "pro" },
    });
    expect([switched.status, switched.body.code]).toEqual([403, "NEW_PURCHASES_BLOCKED"]);
    expect((await block(false)).status).toBe(200);
    expect((await session(liveCode, "one")).status).toBe(200);
  });

  it("is a boolean", async () => {
    const p = await projectWithConfig({});
    const res = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "payments.blockNewPurchases": "yes" }) },
    });
    expect(res.status).toBe(400);
  });
});

/** The metadata of a form Doorman sent the fake (`metadata[key]=value`), as Stripe echoes it in events. */
function metadataOf(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form)
      .map(([key, value]) => [/^metadata\[(.+)\]$/.exec(key)?.[1], value] as const)
      .filter((entry): entry is readonly [string, string] => entry[0] !== undefined),
  );
}

const fakeItems = () => ({
  object: "list",
  data: [{ id: "si_fake_item", object: "subscription_item", current_period_end: 2_000_000_000 }],
});

/** A subscription object as Stripe sends it in events, with the metadata Doorman sent. */
function subscriptionObject(id: string, form: Record<string, string>, status: string) {
  return { id, object: "subscription", status, metadata: metadataOf(form), cancel_at_period_end: false, items: fakeItems() };
}
