/**
 * Offers and purchases (issue 15): create-purchase-url with its errors, validate-code, the
 * test-mode checkout granting items exactly as a payment would, a code buying once under
 * concurrency, groups (one plan at a time), server grants and the per-customer purchase list.
 */
import { describe, expect, it } from "vitest";
import { call, type createProjectWithKeys, projectWithConfig, signUp } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
const DAY = 86_400_000;

const CONFIG = {
  "domains.trustedDomains.app": { baseUrl: "https://app.example.com", handlerPath: "/handler" },
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.offers.pack": {
    displayName: "Credit pack",
    customerType: "user",
    serverOnly: false,
    stackable: true,
    prices: { once: { USD: "5.00" } },
    includedItems: { credits: { quantity: 100 } },
  },
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    groupId: "plans",
    serverOnly: false,
    stackable: false,
    prices: { monthly: { USD: "20.00", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 1000, repeat: [1, "month"], expires: "when-repeated" } },
  },
  "payments.offers.team": {
    displayName: "Team",
    customerType: "user",
    groupId: "plans",
    serverOnly: false,
    stackable: false,
    prices: { monthly: { USD: "50.00", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 5000, repeat: [1, "month"], expires: "when-repeated" } },
  },
  "payments.offers.secret": {
    displayName: "Internal",
    customerType: "user",
    serverOnly: true,
    stackable: false,
    prices: { once: { USD: "1.00" } },
    includedItems: {},
  },
  "payments.offers.seats": {
    displayName: "Seats",
    customerType: "team",
    serverOnly: false,
    stackable: false,
    prices: { once: { EUR: "9.00" } },
    includedItems: {},
  },
};

function shop(): Promise<Project> {
  return projectWithConfig(CONFIG);
}

const fullCode = (url: string) => decodeURIComponent(new URL(url).pathname.split("/purchase/")[1]!);
const createUrl = (access: object, body: Record<string, unknown>) => call("/payments/purchases/create-purchase-url", { ...access, body });
const pay = (code: string, priceId: string, extra: Record<string, unknown> = {}, nowMs?: number) =>
  call("/payments/purchases/test-mode-purchase", {
    body: { full_code: code, price_id: priceId, card_number: "4242 4242 4242 4242", ...extra },
    nowMs,
  });
const credits = async (p: Project, userId: string, nowMs?: number) =>
  (await call(`/payments/items/user/${userId}/credits`, { ...p.server, nowMs })).body.quantity;

