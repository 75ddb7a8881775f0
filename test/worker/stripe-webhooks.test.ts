/**
 * The Stripe webhook endpoint (issue 15): events signed by the `stripe` package's own
 * generateTestHeaderString reach POST /integrations/stripe/webhooks. A paid checkout grants the
 * offer's items once even when delivered twice; a bad signature is refused and changes nothing;
 * renewals, cancellations and refunds change the purchase and so the customer's quantities.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, type createProjectWithKeys, projectWithConfig, signUp } from "../helpers/api";
import { connectStripe, deliverStripeEvent, installStripeFake, stripeCall } from "../helpers/stripe-fake";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const config = {
  "payments.testMode": false,
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.offers.pack": {
    displayName: "Credit pack",
    customerType: "user",
    serverOnly: false,
    stackable: true,
    prices: { one: { USD: "9.99" } },
    includedItems: { credits: { quantity: 100 } },
  },
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    serverOnly: false,
    stackable: false,
    prices: { monthly: { USD: "20", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 1000, expires: "when-purchase-expires" } },
  },
};

let fake: ReturnType<typeof installStripeFake>;
beforeEach(() => {
  fake = installStripeFake();
});
afterEach(() => fake.restore());

/** A live project with its connected account, and a customer. */
async function seller(): Promise<{ p: Project; accountId: string; userId: string }> {
  const p = await projectWithConfig(config);
  const accountId = await connectStripe(p);
  const u = await signUp(p.client);
  return { p, accountId, userId: u.userId };
}

/** The customer starts a Stripe Checkout; answers the session id and the metadata Doorman gave Stripe. */
async function checkout(p: Project, userId: string, offerId: string, priceId: string, quantity = 1) {
  const url = await call("/payments/purchases/create-purchase-url", {
    ...p.server,
    body: { customer_type: "user", customer_id: userId, offer_id: offerId },
  });
  expect(url.status, url.text).toBe(200);
  const fullCode = decodeURIComponent(new URL(url.body.url).pathname.split("/").pop()!);
  const session = await stripeCall("/payments/purchases/checkout-session", { body: { full_code: fullCode, price_id: priceId, quantity } });
  expect(session.status, session.text).toBe(200);
  const sessionId = new URL(session.body.url).pathname.split("/").pop()!;
  return { fullCode, sessionId, metadata: fake.lastCheckoutMetadata() };
}

const credits = async (p: Project, userId: string) => {
  const res = await call(`/payments/items/user/${userId}/credits`, p.server);
  expect(res.status, res.text).toBe(200);
  return res.body.quantity as number;
};
const purchases = async (p: Project, userId: string) =>
  (await call(`/payments/purchases/user/${userId}`, p.server)).body.items as Record<string, unknown>[];

const eventId = () => `evt_${crypto.randomUUID().replaceAll("-", "")}`;

function checkoutCompleted(
  accountId: string,
  c: { sessionId: string; metadata: Record<string, string> },
  extra: Record<string, unknown> = {},
) {
  return {
    id: eventId(),
    type: "checkout.session.completed",
    account: accountId,
    data: {
      object: {
        id: c.sessionId,
        object: "checkout.session",
        mode: "payment",
        payment_status: "paid",
        status: "complete",
        payment_intent: `pi_${crypto.randomUUID().replaceAll("-", "")}`,
        subscription: null,
        metadata: c.metadata,
        ...extra,
      },
    },
  };
}

