/**
 * The payments ledger (the reference's wire): Stripe events in the reference's shapes (a one-time
 * PaymentIntent, a customer's subscriptions synced from Stripe, invoices), the transactions list
 * with its filters and cursor, refunds through Stripe, and a customer's billing and invoices.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, type createProjectWithKeys, projectWithConfig, signUp } from "../helpers/api";
import { connectStripe, deliverStripeEvent, installStripeFake, stripeCall } from "../helpers/stripe-fake";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const once = {
  displayName: "Credit pack",
  customerType: "user",
  serverOnly: false,
  stackable: true,
  prices: { one: { USD: "50" } },
  includedItems: { credits: { quantity: 10 } },
};
const monthly = {
  displayName: "Pro",
  customerType: "user",
  serverOnly: false,
  stackable: false,
  prices: { monthly: { USD: "10", interval: [1, "month"] } },
  includedItems: { credits: { quantity: 100, expires: "when-purchase-expires" } },
};
const config = (testMode: boolean) => ({
  "payments.testMode": testMode,
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.products.pack": once,
  "payments.products.pro": monthly,
});

let fake: ReturnType<typeof installStripeFake>;
beforeEach(() => {
  fake = installStripeFake();
});
afterEach(() => fake.restore());

const eventId = () => `evt_${crypto.randomUUID().replaceAll("-", "")}`;

async function seller(testMode = false): Promise<{ p: Project; accountId: string; userId: string; accessToken: string }> {
  const p = await projectWithConfig(config(testMode));
  const accountId = await connectStripe(p);
  const u = await signUp(p.client);
  return { p, accountId, userId: u.userId, accessToken: u.accessToken };
}

const credits = async (p: Project, userId: string) => (await stripeCall(`/payments/items/user/${userId}/credits`, p.server)).body.quantity;
const transactions = (p: Project, query = "") => stripeCall(`/internal/payments/transactions${query}`, p.admin);

/** The reference's purchase page charge: payment_intent.succeeded with the product in its metadata. */
function oneTimePayment(accountId: string, userId: string, quantity = 1, id = eventId()) {
  return {
    id,
    type: "payment_intent.succeeded",
    account: accountId,
    data: {
      object: {
        id: `pi_${crypto.randomUUID().replaceAll("-", "")}`,
        object: "payment_intent",
        amount_received: 5000 * quantity,
        currency: "usd",
        charges: { data: [{ receipt_url: "https://pay.example/receipt/1" }] },
        metadata: {
          productId: "pack",
          product: JSON.stringify(once),
          customerId: userId,
          customerType: "user",
          purchaseQuantity: String(quantity),
          purchaseKind: "ONE_TIME",
          priceId: "one",
        },
      },
    },
  };
}

async function paidOnce(s: { p: Project; accountId: string; userId: string }, quantity = 1) {
  expect((await deliverStripeEvent(oneTimePayment(s.accountId, s.userId, quantity))).status).toBe(200);
  const list = await transactions(s.p);
  return list.body.transactions.find((t: { type: string }) => t.type === "purchase");
}