describe("purchases", () => {
  it("a client buys its own offer: purchase URL, code, test card, items granted, purchase listed", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    const me = { ...p.client, accessToken: u.accessToken };
    const created = await createUrl(me, {
      customer_type: "user",
      customer_id: u.userId,
      product_id: "pack",
      return_url: "https://app.example.com/done",
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.url).toMatch(/\/purchase\/.+\?return_url=/);
    const code = fullCode(created.body.url);
    expect(code.startsWith(`${p.projectId}_`)).toBe(true);

    const validated = await call("/payments/purchases/validate-code", { body: { full_code: code } });
    expect(validated.status, validated.text).toBe(200);
    expect(validated.body).toMatchObject({
      offer_id: "pack",
      project_id: p.projectId,
      project_display_name: "Test project",
      customer_type: "user",
      customer_id: u.userId,
      test_mode: true,
      already_bought_non_stackable: false,
      product: { display_name: "Credit pack", prices: { once: { USD: "5.00" } }, included_items: { credits: { quantity: 100 } } },
    });
    expect(validated.body.offer).toEqual(validated.body.product);
    // The page's return link comes from its URL: an edited one pointing elsewhere is refused.
    const swapped = await call("/payments/purchases/validate-code", { body: { full_code: code, return_url: "https://evil.example.net/" } });
    expect(swapped.body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    expect(
      (await call("/payments/purchases/validate-code", { body: { full_code: code, return_url: "https://app.example.com/x" } })).status,
    ).toBe(200);

    const declined = await pay(code, "once", { card_number: "4000 0000 0000 0002" });
    expect(declined.status).toBe(400);
    expect(await credits(p, u.userId)).toBe(0);

    const paid = await pay(code, "once");
    expect(paid.status, paid.text).toBe(200);
    expect(await credits(p, u.userId)).toBe(100);
    // The code bought once: using it again is VERIFICATION_CODE_ALREADY_USED and grants nothing.
    expect((await pay(code, "once")).body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    expect(await credits(p, u.userId)).toBe(100);

    const list = await call(`/payments/purchases/user/${u.userId}`, me);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ offer_id: "pack", kind: "one_time", status: "active", source: "test_mode", quantity: 1 });
    const products = await call(`/payments/products/user/${u.userId}`, me);
    expect(products.body.items.map((i: { id: string }) => i.id)).toEqual(["pack"]);
  });

  it("20 concurrent payments of one code: exactly one purchase", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    const code = fullCode((await createUrl(p.server, { customer_id: u.userId, offer_id: "pack" })).body.url);
    const results = await Promise.all(Array.from({ length: 20 }, () => pay(code, "once")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status >= 500)).toHaveLength(0);
    expect(await credits(p, u.userId)).toBe(100);
  });

  it("create-purchase-url errors: unknown offer, server-only for clients, wrong customer type, unknown customer, inline from clients, untrusted return URL, already bought", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    const other = await signUp(p.client);
    const me = { ...p.client, accessToken: u.accessToken };
    const unknown = await createUrl(me, { customer_type: "user", customer_id: u.userId, offer_id: "nope" });
    expect([unknown.status, unknown.body.code, unknown.body.details]).toEqual([
      400,
      "PRODUCT_DOES_NOT_EXIST",
      { product_id: "nope", context: null },
    ]);
    const hidden = await createUrl(me, { customer_type: "user", customer_id: u.userId, offer_id: "secret" });
    expect(hidden.body.details).toEqual({ product_id: "secret", context: "server_only" });
    expect((await createUrl(p.server, { customer_type: "user", customer_id: u.userId, offer_id: "secret" })).status).toBe(200);
    const wrongType = await createUrl(p.server, { customer_type: "user", customer_id: u.userId, offer_id: "seats" });
    expect([wrongType.body.code, wrongType.body.details.product_customer_type]).toEqual(["PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", "team"]);
    const nobody = await createUrl(p.server, {
      customer_type: "user",
      customer_id: "00000000-0000-4000-8000-000000000000",
      offer_id: "pack",
    });
    expect(nobody.body.code).toBe("CUSTOMER_DOES_NOT_EXIST");
    const inline = {
      display_name: "One-off",
      customer_type: "user",
      prices: { p: { USD: "3.00" } },
      included_items: { credits: { quantity: 7 } },
    };
    const byClient = await createUrl(me, { customer_type: "user", customer_id: u.userId, inline_offer: inline });
    // The reference's plain 400 (no known error), naming what to do instead.
    expect([byClient.status, byClient.text]).toEqual([
      400,
      "Cannot specify product_inline when calling from client! Please call with a server API key, or use the product_id parameter.",
    ]);
    const byServer = await createUrl(p.server, { customer_type: "user", customer_id: u.userId, product_inline: inline });
    expect(byServer.status, byServer.text).toBe(200);
    expect((await pay(fullCode(byServer.body.url), "p")).status).toBe(200);
    expect(await credits(p, u.userId)).toBe(7);
    const untrusted = await createUrl(me, { customer_id: u.userId, offer_id: "pack", return_url: "https://evil.example.net/" });
    expect(untrusted.body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    const foreign = await createUrl(me, { customer_type: "user", customer_id: other.userId, offer_id: "pack" });
    expect(foreign.status).toBe(403);
    // A non-stackable offer already owned cannot be bought again.
    await pay(fullCode((await createUrl(me, { customer_id: u.userId, offer_id: "pro" })).body.url), "monthly");
    const again = await createUrl(me, { customer_id: u.userId, offer_id: "pro" });
    expect(again.body.code).toBe("PRODUCT_ALREADY_GRANTED");
    // Unknown and malformed codes.
    expect((await call("/payments/purchases/validate-code", { body: { full_code: `${p.projectId}_nope` } })).body.code).toBe(
      "VERIFICATION_CODE_NOT_FOUND",
    );
    expect((await call("/payments/purchases/validate-code", { body: { full_code: "garbage" } })).body.code).toBe(
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });

  it("a purchase code expires after 24 hours", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    const t0 = Date.now();
    const created = await call("/payments/purchases/create-purchase-url", {
      ...p.server,
      body: { customer_id: u.userId, offer_id: "pack" },
      nowMs: t0,
    });
    const code = fullCode(created.body.url);
    expect((await pay(code, "once", {}, t0 + DAY + 1)).body.code).toBe("VERIFICATION_CODE_EXPIRED");
  });

  it("a subscription grants monthly; switching plans in a group ends the old one and its credits", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    const t0 = Date.now();
    const buy = async (offerId: string, at: number) => {
      const url = (
        await call("/payments/purchases/create-purchase-url", {
          ...p.server,
          body: { customer_id: u.userId, offer_id: offerId },
          nowMs: at,
        })
      ).body.url;
      const res = await pay(fullCode(url), "monthly", {}, at);
      expect(res.status, res.text).toBe(200);
    };
    await buy("pro", t0);
    expect(await credits(p, u.userId, t0)).toBe(1000);
    const spend = await call(`/payments/items/user/${u.userId}/credits/update-quantity?allow_negative=false`, {
      ...p.server,
      body: { delta: -400 },
      nowMs: t0 + 1000,
    });
    expect(spend.status, spend.text).toBe(200);
    expect(await credits(p, u.userId, t0 + 2000)).toBe(600);
    // The next month renews the grant; last month's spending went with last month's grant.
    expect(await credits(p, u.userId, t0 + 31 * DAY + 1000)).toBe(1000);
    const list = (await call(`/payments/purchases/user/${u.userId}`, p.server)).body.items;
    expect(list[0]).toMatchObject({ kind: "subscription", status: "active" });
    expect(list[0].current_period_end_millis).toBeGreaterThan(t0);
    // Switching to Team ends Pro: Pro's credits end with it, Team's start.
    await buy("team", t0 + 40 * DAY);
    expect(await credits(p, u.userId, t0 + 40 * DAY + 1000)).toBe(5000);
    const after = (await call(`/payments/purchases/user/${u.userId}`, p.server)).body.items;
    expect(after.map((x: { offer_id: string; status: string }) => [x.offer_id, x.status])).toEqual([
      ["team", "active"],
      ["pro", "ended"],
    ]);
  });

  it("server grants an offer without payment; the console's customer view lists items, purchases and changes", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    const grant = await call(`/payments/products/user/${u.userId}`, { ...p.server, body: { product_id: "pack", quantity: 2 } });
    expect(grant.status, grant.text).toBe(200);
    expect(await credits(p, u.userId)).toBe(200);
    await call(`/payments/items/user/${u.userId}/credits/update-quantity?allow_negative=true`, {
      ...p.server,
      body: { delta: -5, description: "manual" },
    });
    const view = await call(`/internal/payments/customers/user/${u.userId}`, p.admin);
    expect(view.status, view.text).toBe(200);
    expect(view.body.items).toEqual([{ id: "credits", display_name: "Credits", quantity: 195 }]);
    expect(view.body.purchases[0]).toMatchObject({ offer_id: "pack", source: "api_grant", quantity: 2 });
    expect(view.body.changes[0]).toMatchObject({ item_id: "credits", delta: -5, description: "manual" });
    const mismatch = await call(`/payments/products/team/${u.userId}`, { ...p.server, body: { product_id: "pack" } });
    expect(mismatch.body.code).toBe("PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH");
    expect(
      (await call(`/payments/products/user/${u.userId}`, { ...p.client, accessToken: u.accessToken, body: { product_id: "pack" } })).status,
    ).toBe(401);
  });

  it("live mode refuses the test checkout", async () => {
    const p = await shop();
    await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "payments.testMode": false }) },
    });
    const u = await signUp(p.client);
    const code = fullCode((await createUrl(p.server, { customer_id: u.userId, offer_id: "pack" })).body.url);
    const res = await pay(code, "once");
    expect(res.status).toBe(400);
    expect(await credits(p, u.userId)).toBe(0);
  });
});
