/** The SDK's payments methods (items, quantities, checkout URLs, purchases) against the real worker. */

import { createElement, type ReactElement, Suspense } from "react";
import { renderToReadableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HttpError, type Item, StackAdminApp, StackClientApp, StackServerApp } from "../../sdk/src";
import { useItem } from "../../sdk/src/react";
import { type createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { teamProject } from "../helpers/teams";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const, tokenStore: "memory" as const };
const TEST_CARD = "4242424242424242";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

/** A project (client team creation on) with user credits, team seats and a "pro" offer, configured through the SDK. */
async function paymentsProject() {
  const p = await teamProject();
  const admin = new StackAdminApp({ ...base, projectId: p.projectId, superSecretAdminKey: p.adminKey.superSecretAdminKey });
  const project = await admin.getProject();
  await project.updateConfig({
    "payments.items.credits": { displayName: "Credits", customerType: "user", default: { quantity: 10 } },
    "payments.items.seats": { displayName: "Seats", customerType: "team", default: { quantity: 3 } },
    "payments.offers.pro": {
      displayName: "Pro",
      customerType: "user",
      serverOnly: false,
      stackable: false,
      prices: { monthly: { USD: "9.99", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 100 } },
    },
  });
  const server = new StackServerApp({ ...base, projectId: p.projectId, secretServerKey: p.server.secretServerKey });
  return { p, admin, server };
}

function clientApp(p: Project) {
  return new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
}

async function signedIn(p: Project) {
  const app = clientApp(p);
  const result = await app.signUpWithCredential({ email: uniqueEmail("sdk-pay"), password: "payments password 1", noRedirect: true });
  if (result.status !== "ok") throw new Error("sign-up failed");
  return { app, user: (await app.getUser({ or: "throw" }))! };
}