describe("Stripe events in the reference's shapes", () => {
  it("a one-time PaymentIntent grants once (redelivered too) and queues one receipt", async () => {
    const s = await seller();
    const event = oneTimePayment(s.accountId, s.userId, 2);
    expect((await deliverStripeEvent(event)).body).toEqual({ received: true });
    expect((await deliverStripeEvent(event)).status).toBe(200);
    expect(await credits(s.p, s.userId)).toBe(20);
    const outbox = await stripeCall("/emails/outbox", s.p.server);
    const receipts = outbox.body.items.filter((e: { variables: Record<string, unknown> }) => e.variables.productName === "Credit pack");
    expect(receipts.map((e: { variables: unknown }) => e.variables)).toEqual([
      { productName: "Credit pack", quantity: 2, amount: "USD 100.00", receiptLink: "https://pay.example/receipt/1" },
    ]);
  });

  it("another account's payment grants nothing in the project", async () => {
    const s = await seller();
    expect((await deliverStripeEvent(oneTimePayment("acct_someone_else", s.userId))).status).toBe(200);
    expect(await credits(s.p, s.userId)).toBe(0);
  });

  it("syncs a customer's subscriptions from Stripe on invoice and subscription events", async () => {
    const s = await seller();
    fake.addCustomer(s.accountId, { id: "cus_sync", metadata: { customerId: s.userId, customerType: "USER" } });
    const now = Math.floor(Date.now() / 1000);
    const sub = {
      id: "sub_sync",
      object: "subscription",
      customer: "cus_sync",
      status: "active",
      cancel_at_period_end: false,
      items: { data: [{ quantity: 1, current_period_start: now - 60, current_period_end: now + 3600 }] },
      metadata: { productId: "pro", product: JSON.stringify(monthly), priceId: "monthly" },
    };
    fake.addSubscription(s.accountId, sub);
    const paid = {
      id: "in_sync",
      object: "invoice",
      customer: "cus_sync",
      billing_reason: "subscription_create",
      status: "paid",
      total: 1000,
      currency: "usd",
    };
    expect((await deliverStripeEvent({ id: eventId(), type: "invoice.paid", account: s.accountId, data: { object: paid } })).status).toBe(
      200,
    );
    expect(await credits(s.p, s.userId)).toBe(100);
    fake.addSubscription(s.accountId, { ...sub, status: "canceled", ended_at: now - 1 });
    const updated = {
      id: eventId(),
      type: "customer.subscription.updated",
      account: s.accountId,
      data: { object: { customer: "cus_sync" } },
    };
    expect((await deliverStripeEvent(updated)).status).toBe(200);
    expect(await credits(s.p, s.userId)).toBe(0);
    const invoices = await stripeCall(`/payments/invoices/user/${s.userId}`, s.p.server);
    expect(invoices.body.items).toEqual([expect.objectContaining({ status: "paid", amount_total: 1000, hosted_invoice_url: null })]);
  });

  it("refuses a signed event of a type it does not take with a 500 naming it, so Stripe retries", async () => {
    const res = await deliverStripeEvent({ id: eventId(), type: "mock_event.succeeded", account: "acct_x", data: { object: {} } });
    expect(res.status).toBe(500);
    expect(res.text).toContain("Unknown stripe webhook type received: mock_event.succeeded");
  });
});

