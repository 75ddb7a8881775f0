/**
 * Canceling a subscription Stripe bills (DELETE /payments/products/…) in live mode: it is canceled
 * at Stripe on the project's connected account (the fake records the call), ends here at once, and
 * a second cancel finds nothing to cancel. Without Stripe configured it is a clear 400, not a 500.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, type createProjectWithKeys, projectWithConfig, signUp } from "../helpers/api";
import { connectStripe, deliverStripeEvent, installStripeFake, stripeCall } from "../helpers/stripe-fake";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const config = {
  "payments.testMode": false,
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    serverOnly: false,
    stackable: false,
    prices: { monthly: { USD: "20", interval: [1, "month"] } },
    includedItems: {},
  },
};

let fake: ReturnType<typeof installStripeFake>;
beforeEach(() => {
  fake = installStripeFake();
});
afterEach(() => fake.restore());

/** A live project whose user subscribed to "pro" through Stripe Checkout (the webhook recorded it). */
async function subscribed(): Promise<{ p: Project; accountId: string; user: Awaited<ReturnType<typeof signUp>>; subId: string }> {
  const p = await projectWithConfig(config);
  const accountId = await connectStripe(p);
  const user = await signUp(p.client);
  const url = await call("/payments/purchases/create-purchase-url", {
    ...p.server,
    body: { customer_type: "user", customer_id: user.userId, offer_id: "pro" },
  });
  const fullCode = decodeURIComponent(new URL(url.body.url).pathname.split("/").pop()!);
  const session = await stripeCall("/payments/purchases/checkout-session", { body: { full_code: fullCode, price_id: "monthly" } });
  expect(session.status, session.text).toBe(200);
  const subId = `sub_${crypto.randomUUID().replaceAll("-", "")}`;
  const now = Math.floor(Date.now() / 1000);
  fake.addSubscription(accountId, {
    id: subId,
    object: "subscription",
    status: "active",
    cancel_at_period_end: false,
    ended_at: null,
    items: { object: "list", data: [{ id: "si_1", object: "subscription_item", current_period_end: now + 30 * 86400 }] },
  });
  const completed = {
    id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
    type: "checkout.session.completed",
    account: accountId,
    data: {
      object: {
        id: new URL(session.body.url).pathname.split("/").pop()!,
        object: "checkout.session",
        mode: "subscription",
        payment_status: "paid",
        status: "complete",
        payment_intent: null,
        subscription: subId,
        metadata: fake.lastCheckoutMetadata(),
      },
    },
  };
  expect((await deliverStripeEvent(completed)).status).toBe(200);
  return { p, accountId, user, subId };
}

const purchases = async (p: Project, userId: string) => (await call(`/payments/purchases/user/${userId}`, p.server)).body.items;

describe("cancel a Stripe-billed subscription", () => {
  it("is canceled at Stripe on the connected account and ends here; a second cancel has nothing to cancel", async () => {
    const { p, accountId, user, subId } = await subscribed();
    const res = await stripeCall(`/payments/products/user/${user.userId}/pro`, {
      ...p.client,
      accessToken: user.accessToken,
      method: "DELETE",
    });
    expect(res.status, res.text).toBe(200);
    const sent = fake.requests.find((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${subId}`);
    expect(sent?.headers.get("stripe-account")).toBe(accountId);
    const [row] = await purchases(p, user.userId);
    expect(row.status).toBe("canceled");
    expect((await call(`/payments/products/user/${user.userId}`, p.server)).body.items).toEqual([]);
    const again = await stripeCall(`/payments/products/user/${user.userId}/pro`, { ...p.server, method: "DELETE" });
    expect(again.status).toBe(400);
    expect(again.text).toBe("Customer does not have this product.");
  });

  it("without Stripe configured on the server it is a clear 400 and the subscription stays", async () => {
    const { p, user } = await subscribed();
    const res = await call(`/payments/products/user/${user.userId}/pro`, { ...p.server, method: "DELETE" });
    expect(res.status).toBe(400);
    expect(res.text).toContain("Stripe is not configured");
    expect((await purchases(p, user.userId))[0].status).toBe("active");
  });
});
