/**
 * /payments (issue 15), wired as the reference: items and their quantities, the offers
 * ("products") a customer owns, purchase URLs and codes, and the test-mode checkout. Clients read
 * and buy only for their own user and their own teams; quantity changes and grants are server-only.
 */

import { KnownError } from "@doorman/shared/known-errors";
import {
  createPurchaseUrlBodySchema,
  customerTypeSchema,
  grantOfferBodySchema,
  itemSchema,
  ownedProductsSchema,
  purchaseListSchema,
  purchaseUrlSchema,
  TEST_CARD_NUMBER,
  testModePurchaseBodySchema,
  testModePurchaseSchema,
  updateQuantityBodySchema,
  updateQuantityQuerySchema,
  validateCodeBodySchema,
  validatedCodeSchema,
} from "@doorman/shared/wire-payments";
import { z } from "zod";
import { listPurchasesOf } from "../../db/queries/payments";
import type { ProjectRow } from "../../db/queries/projects";
import { problemError, unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import type { Deps } from "../../services/deps";
import { isTrustedRedirectUrl } from "../../services/hosted-pages/trust";
import { createPurchaseUrl, describePurchaseCode, readPurchaseCode, resolveOffer } from "../../services/payments/codes";
import { offerToWire } from "../../services/payments/config";
import { type Customer, clientMayAccess, customerSince, readPaymentsConfig } from "../../services/payments/customers";
import { defaultOffers, isOwned } from "../../services/payments/grants";
import { completePurchase } from "../../services/payments/purchases";
import { changeItemQuantity, itemQuantity } from "../../services/payments/quantities";
import { completeTestModePurchase } from "../../services/payments/test-mode";
import type { RequestAuth } from "../../services/request-auth";
import { fail } from "../../services/result";
import { purchaseView } from "../../views/payments";

const customerId = z.string().min(1).max(256);
const itemId = z.string().min(1).max(128);
const customerParams = z.strictObject({ customer_type: customerTypeSchema, customer_id: customerId });
const itemParams = customerParams.extend({ item_id: itemId });
const olderItemParams = z.strictObject({ customer_id: customerId, item_id: itemId });

const ITEM_ERRORS = [
  "USER_AUTHENTICATION_REQUIRED",
  "ITEM_NOT_FOUND",
  "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
  "CUSTOMER_DOES_NOT_EXIST",
] as const;
const PRODUCT_ERRORS = [
  "PRODUCT_DOES_NOT_EXIST",
  "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
  "PRODUCT_ALREADY_GRANTED",
  "CUSTOMER_DOES_NOT_EXIST",
  "SCHEMA_ERROR",
] as const;

/** Refuses a client reading or buying for a customer that is not its own user or one of its teams. */
async function guardClient(deps: Deps, auth: RequestAuth, c: Customer): Promise<void> {
  if (auth.type !== "client") return;
  if (!auth.user) throw new KnownError("USER_AUTHENTICATION_REQUIRED");
  if (!(await clientMayAccess(deps, auth.user.user.id, c))) throw problemError(fail("client_customer_forbidden"));
}

/** The item of the config, checked against the customer's type (the older path takes the item's type). */
function itemOf(project: ProjectRow, id: string, customerType: Customer["customerType"] | undefined, customer: string) {
  const payments = readPaymentsConfig(project);
  const item = Object.hasOwn(payments.items, id) ? payments.items[id] : undefined;
  if (!item) throw problemError(fail("item_not_found", { itemId: id }));
  const type = customerType ?? item.customerType;
  if (type !== item.customerType)
    throw problemError(
      fail("item_customer_type_mismatch", { itemId: id, customerId: customer, itemType: item.customerType, actualType: type }),
    );
  return { payments, item, customerType: type };
}

async function readItem(deps: Deps, auth: RequestAuth, type: Customer["customerType"] | undefined, customer: string, id: string) {
  const { payments, item, customerType } = itemOf(auth.project, id, type, customer);
  const c: Customer = { projectId: auth.project.id, customerType, customerId: customer };
  await guardClient(deps, auth, c);
  const quantity = await itemQuantity(deps, auth.project, c, { itemId: id, item, payments });
  if (quantity === null) throw problemError(fail("customer_not_found", { customerId: customer }));
  return { id, display_name: item.displayName, quantity };
}

const getItem = defineRoute({
  method: "get",
  path: "/items/{customer_type}/{customer_id}/{item_id}",
  summary: "An item's quantity for a customer (user, team or custom id)",
  description: "The quantity may be negative after a plain decrease. Clients read their own user's items and their teams' only.",
  access: ["client", "server", "admin"],
  params: itemParams,
  response: itemSchema,
  errors: ITEM_ERRORS,
});
const getItemOlder = defineRoute({
  method: "get",
  path: "/items/{customer_id}/{item_id}",
  summary: "An item's quantity for a customer (the older path: the customer type is the item's)",
  access: ["client", "server", "admin"],
  params: olderItemParams,
  response: itemSchema,
  errors: ITEM_ERRORS,
});

const updateDescription =
  "Adds `delta` to the quantity as a ledger change (optionally expiring at `expires_at`). With `allow_negative=false` a decrease that would take the quantity below zero is ITEM_QUANTITY_INSUFFICIENT_AMOUNT, and concurrent decreases never take it below zero; with `allow_negative=true` it may go negative.";
const updateQuantity = defineRoute({
  method: "post",
  path: "/items/{customer_type}/{customer_id}/{item_id}/update-quantity",
  summary: "Change an item's quantity (server)",
  description: updateDescription,
  access: ["server", "admin"],
  params: itemParams,
  query: updateQuantityQuerySchema,
  body: updateQuantityBodySchema,
  response: z.object({}),
  errors: [...ITEM_ERRORS, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT"],
});
const updateQuantityOlder = defineRoute({
  method: "post",
  path: "/items/{customer_id}/{item_id}/update-quantity",
  summary: "Change an item's quantity (server; the older path)",
  description: updateDescription,
  access: ["server", "admin"],
  params: olderItemParams,
  query: updateQuantityQuerySchema,
  body: updateQuantityBodySchema,
  response: z.object({}),
  errors: [...ITEM_ERRORS, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT"],
});

const listProducts = defineRoute({
  method: "get",
  path: "/products/{customer_type}/{customer_id}",
  summary: "The offers (products) a customer owns, oldest first",
  description: "Purchases not ended or refunded, plus the include-by-default offers. Clients see their own, without server-only offers.",
  access: ["client", "server", "admin"],
  params: customerParams,
  query: z.strictObject({ cursor: z.string().max(128).optional(), limit: z.coerce.number().int().min(1).max(100).optional() }),
  response: ownedProductsSchema,
  errors: ["USER_AUTHENTICATION_REQUIRED", "CUSTOMER_DOES_NOT_EXIST", "SCHEMA_ERROR"],
});
const grantProduct = defineRoute({
  method: "post",
  path: "/products/{customer_type}/{customer_id}",
  summary: "Grant an offer (product) to a customer, without payment (server)",
  access: ["server", "admin"],
  params: customerParams,
  body: grantOfferBodySchema,
  response: z.object({ success: z.literal(true), subscription_id: z.string().optional() }),
  errors: [...PRODUCT_ERRORS, "USER_NOT_FOUND", "TEAM_NOT_FOUND"],
});
const listPurchases = defineRoute({
  method: "get",
  path: "/purchases/{customer_type}/{customer_id}",
  summary: "A customer's purchases and subscriptions, newest first (Doorman extension)",
  access: ["client", "server", "admin"],
  params: customerParams,
  response: purchaseListSchema,
  errors: ["USER_AUTHENTICATION_REQUIRED", "CUSTOMER_DOES_NOT_EXIST"],
});
const createUrl = defineRoute({
  method: "post",
  path: "/purchases/create-purchase-url",
  summary: "Create a purchase URL for a customer and an offer",
  description:
    "Answers the purchase page's URL (`/purchase/{full_code}` on the web app, valid 24 h, one purchase). `offer_id`/`product_id` name a configured offer; `inline_offer`/`product_inline` (server only) define one. `return_url` must be on a trusted domain.",
  access: ["client", "server", "admin"],
  body: createPurchaseUrlBodySchema,
  response: purchaseUrlSchema,
  errors: [...PRODUCT_ERRORS, "REDIRECT_URL_NOT_WHITELISTED", "NEW_PURCHASES_BLOCKED"],
});
const validateCode = defineRoute({
  method: "post",
  path: "/purchases/validate-code",
  summary: "What a purchase code buys (the purchase page reads it; no keys needed)",
  access: "public",
  body: validateCodeBodySchema,
  response: validatedCodeSchema,
  errors: ["VERIFICATION_CODE_NOT_FOUND", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_ALREADY_USED", "REDIRECT_URL_NOT_WHITELISTED"],
  // Public and keyless: code guesses are limited per address.
  rateLimit: { ip: "PURCHASE_CODE_VALIDATE_PER_IP" },
});
const testModePurchase = defineRoute({
  method: "post",
  path: "/purchases/test-mode-purchase",
  summary: "Pay a purchase code with the test card (test mode only; Doorman's test checkout)",
  description: `Completes the purchase exactly as a paid checkout would: the offer's items are granted. Only the test card ${TEST_CARD_NUMBER} pays; the project must be in test mode and not in production mode (TEST_MODE_NOT_ALLOWED_IN_PRODUCTION).`,
  access: "public",
  body: testModePurchaseBodySchema,
  response: testModePurchaseSchema,
  errors: [
    "VERIFICATION_CODE_NOT_FOUND",
    "VERIFICATION_CODE_EXPIRED",
    "VERIFICATION_CODE_ALREADY_USED",
    "PRODUCT_ALREADY_GRANTED",
    "TEST_MODE_NOT_ALLOWED_IN_PRODUCTION",
    "NEW_PURCHASES_BLOCKED",
  ],
});

export const paymentsRoutes = routeGroup();

addRoute(paymentsRoutes, getItem, async (c, { auth, params }) =>
  c.json(await readItem(c.get("deps"), auth, params.customer_type, params.customer_id, params.item_id)),
);
addRoute(paymentsRoutes, getItemOlder, async (c, { auth, params }) =>
  c.json(await readItem(c.get("deps"), auth, undefined, params.customer_id, params.item_id)),
);

async function applyUpdate(
  deps: Deps,
  auth: RequestAuth,
  type: Customer["customerType"] | undefined,
  customer: string,
  id: string,
  query: z.infer<typeof updateQuantityQuerySchema>,
  body: z.infer<typeof updateQuantityBodySchema>,
) {
  const { payments, item, customerType } = itemOf(auth.project, id, type, customer);
  const c: Customer = { projectId: auth.project.id, customerType, customerId: customer };
  const result = await changeItemQuantity(
    deps,
    auth.project,
    c,
    { itemId: id, item, payments },
    {
      delta: body.delta,
      expiresAt: body.expires_at === undefined ? null : Date.parse(body.expires_at),
      description: body.description ?? null,
      allowNegative: query.allow_negative === "true",
    },
  );
  unwrap(result);
}
addRoute(paymentsRoutes, updateQuantity, async (c, { auth, params, query, body }) => {
  await applyUpdate(c.get("deps"), auth, params.customer_type, params.customer_id, params.item_id, query, body);
  return c.json({});
});
addRoute(paymentsRoutes, updateQuantityOlder, async (c, { auth, params, query, body }) => {
  await applyUpdate(c.get("deps"), auth, undefined, params.customer_id, params.item_id, query, body);
  return c.json({});
});

async function existingCustomer(deps: Deps, auth: RequestAuth, type: Customer["customerType"], id: string): Promise<Customer> {
  const c: Customer = { projectId: auth.project.id, customerType: type, customerId: id };
  await guardClient(deps, auth, c);
  if ((await customerSince(deps, auth.project, c)) === null) throw problemError(fail("customer_not_found", { customerId: id }));
  return c;
}

addRoute(paymentsRoutes, listProducts, async (c, { auth, params, query }) => {
  const deps = c.get("deps");
  const customer = await existingCustomer(deps, auth, params.customer_type, params.customer_id);
  const now = deps.now();
  const rows = await listPurchasesOf(deps.db, customer);
  const payments = readPaymentsConfig(auth.project);
  const owned = [
    ...defaultOffers(payments, customer.customerType, rows, now).map(([id, offer]) => ({
      cursor: `default:${id}`,
      id,
      quantity: 1,
      offer,
    })),
    ...rows
      .filter((p) => isOwned(p, now))
      .reverse()
      .map((p) => ({ cursor: p.id, id: p.offerId, quantity: p.quantity, offer: p.offer as (typeof payments.products)[string] })),
  ].filter((p) => auth.type !== "client" || !p.offer.serverOnly);
  const start = query.cursor === undefined ? 0 : owned.findIndex((p) => p.cursor === query.cursor);
  if (start < 0) throw new KnownError("SCHEMA_ERROR", { message: "cursor is not a cursor of this list." });
  const limit = query.limit ?? 10;
  const page = owned.slice(start, start + limit);
  return c.json({
    items: page.map((p) => ({
      id: p.id,
      quantity: p.quantity,
      product: offerToWire(p.offer, auth.type === "client" ? "client" : "server"),
    })),
    is_paginated: true as const,
    pagination: { next_cursor: owned[start + limit]?.cursor ?? null },
  });
});

addRoute(paymentsRoutes, grantProduct, async (c, { auth, params, body }) => {
  const deps = c.get("deps");
  const resolved = resolveOffer(
    readPaymentsConfig(auth.project),
    { offerId: body.offer_id ?? body.product_id, inlineOffer: body.inline_offer ?? body.product_inline },
    false,
  );
  const { offerId, offer } = unwrap(resolved);
  if (offer.customerType !== params.customer_type)
    throw problemError(
      fail("offer_customer_type_mismatch", {
        offerId,
        customerId: params.customer_id,
        offerType: offer.customerType,
        actualType: params.customer_type,
      }),
    );
  // As the reference: only a stackable offer is granted more than once at a time.
  if ((body.quantity ?? 1) !== 1 && !offer.stackable) throw problemError(fail("quantity_not_stackable"));
  const customer: Customer = { projectId: auth.project.id, customerType: params.customer_type, customerId: params.customer_id };
  if ((await customerSince(deps, auth.project, customer)) === null) {
    if (params.customer_type === "user") throw new KnownError("USER_NOT_FOUND");
    if (params.customer_type === "team") throw new KnownError("TEAM_NOT_FOUND", { team_id: params.customer_id });
  }
  // As the reference: a grant takes the offer's first price, so a recurring price makes it a subscription.
  const priceId = offer.prices === "include-by-default" ? null : (Object.keys(offer.prices)[0] ?? null);
  const granted = unwrap(
    await completePurchase(deps, {
      project: auth.project,
      customerType: params.customer_type,
      customerId: params.customer_id,
      offerId,
      offer,
      priceId,
      quantity: body.quantity ?? 1,
      source: "api_grant",
    }),
  );
  return c.json({ success: true as const, ...(granted.kind === "subscription" ? { subscription_id: granted.purchaseId } : {}) });
});

addRoute(paymentsRoutes, listPurchases, async (c, { auth, params }) => {
  const deps = c.get("deps");
  const customer = await existingCustomer(deps, auth, params.customer_type, params.customer_id);
  const rows = await listPurchasesOf(deps.db, customer);
  const audience = auth.type === "client" ? "client" : "server";
  return c.json({ items: rows.map((p) => purchaseView(p, audience)), is_paginated: false as const });
});

addRoute(paymentsRoutes, createUrl, async (c, { auth, body }) => {
  const deps = c.get("deps");
  const choice = { offerId: body.offer_id ?? body.product_id, inlineOffer: body.inline_offer ?? body.offer_inline ?? body.product_inline };
  // Which customer a client may buy for is checked before anything about the offer is revealed.
  if (auth.type === "client") {
    const payments = readPaymentsConfig(auth.project);
    const offer =
      choice.offerId !== undefined && Object.hasOwn(payments.products, choice.offerId) ? payments.products[choice.offerId] : undefined;
    const type = body.customer_type ?? offer?.customerType ?? "user";
    if (!auth.user) throw new KnownError("USER_AUTHENTICATION_REQUIRED");
    const customer: Customer = { projectId: auth.project.id, customerType: type, customerId: body.customer_id };
    if (!(await clientMayAccess(deps, auth.user.user.id, customer))) throw problemError(fail("client_purchase_forbidden"));
  }
  const result = await createPurchaseUrl(deps, auth.project, {
    customerType: body.customer_type,
    customerId: body.customer_id,
    choice,
    returnUrl: body.return_url,
    isClient: auth.type === "client",
    // Live purchases need the project's connected Stripe account; a server without Stripe sells in test mode only.
    stripeConfigured: deps.config.stripe.secretKey !== null,
    webOrigin: deps.config.webAppUrl ?? deps.apiUrl,
  });
  return c.json({ url: unwrap(result).url });
});

addRoute(paymentsRoutes, validateCode, async (c, { body }) => {
  const deps = c.get("deps");
  const read = unwrap(await readPurchaseCode(deps, body.full_code));
  // The page links back to return_url after paying: a link someone edited must not point elsewhere.
  if (body.return_url !== undefined && !(await isTrustedRedirectUrl(deps, read.project, body.return_url)))
    throw problemError(fail("untrusted_url"));
  return c.json(await describePurchaseCode(deps, read.code, read.project));
});

addRoute(paymentsRoutes, testModePurchase, async (c, { body }) => {
  const result = await completeTestModePurchase(c.get("deps"), {
    fullCode: body.full_code,
    priceId: body.price_id,
    quantity: body.quantity ?? 1,
    payer: { type: "customer", cardNumber: body.card_number },
  });
  return c.json({ success: true as const, purchase_id: unwrap(result).purchaseId });
});