describe("GET /internal/payments/transactions", () => {
  it("lists purchases, manual changes and grants newest first, with the reference's entries", async () => {
    const s = await seller(true);
    const url = await call("/payments/purchases/create-purchase-url", {
      ...s.p.server,
      body: { customer_type: "user", customer_id: s.userId, product_id: "pro" },
    });
    const code = decodeURIComponent(new URL(url.body.url).pathname.split("/").pop()!);
    expect(
      (await call("/internal/payments/test-mode-purchase-session", { ...s.p.admin, body: { full_code: code, price_id: "monthly" } }))
        .status,
    ).toBe(200);
    const change = await call(`/payments/items/user/${s.userId}/credits/update-quantity?allow_negative=false`, {
      ...s.p.server,
      body: { delta: 5 },
    });
    expect(change.status, change.text).toBe(200);
    const grant = await call(`/payments/products/user/${s.userId}`, { ...s.p.server, body: { product_id: "pack", quantity: 3 } });
    expect(grant.status, grant.text).toBe(200);

    const all = await transactions(s.p);
    expect(all.status, all.text).toBe(200);
    expect(all.body.next_cursor).toBeNull();
    const [granted, manual, bought] = all.body.transactions;
    expect(granted).toMatchObject({ type: "purchase", test_mode: false, adjusted_by: [] });
    expect(granted.entries).toEqual([
      expect.objectContaining({ type: "product_grant", product_id: "pack", price_id: null, quantity: 3, one_time_purchase_id: granted.id }),
    ]);
    expect(manual).toMatchObject({ type: "manual-item-quantity-change", test_mode: false });
    expect(manual.entries).toEqual([
      {
        type: "item_quantity_change",
        adjusted_transaction_id: null,
        adjusted_entry_index: null,
        customer_type: "user",
        customer_id: s.userId,
        item_id: "credits",
        quantity: 5,
      },
    ]);
    expect(bought).toMatchObject({ type: "purchase", test_mode: true });
    expect(bought.entries[0]).toMatchObject({ product_id: "pro", price_id: "monthly", subscription_id: bought.id });
    expect(bought.entries[0].product).toEqual({
      display_name: "Pro",
      customer_type: "user",
      stackable: false,
      server_only: false,
      included_items: { credits: { quantity: 100, repeat: "never", expires: "when-purchase-expires" } },
      prices: { monthly: { USD: "10", interval: [1, "month"] } },
      client_metadata: null,
      client_read_only_metadata: null,
      server_metadata: null,
    });

    expect((await transactions(s.p, "?type=manual-item-quantity-change")).body.transactions).toHaveLength(1);
    expect((await transactions(s.p, "?type=purchase")).body.transactions).toHaveLength(2);
    expect((await transactions(s.p, "?type=chargeback")).body.transactions).toEqual([]);
    expect((await transactions(s.p, "?customer_type=team")).body.transactions).toEqual([]);

    // Page by page: every transaction once, in the same order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { transactions: { id: string }[]; next_cursor: string | null } } = await transactions(
        s.p,
        `?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.body.transactions.map((t) => t.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.body.transactions.map((t: { id: string }) => t.id));
    expect((await transactions(s.p, "?cursor=bm9wZQ")).status).toBe(400);
    expect((await transactions(s.p, "?type=nope")).body.code).toBe("SCHEMA_ERROR");
  });
});

describe("POST /internal/payments/transactions/refund", () => {
  const refund = (p: Project, body: Record<string, unknown>) => stripeCall("/internal/payments/transactions/refund", { ...p.admin, body });

  it("refunds through Stripe once, takes the purchase back and marks the transaction adjusted", async () => {
    const s = await seller();
    const tx = await paidOnce(s);
    expect(tx.entries.map((e: { type: string }) => e.type)).toEqual(["product_grant", "money_transfer"]);
    expect(tx.entries[1]).toMatchObject({ charged_amount: { USD: "50" }, net_amount: { USD: "50" } });
    const res = await refund(s.p, {
      type: "one-time-purchase",
      id: tx.id,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "12.5" }],
    });
    expect([res.status, res.body]).toEqual([200, { success: true }]);
    expect(fake.refundsOf(s.accountId)).toEqual([expect.objectContaining({ amount: 1250, payment_intent: expect.stringMatching(/^pi_/) })]);
    expect(await credits(s.p, s.userId)).toBe(0);
    const after = (await transactions(s.p)).body.transactions.find((t: { id: string }) => t.id === tx.id);
    expect(after.adjusted_by).toEqual([{ transaction_id: `${tx.id}:refund`, entry_index: 0 }]);
    const again = await refund(s.p, {
      type: "one-time-purchase",
      id: tx.id,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "1" }],
    });
    expect(again.body.code).toBe("ONE_TIME_PURCHASE_ALREADY_REFUNDED");
  });

  it("two concurrent refunds of one purchase refund once", async () => {
    const s = await seller();
    const tx = await paidOnce(s);
    const body = { type: "one-time-purchase", id: tx.id, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "50" }] };
    const results = await Promise.all([refund(s.p, body), refund(s.p, body), refund(s.p, body)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect(fake.refundsOf(s.accountId)).toHaveLength(1);
  });

  it("checks the entries with the reference's messages", async () => {
    const s = await seller();
    const tx = await paidOnce(s, 2);
    const message = async (entries: unknown[]) => {
      const res = await refund(s.p, { type: "one-time-purchase", id: tx.id, refund_entries: entries });
      expect(res.body.code).toBe("SCHEMA_ERROR");
      return res.body.details?.message;
    };
    expect(await message([{ entry_index: 5, quantity: 1, amount_usd: "1" }])).toBe("Refund entry index is invalid.");
    expect(await message([{ entry_index: -1, quantity: 1, amount_usd: "1" }])).toBe("Refund entry index is invalid.");
    expect(await message([{ entry_index: 1, quantity: 1, amount_usd: "1" }])).toBe("Refund entries must reference product grant entries.");
    expect(await message([{ entry_index: 0, quantity: -1, amount_usd: "1" }])).toBe("Refund quantity cannot be negative.");
    expect(await message([{ entry_index: 0, quantity: 3, amount_usd: "1" }])).toBe("Refund quantity cannot exceed purchased quantity.");
    expect(await message([{ entry_index: 0, quantity: 1, amount_usd: "100.01" }])).toBe("Refund amount cannot exceed the charged amount.");
    expect(
      await message([
        { entry_index: 0, quantity: 1, amount_usd: "1" },
        { entry_index: 0, quantity: 1, amount_usd: "1" },
      ]),
    ).toBe("Refund entries cannot contain duplicate entry indexes.");
    await message([{ entry_index: 0, quantity: 1, amount_usd: "-1" }]);
    await message([{ entry_index: 0, quantity: 1.5, amount_usd: "1" }]);
    expect(fake.refundsOf(s.accountId)).toEqual([]);
    expect(await credits(s.p, s.userId)).toBe(20);
  });

  it("a partial quantity takes back only that many; test-mode and unknown purchases are refused", async () => {
    const s = await seller();
    const tx = await paidOnce(s, 2);
    expect(
      (await refund(s.p, { type: "one-time-purchase", id: tx.id, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }] }))
        .status,
    ).toBe(200);
    expect(await credits(s.p, s.userId)).toBe(10);
    expect(fake.refundsOf(s.accountId)).toEqual([]);
    const missing = crypto.randomUUID();
    expect((await refund(s.p, { type: "subscription", id: missing, refund_entries: [] })).body).toMatchObject({
      code: "SUBSCRIPTION_INVOICE_NOT_FOUND",
      details: { subscription_invoice_id: missing },
    });
    expect((await refund(s.p, { type: "one-time-purchase", id: missing, refund_entries: [] })).body.code).toBe(
      "ONE_TIME_PURCHASE_NOT_FOUND",
    );

    const t = await seller(true);
    const url = await call("/payments/purchases/create-purchase-url", {
      ...t.p.server,
      body: { customer_type: "user", customer_id: t.userId, product_id: "pack" },
    });
    const code = decodeURIComponent(new URL(url.body.url).pathname.split("/").pop()!);
    expect(
      (await call("/internal/payments/test-mode-purchase-session", { ...t.p.admin, body: { full_code: code, price_id: "one" } })).status,
    ).toBe(200);
    const [bought] = (await transactions(t.p)).body.transactions;
    const res = await refund(t.p, {
      type: "one-time-purchase",
      id: bought.id,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "50" }],
    });
    expect([res.status, res.body.code]).toEqual([400, "TEST_MODE_PURCHASE_NON_REFUNDABLE"]);
  });
});

describe("billing and invoices", () => {
  it("no connected account: no customer and no invoices", async () => {
    const p = await projectWithConfig(config(true));
    const u = await signUp(p.client);
    const me = { ...p.client, accessToken: u.accessToken };
    expect((await stripeCall(`/payments/billing/user/${u.userId}`, me)).body).toEqual({
      has_customer: false,
      default_payment_method: null,
    });
    expect((await stripeCall(`/payments/invoices/user/${u.userId}`, me)).body).toEqual({
      items: [],
      is_paginated: true,
      pagination: { next_cursor: null },
    });
  });

  it("a setup intent makes the Stripe customer once; clients reach only their own billing and their teams' as admins", async () => {
    const s = await seller();
    const me = { ...s.p.client, accessToken: s.accessToken };
    expect((await stripeCall(`/payments/billing/user/${s.userId}`, me)).body.has_customer).toBe(false);
    const intent = await stripeCall(`/payments/payment-method/user/${s.userId}/setup-intent`, { ...me, body: {} });
    expect(intent.status, intent.text).toBe(200);
    expect(intent.body).toEqual({ client_secret: expect.stringMatching(/^seti_/), stripe_account_id: s.accountId });
    expect((await stripeCall(`/payments/payment-method/user/${s.userId}/setup-intent`, { ...me, body: {} })).status).toBe(200);
    expect(fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/customers")).toHaveLength(1);
    expect((await stripeCall(`/payments/billing/user/${s.userId}`, me)).body).toEqual({ has_customer: true, default_payment_method: null });

    const other = await signUp(s.p.client);
    const theirs = await stripeCall(`/payments/billing/user/${other.userId}`, me);
    expect([theirs.status, theirs.text]).toEqual([403, "Clients can only manage their own billing."]);
    expect((await stripeCall(`/payments/invoices/user/${other.userId}`, me)).status).toBe(403);
    expect((await stripeCall(`/payments/billing/user/${other.userId}`, s.p.server)).status).toBe(200);

    const team = await call("/teams", { ...s.p.server, body: { display_name: "Acme", creator_user_id: s.userId } });
    expect(team.status, team.text).toBe(201);
    expect((await call(`/team-memberships/${team.body.id}/${other.userId}`, { ...s.p.server, body: {} })).status).toBe(201);
    expect((await stripeCall(`/payments/payment-method/team/${team.body.id}/setup-intent`, { ...me, body: {} })).status).toBe(200);
    const member = await stripeCall(`/payments/billing/team/${team.body.id}`, { ...s.p.client, accessToken: other.accessToken });
    expect([member.status, member.body.code]).toEqual([401, "TEAM_PERMISSION_REQUIRED"]);
  });
});