describe("Stripe webhooks", () => {
  it("grants a paid checkout's items once, even when the event is delivered twice", async () => {
    const { p, accountId, userId } = await seller();
    const c = await checkout(p, userId, "pack", "one", 2);
    expect(await credits(p, userId)).toBe(0);
    const event = checkoutCompleted(accountId, c);

    const first = await deliverStripeEvent(event);
    expect([first.status, first.body]).toEqual([200, { received: true }]);
    expect(await credits(p, userId)).toBe(200);
    const again = await deliverStripeEvent(event);
    expect(again.status, again.text).toBe(200);
    expect(await credits(p, userId)).toBe(200);
    // Another event for the same session (Stripe can send one twice under two ids) is still one purchase.
    expect((await deliverStripeEvent({ ...event, id: eventId() })).status).toBe(200);
    expect(await credits(p, userId)).toBe(200);

    const list = await purchases(p, userId);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ offer_id: "pack", price_id: "one", quantity: 2, kind: "one_time", status: "active", source: "stripe" });
    // The purchase code is spent: the purchase page cannot start another checkout with it.
    const reuse = await stripeCall("/payments/purchases/checkout-session", { body: { full_code: c.fullCode, price_id: "one" } });
    expect(reuse.body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
  });

  it("refuses a bad signature with 400 and changes nothing", async () => {
    const { p, accountId, userId } = await seller();
    const c = await checkout(p, userId, "pack", "one");
    const event = checkoutCompleted(accountId, c);

    const wrongSecret = await deliverStripeEvent(event, { secret: "whsec_someone_else" });
    expect(wrongSecret.status).toBe(400);
    // The signed body, changed after signing (here: a bigger quantity).
    const tampered = await deliverStripeEvent(event, { tamper: (body) => body.replace('"quantity":"1"', '"quantity":"9"') });
    expect(tampered.status).toBe(400);
    // An event signed long ago (a replay) is outside Stripe's 5-minute tolerance.
    const replayed = await deliverStripeEvent(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(replayed.status).toBe(400);
    const unsigned = await stripeCall("/integrations/stripe/webhooks", { rawBody: JSON.stringify(event), contentType: "application/json" });
    expect(unsigned.status).toBe(400);
    expect(await credits(p, userId)).toBe(0);
    expect(await purchases(p, userId)).toHaveLength(0);

    // The refused deliveries recorded nothing: the genuine one is still handled.
    expect((await deliverStripeEvent(event)).status).toBe(200);
    expect(await credits(p, userId)).toBe(100);
  });

  it("grants only events from the project's own connected account", async () => {
    const { p, accountId, userId } = await seller();
    const c = await checkout(p, userId, "pack", "one");
    // Another seller's account claiming this project in its metadata.
    const res = await deliverStripeEvent(checkoutCompleted("acct_someone_else", c));
    expect(res.status).toBe(200);
    expect(await credits(p, userId)).toBe(0);
    // An unpaid checkout (an async payment still pending) grants nothing yet.
    await deliverStripeEvent(checkoutCompleted(accountId, c, { payment_status: "unpaid" }));
    expect(await credits(p, userId)).toBe(0);
  });

  it("a full refund revokes the purchase's items; a partial one keeps them", async () => {
    const { p, accountId, userId } = await seller();
    const c = await checkout(p, userId, "pack", "one");
    const event = checkoutCompleted(accountId, c, { payment_intent: "pi_refund_me" });
    await deliverStripeEvent(event);
    expect(await credits(p, userId)).toBe(100);
    const charge = (refunded: boolean) => ({
      id: eventId(),
      type: "charge.refunded",
      account: accountId,
      data: {
        object: {
          id: "ch_1",
          object: "charge",
          payment_intent: "pi_refund_me",
          amount: 999,
          amount_refunded: refunded ? 999 : 300,
          refunded,
        },
      },
    });
    expect((await deliverStripeEvent(charge(false))).status).toBe(200);
    expect(await credits(p, userId)).toBe(100);
    expect((await deliverStripeEvent(charge(true))).status).toBe(200);
    expect(await credits(p, userId)).toBe(0);
    expect((await purchases(p, userId))[0]).toMatchObject({ status: "refunded" });
  });

  it("follows a subscription: its period from Stripe, renewals, and the end removes the items that end with it", async () => {
    const { p, accountId, userId } = await seller();
    const c = await checkout(p, userId, "pro", "monthly");
    const now = Math.floor(Date.now() / 1000);
    const subscription = {
      id: "sub_doorman_test",
      object: "subscription",
      status: "active",
      cancel_at_period_end: false,
      ended_at: null,
      items: { object: "list", data: [{ id: "si_1", object: "subscription_item", current_period_end: now + 30 * 86400 }] },
    };
    fake.addSubscription(accountId, subscription);
    const completed = checkoutCompleted(accountId, c, { mode: "subscription", payment_intent: null, subscription: subscription.id });
    expect((await deliverStripeEvent(completed)).status).toBe(200);
    expect(await credits(p, userId)).toBe(1000);
    // The period end came from the subscription at Stripe (read on the connected account).
    const read = fake.requests.find((r) => r.path === `/v1/subscriptions/${subscription.id}`)!;
    expect(read.headers.get("stripe-account")).toBe(accountId);
    expect((await purchases(p, userId))[0]).toMatchObject({
      kind: "subscription",
      status: "active",
      current_period_end_millis: (now + 30 * 86400) * 1000,
    });

    // A renewal: the new period's end (current API versions name the subscription under parent).
    const renewed = now + 61 * 86400;
    const invoice = {
      id: eventId(),
      type: "invoice.paid",
      account: accountId,
      data: {
        object: {
          id: "in_1",
          object: "invoice",
          billing_reason: "subscription_cycle",
          parent: { type: "subscription_details", subscription_details: { subscription: subscription.id } },
          lines: { object: "list", data: [{ id: "il_1", period: { start: now + 30 * 86400, end: renewed } }] },
        },
      },
    };
    expect((await deliverStripeEvent(invoice)).status).toBe(200);
    expect((await purchases(p, userId))[0]).toMatchObject({ current_period_end_millis: renewed * 1000 });

    // Canceled at period end: still owned until Stripe ends it.
    const updated = {
      ...subscription,
      cancel_at_period_end: true,
      items: { object: "list", data: [{ id: "si_1", current_period_end: renewed }] },
    };
    await deliverStripeEvent({ id: eventId(), type: "customer.subscription.updated", account: accountId, data: { object: updated } });
    expect((await purchases(p, userId))[0]).toMatchObject({ status: "active", cancel_at_period_end: true });
    expect(await credits(p, userId)).toBe(1000);

    const deleted = { ...updated, status: "canceled", ended_at: now };
    const end = { id: eventId(), type: "customer.subscription.deleted", account: accountId, data: { object: deleted } };
    expect((await deliverStripeEvent(end)).status).toBe(200);
    expect(await credits(p, userId)).toBe(0);
    expect((await purchases(p, userId))[0]).toMatchObject({ status: "canceled", ended_at_millis: now * 1000 });
    // A redelivered end changes nothing more.
    expect((await deliverStripeEvent(end)).status).toBe(200);
    expect(await credits(p, userId)).toBe(0);
  });

  it("answers 200 to events it takes but needs nothing from, and a 500 naming an unknown type (so Stripe retries and shows it)", async () => {
    const ignored = await deliverStripeEvent({
      id: eventId(),
      type: "account.updated",
      account: "acct_x",
      data: { object: { id: "acct_x", object: "account" } },
    });
    expect([ignored.status, ignored.body]).toEqual([200, { received: true }]);
    const id = eventId();
    const payout = { id, type: "payout.paid", account: "acct_x", data: { object: { id: "po_1", object: "payout" } } };
    const unknown = await deliverStripeEvent(payout);
    expect([unknown.status, unknown.text]).toEqual([500, "Unknown stripe webhook type received: payout.paid"]);
    // Not recorded as handled: Stripe's retry is answered the same way.
    expect((await deliverStripeEvent(payout)).status).toBe(500);
  });
});