describe("items", () => {
  it("reads, increases, strictly and plainly decreases a user's item", async () => {
    const { p, server } = await paymentsProject();
    const { user } = await signedIn(p);

    const item = await server.getItem({ userId: user.id, itemId: "credits" });
    expect(item).toMatchObject({ id: "credits", displayName: "Credits", quantity: 10, nonNegativeQuantity: 10 });
    const serverUser = (await server.getUser(user.id))!;
    expect((await serverUser.getItem("credits")).quantity).toBe(10);

    // Each change re-reads the cached item, so an immediate read sees it.
    await item.increaseQuantity(5, { description: "bonus" });
    expect((await server.getItem({ userId: user.id, itemId: "credits" })).quantity).toBe(15);
    expect(await item.tryDecreaseQuantity(15)).toBe(true);
    expect((await serverUser.getItem("credits")).quantity).toBe(0);
    expect(await item.tryDecreaseQuantity(1)).toBe(false);
    expect((await server.getItem({ userId: user.id, itemId: "credits" })).quantity).toBe(0);

    await item.decreaseQuantity(3);
    expect(await server.getItem({ userId: user.id, itemId: "credits" })).toMatchObject({ quantity: -3, nonNegativeQuantity: 0 });
    // The client sees the same ledger.
    expect(await user.getItem("credits")).toMatchObject({ displayName: "Credits", quantity: -3, nonNegativeQuantity: 0 });
  });

  it("counts a change until its expiry time", async () => {
    const { p, server } = await paymentsProject();
    const { user } = await signedIn(p);
    const item = await server.getItem({ userId: user.id, itemId: "credits" });
    await item.increaseQuantity(7, { expiresAt: new Date(Date.now() + 3600_000) });
    expect((await server.getItem({ userId: user.id, itemId: "credits" })).quantity).toBe(17);
  });

  it("reads and changes a team's item from the client and the server", async () => {
    const { p, server } = await paymentsProject();
    const { user } = await signedIn(p);
    const team = await user.createTeam({ displayName: "Crew" });
    expect(await team.getItem("seats")).toMatchObject({ displayName: "Seats", quantity: 3 });
    const serverTeam = (await server.getTeam(team.id))!;
    await (await serverTeam.getItem("seats")).increaseQuantity(2);
    expect((await server.getItem({ teamId: team.id, itemId: "seats" })).quantity).toBe(5);
    await expect(server.getItem({ teamId: team.id, itemId: "credits" })).rejects.toMatchObject({
      code: "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
    });
  });

  it("refuses a client reading another user's item", async () => {
    const { p } = await paymentsProject();
    const { user } = await signedIn(p);
    const { app: otherApp } = await signedIn(p);
    const refused = await otherApp.getItem({ userId: user.id, itemId: "credits" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(403);
    // Its own item reads fine through the same method.
    const own = (await otherApp.getUser())!;
    expect((await otherApp.getItem({ userId: own.id, itemId: "credits" })).quantity).toBe(10);
  });
});

describe("checkout", () => {
  it("creates a purchase URL, and a test-mode purchase grants the offer's items", async () => {
    const { p, server, admin } = await paymentsProject();
    const { app, user } = await signedIn(p);

    const url = await user.createCheckoutUrl({ offerId: "pro" });
    expect(url).toMatch(/\/purchase\/[^/?#]+$/);
    const serverUrl = await server.createCheckoutUrl({ userId: user.id, productId: "pro" });
    expect(serverUrl).toMatch(/\/purchase\/[^/?#]+$/);
    await expect(user.createCheckoutUrl({ offerId: "nope" })).rejects.toMatchObject({ code: "PRODUCT_DOES_NOT_EXIST" });

    const fullCode = decodeURIComponent(new URL(url).pathname.split("/").pop()!);
    const details = await app.validatePurchaseCode(fullCode);
    expect(details).toMatchObject({ offerId: "pro", customerType: "user", customerId: user.id, testMode: true });
    expect(details.offer.prices.monthly).toMatchObject({ USD: "9.99", interval: [1, "month"] });

    const { purchaseId } = await app.completeTestModePurchase({ fullCode, priceId: "monthly", cardNumber: TEST_CARD });
    expect(purchaseId).toEqual(expect.any(String));
    expect((await server.getItem({ userId: user.id, itemId: "credits" })).quantity).toBe(110);

    const purchases = await user.listPurchases();
    expect(purchases.map((x) => [x.id, x.offerId, x.source])).toEqual([[purchaseId, "pro", "test_mode"]]);
    expect(purchases[0]!.createdAt).toBeInstanceOf(Date);
    const products = await user.listProducts();
    expect(products.map((x) => [x.id, x.displayName, x.quantity])).toContainEqual(["pro", "Pro", 1]);

    const view = await admin.getPaymentsCustomer({ customerType: "user", customerId: user.id });
    expect(view.items).toContainEqual({ id: "credits", displayName: "Credits", quantity: 110, nonNegativeQuantity: 110 });
    expect(view.purchases.map((x) => x.id)).toEqual([purchaseId]);
  });

  it("grants an inline offer from the server", async () => {
    const { p, server } = await paymentsProject();
    const { user } = await signedIn(p);
    const before = await server.getItem({ userId: user.id, itemId: "credits" });
    expect(before.quantity).toBe(10);
    await server.grantProduct({
      userId: user.id,
      inlineOffer: { displayName: "Gift", customerType: "user", prices: {}, includedItems: { credits: { quantity: 25 } } },
    });
    // The grant re-read the customer's cached items.
    expect((await server.getItem({ userId: user.id, itemId: "credits" })).quantity).toBe(35);
    expect((await server.listPurchases({ userId: user.id })).map((x) => [x.offerId, x.source])).toEqual([[null, "api_grant"]]);
  });

  it("answers no Stripe account before onboarding", async () => {
    const { admin } = await paymentsProject();
    expect(await admin.getStripeAccountInfo()).toBeNull();
  });
});

/** Server-renders an element (Suspense resolved) to its HTML. */
async function render(element: ReactElement): Promise<string> {
  const stream = await renderToReadableStream(createElement(Suspense, { fallback: "loading" }, element));
  await stream.allReady;
  return new Response(stream).text();
}

function Credits({ customer }: { customer: { useItem(itemId: string): Item } }) {
  const item = useItem(customer, "credits");
  return createElement("p", null, `${item.quantity} credits (${item.nonNegativeQuantity} usable)`);
}

function Seats({ team }: { team: { useItem(itemId: string): Item } }) {
  return createElement("p", null, `${team.useItem("seats").quantity} seats`);
}

describe("useItem", () => {
  it("suspends for the first read, then shows the item and each change made through the SDK", async () => {
    const { p, server } = await paymentsProject();
    const { user } = await signedIn(p);
    expect(await render(createElement(Credits, { customer: user }))).toContain("10 credits (10 usable)");

    const serverUser = (await server.getUser(user.id))!;
    expect(await render(createElement(Credits, { customer: serverUser }))).toContain("10 credits");
    await (await serverUser.getItem("credits")).decreaseQuantity(12);
    // The change re-read the cached item: the next render shows it without waiting for the throttle.
    expect(await render(createElement(Credits, { customer: serverUser }))).toContain("-2 credits (0 usable)");

    const team = await user.createTeam({ displayName: "Crew" });
    expect(await render(createElement(Seats, { team }))).toContain("3 seats");
  });
});
