/**
 * Payments on the wire (issue 15), as the reference: items with quantities, offers (the
 * reference's newer name is "products"; both names are accepted, one model inside), purchase
 * URLs and codes, the test-mode checkout, purchases per customer, and Stripe.
 *
 * Config (`payments.*` in GET /internal/config, set through /internal/config/override):
 * - `payments.testMode`: boolean, default true (a built-in test checkout; no Stripe needed).
 * - `payments.productLines.<id>`: `{ displayName?, customerType? }` — "one of these products at a time".
 * - `payments.items.<id>`: `{ displayName, customerType, default?: { quantity, repeat?, expires? } }`.
 * - `payments.products.<id>`: `{ displayName, customerType, productLineId?, isAddOnTo?, serverOnly, stackable,
 *   freeTrial?, prices: "include-by-default" | { <priceId>: { USD?: "9.99", EUR?, …, interval?, serverOnly?, freeTrial? } },
 *   includedItems: { <itemId>: { quantity, repeat?, expires? } } }`.
 * The reference's old names are accepted on writes and stored under these: `payments.offers`,
 * `payments.groups` / `payments.catalogs`, and a product's `groupId` / `catalogId`.
 */
import { z } from "zod";

export const CUSTOMER_TYPES = ["user", "team", "custom"] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
export const customerTypeSchema = z.enum(CUSTOMER_TYPES);

export const INTERVAL_UNITS = ["day", "week", "month", "year"] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];
/** `[count, unit]`, e.g. `[1, "month"]` (the reference's DayInterval). */
export const intervalSchema = z.tuple([z.number().int().min(1).max(1000), z.enum(INTERVAL_UNITS)]);
export type Interval = z.infer<typeof intervalSchema>;
export const repeatSchema = z.union([z.literal("never"), intervalSchema]);

/** Currencies a price may be given in, with their decimal places (the reference's SUPPORTED_CURRENCIES). */
export const CURRENCIES = { USD: 2, EUR: 2, GBP: 2, JPY: 0, INR: 2, AUD: 2, CAD: 2 } as const;
export type Currency = keyof typeof CURRENCIES;
export const CURRENCY_CODES = Object.keys(CURRENCIES) as Currency[];
/** A money amount as a decimal string ("9.99"); cents are checked against the currency's decimals. */
export const moneyAmountSchema = z.string().regex(/^(0|[1-9]\d{0,9})(\.\d{1,2})?$/, 'an amount is a decimal string such as "9.99"');

/** An id chosen by the owner (items, offers, prices, groups): the reference's userSpecifiedIdSchema. */
export const userIdSchema = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[a-zA-Z0-9_][a-zA-Z0-9_-]*$/, "an id has letters, digits, _ and - (not first)");

const includedItemWire = z.strictObject({
  quantity: z.number().int().min(0).max(1_000_000_000),
  repeat: repeatSchema.optional(),
  expires: z.enum(["never", "when-purchase-expires", "when-repeated"]).optional(),
});

const priceWire = z
  .object({
    interval: intervalSchema.optional(),
    free_trial: intervalSchema.optional(),
    server_only: z.boolean().optional(),
    ...Object.fromEntries(CURRENCY_CODES.map((c) => [c, moneyAmountSchema.optional()])),
  })
  .strict();

/** An offer's free-form metadata (client, client read-only, server), as the reference carries it. */
const offerMetadata = z.record(z.string(), z.unknown()).nullable().optional();

/** An offer as the wire carries it (inline offers in server requests, and in answers). */
export const inlineOfferSchema = z.strictObject({
  display_name: z.string().min(1).max(256),
  customer_type: customerTypeSchema,
  server_only: z.boolean().optional(),
  stackable: z.boolean().optional(),
  free_trial: intervalSchema.optional(),
  prices: z.record(userIdSchema, priceWire),
  included_items: z.record(userIdSchema, includedItemWire),
  client_metadata: offerMetadata,
  client_read_only_metadata: offerMetadata,
  /** Never in answers to clients or the public purchase page. */
  server_metadata: offerMetadata,
});
export type InlineOffer = z.infer<typeof inlineOfferSchema>;

export const itemSchema = z.object({ id: z.string(), display_name: z.string(), quantity: z.number().int() });
export type ItemWire = z.infer<typeof itemSchema>;

export const updateQuantityQuerySchema = z.object({ allow_negative: z.enum(["true", "false"]).optional() });
export const updateQuantityBodySchema = z.strictObject({
  delta: z.number().int().min(-1_000_000_000).max(1_000_000_000),
  /** ISO 8601; the change drops out of the quantity after this time. */
  expires_at: z.iso.datetime({ offset: true }).optional(),
  description: z.string().max(500).optional(),
});

export const createPurchaseUrlBodySchema = z.strictObject({
  customer_type: customerTypeSchema.optional(),
  customer_id: z.string().min(1).max(256),
  offer_id: userIdSchema.optional(),
  product_id: userIdSchema.optional(),
  inline_offer: inlineOfferSchema.optional(),
  /** The inline offer's name on /api/v1 before the offer→product rename. */
  offer_inline: inlineOfferSchema.optional(),
  product_inline: inlineOfferSchema.optional(),
  return_url: z.string().max(2048).optional(),
});
export const purchaseUrlSchema = z.object({ url: z.string() });

export const validateCodeBodySchema = z.strictObject({
  full_code: z.string().min(1).max(512),
  return_url: z.string().max(2048).optional(),
});
export const conflictingOfferSchema = z.object({ product_id: z.string(), offer_id: z.string(), display_name: z.string() });
export const validatedCodeSchema = z.object({
  product: inlineOfferSchema,
  /** The same offer under its older name. */
  offer: inlineOfferSchema,
  offer_id: z.string().nullable(),
  project_id: z.string(),
  project_display_name: z.string(),
  project_logo_url: z.string().nullable(),
  customer_type: customerTypeSchema,
  customer_id: z.string(),
  stripe_account_id: z.string().nullable(),
  already_bought_non_stackable: z.boolean(),
  conflicting_products: z.array(conflictingOfferSchema),
  conflicting_group_offers: z.array(conflictingOfferSchema),
  test_mode: z.boolean(),
  charges_enabled: z.boolean(),
  expires_at_millis: z.number(),
});
export type ValidatedCode = z.infer<typeof validatedCodeSchema>;

export const purchaseSessionBodySchema = z.strictObject({
  full_code: z.string().min(1).max(512),
  price_id: userIdSchema,
  quantity: z.number().int().min(1).max(1000).optional(),
});
/** The reference's purchase session: the client secret Stripe Elements confirms the payment with. */
export const purchaseSessionSchema = z.object({ client_secret: z.string() });
/** Doorman's hosted checkout (live mode): where to send the customer (Stripe Checkout). */
export const checkoutSessionSchema = z.object({ url: z.string(), client_secret: z.string().nullable() });

/** The Doorman test checkout: the test card completes the purchase exactly as a paid checkout would. */
export const TEST_CARD_NUMBER = "4242424242424242";
export const testModePurchaseBodySchema = purchaseSessionBodySchema.extend({ card_number: z.string().max(32) });
export const testModePurchaseSchema = z.object({ success: z.literal(true), purchase_id: z.string() });

export const grantOfferBodySchema = z.strictObject({
  offer_id: userIdSchema.optional(),
  product_id: userIdSchema.optional(),
  inline_offer: inlineOfferSchema.optional(),
  product_inline: inlineOfferSchema.optional(),
  quantity: z.number().int().min(1).max(1000).optional(),
});

export const PURCHASE_STATUSES = ["active", "trialing", "canceled", "ended", "refunded"] as const;
export const purchaseSchema = z.object({
  id: z.string(),
  customer_type: customerTypeSchema,
  customer_id: z.string(),
  /** null: an inline offer. */
  offer_id: z.string().nullable(),
  offer: inlineOfferSchema,
  price_id: z.string().nullable(),
  quantity: z.number().int(),
  kind: z.enum(["one_time", "subscription"]),
  status: z.enum(PURCHASE_STATUSES),
  /** Where it came from: the test checkout, Stripe, or a server/console grant. */
  source: z.enum(["test_mode", "stripe", "api_grant"]),
  created_at_millis: z.number(),
  current_period_end_millis: z.number().nullable(),
  cancel_at_period_end: z.boolean(),
  ended_at_millis: z.number().nullable(),
});
export type PurchaseWire = z.infer<typeof purchaseSchema>;

/** GET /payments/products/{customer_type}/{customer_id} (the reference's shape). */
export const ownedProductsSchema = z.object({
  items: z.array(z.object({ id: z.string().nullable(), quantity: z.number().int(), product: inlineOfferSchema })),
  is_paginated: z.literal(true),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});

/** GET /payments/purchases/{customer_type}/{customer_id}: purchases and subscriptions, newest first. */
export const purchaseListSchema = z.object({ items: z.array(purchaseSchema), is_paginated: z.literal(false) });

/** GET /internal/payments/customers/{customer_type}/{customer_id}: the console's customer view. */
export const customerViewSchema = z.object({
  customer_type: customerTypeSchema,
  customer_id: z.string(),
  items: z.array(itemSchema),
  purchases: z.array(purchaseSchema),
  changes: z.array(
    z.object({
      id: z.string(),
      item_id: z.string(),
      delta: z.number().int(),
      description: z.string().nullable(),
      expires_at_millis: z.number().nullable(),
      created_at_millis: z.number(),
    }),
  ),
});
export type CustomerView = z.infer<typeof customerViewSchema>;

/** GET /internal/payments/stripe/account-info. */
export const stripeAccountInfoSchema = z.object({
  account_id: z.string(),
  charges_enabled: z.boolean(),
  details_submitted: z.boolean(),
  payouts_enabled: z.boolean(),
});
export const setupUrlSchema = z.object({ url: z.string() });
/** GET /internal/payments/method-configs: the payment methods the connected account's checkouts offer. */
export const paymentMethodConfigSchema = z.object({
  config_id: z.string(),
  methods: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** What checkout shows now. */
      enabled: z.boolean(),
      /** Stripe can offer it on this account at all. */
      available: z.boolean(),
      /** The seller may switch it (otherwise the platform's default stands). */
      overridable: z.boolean(),
    }),
  ),
});
export const accountSessionSchema = z.object({ client_secret: z.string() });
