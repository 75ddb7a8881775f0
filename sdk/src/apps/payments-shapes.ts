/**
 * The SDK's payments shapes (issue 15) and their wire conversions: inline offers, owned products,
 * purchases, the purchase-code view of the purchase page, and the console's customer view. The
 * ids inside offers (price ids, item ids) are the owner's and are never case-converted.
 */
import type {
  Currency,
  CustomerType,
  CustomerViewJson,
  InlineOfferJson,
  Interval,
  OwnedProductsJson,
  PurchaseJson,
  ValidatedCodeJson,
} from "./wire-types";

export type { Currency, CustomerType, Interval };

/** A price of an offer: amounts as decimal strings ("9.99") per currency; recurring with `interval`. */
export type OfferPrice = { interval?: Interval; freeTrial?: Interval; serverOnly?: boolean } & Partial<Record<Currency, string>>;

/** An item an offer includes, with its quantity and optional repeat ("100 credits a month"). */
export type IncludedItem = {
  quantity: number;
  repeat?: "never" | Interval;
  expires?: "never" | "when-purchase-expires" | "when-repeated";
};

/** An offer given in the request (server calls only), or as a purchase recorded it. */
export type InlineOffer = {
  displayName: string;
  customerType: CustomerType;
  serverOnly?: boolean;
  stackable?: boolean;
  freeTrial?: Interval;
  prices: Record<string, OfferPrice>;
  includedItems: Record<string, IncludedItem>;
};

/** Which offer: a configured one (by its id, under either name) or an inline one (server only). */
export type OfferChoice = { offerId: string } | { productId: string } | { inlineOffer: InlineOffer };
/** What a client may name: configured offers only. */
export type ClientOfferChoice = { offerId: string } | { productId: string };

/** A product (offer) the customer owns, with how many. */
export type CustomerProduct = {
  /** null: an inline offer. */
  readonly id: string | null;
  readonly quantity: number;
  readonly displayName: string;
  readonly customerType: CustomerType;
  readonly isServerOnly: boolean;
  readonly stackable: boolean;
  readonly offer: InlineOffer;
};
export type CustomerProductsList = CustomerProduct[] & { nextCursor: string | null };
export type CustomerProductsListOptions = { cursor?: string; limit?: number };

/** A purchase or subscription of a customer. */
export type Purchase = {
  readonly id: string;
  readonly customerType: CustomerType;
  readonly customerId: string;
  /** null: an inline offer. */
  readonly offerId: string | null;
  readonly offer: InlineOffer;
  readonly priceId: string | null;
  readonly quantity: number;
  readonly kind: PurchaseJson["kind"];
  readonly status: PurchaseJson["status"];
  /** Where it came from: the test checkout, Stripe, or a server/console grant. */
  readonly source: PurchaseJson["source"];
  readonly createdAt: Date;
  readonly currentPeriodEnd: Date | null;
  readonly cancelAtPeriodEnd: boolean;
  readonly endedAt: Date | null;
};

/** What a purchase code is for (the purchase page): the offer, the customer, and the checkout mode. */
export type PurchaseCodeDetails = {
  readonly offer: InlineOffer;
  readonly offerId: string | null;
  readonly projectId: string;
  readonly projectDisplayName: string;
  readonly projectLogoUrl: string | null;
  readonly customerType: CustomerType;
  readonly customerId: string;
  readonly stripeAccountId: string | null;
  readonly alreadyBoughtNonStackable: boolean;
  readonly conflictingOffers: { offerId: string; displayName: string }[];
  readonly testMode: boolean;
  readonly chargesEnabled: boolean;
  readonly expiresAt: Date;
};

/** The console's view of one customer: items of its type, purchases, and recent quantity changes. */
export type PaymentsCustomerView = {
  readonly customerType: CustomerType;
  readonly customerId: string;
  readonly items: { id: string; displayName: string; quantity: number; nonNegativeQuantity: number }[];
  readonly purchases: Purchase[];
  readonly changes: {
    id: string;
    itemId: string;
    delta: number;
    description: string | null;
    expiresAt: Date | null;
    createdAt: Date;
  }[];
};

type WirePrice = InlineOfferJson["prices"][string];

function priceToWire(price: OfferPrice): WirePrice {
  const { interval, freeTrial, serverOnly, ...amounts } = price;
  const out: Record<string, unknown> = { ...amounts };
  if (interval !== undefined) out.interval = interval;
  if (freeTrial !== undefined) out.free_trial = freeTrial;
  if (serverOnly !== undefined) out.server_only = serverOnly;
  return out as WirePrice;
}

function priceFromWire(price: WirePrice): OfferPrice {
  const { interval, free_trial, server_only, ...amounts } = price;
  const out: Record<string, unknown> = { ...amounts };
  if (interval !== undefined) out.interval = interval;
  if (free_trial !== undefined) out.freeTrial = free_trial;
  if (server_only !== undefined) out.serverOnly = server_only;
  return out as OfferPrice;
}

const mapValues = <A, B>(record: Record<string, A>, f: (a: A) => B): Record<string, B> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));

export function inlineOfferToWire(offer: InlineOffer): InlineOfferJson {
  const out: InlineOfferJson = {
    display_name: offer.displayName,
    customer_type: offer.customerType,
    prices: mapValues(offer.prices, priceToWire),
    included_items: mapValues(offer.includedItems, (i) => ({ ...i })),
  };
  if (offer.serverOnly !== undefined) out.server_only = offer.serverOnly;
  if (offer.stackable !== undefined) out.stackable = offer.stackable;
  if (offer.freeTrial !== undefined) out.free_trial = offer.freeTrial;
  return out;
}

export function inlineOfferFromWire(json: InlineOfferJson): InlineOffer {
  const out: InlineOffer = {
    displayName: json.display_name,
    customerType: json.customer_type,
    prices: mapValues(json.prices, priceFromWire),
    includedItems: mapValues(json.included_items, (i) => ({ ...i })),
  };
  if (json.server_only !== undefined) out.serverOnly = json.server_only;
  if (json.stackable !== undefined) out.stackable = json.stackable;
  if (json.free_trial !== undefined) out.freeTrial = json.free_trial;
  return out;
}

/** The wire fields naming the offer of a request. */
export function offerChoiceToWire(choice: OfferChoice): Record<string, unknown> {
  if ("inlineOffer" in choice) return { inline_offer: inlineOfferToWire(choice.inlineOffer) };
  if ("productId" in choice) return { product_id: choice.productId };
  return { offer_id: choice.offerId };
}

const dateOrNull = (millis: number | null) => (millis === null ? null : new Date(millis));

export function purchaseFromJson(json: PurchaseJson): Purchase {
  return {
    id: json.id,
    customerType: json.customer_type,
    customerId: json.customer_id,
    offerId: json.offer_id,
    offer: inlineOfferFromWire(json.offer),
    priceId: json.price_id,
    quantity: json.quantity,
    kind: json.kind,
    status: json.status,
    source: json.source,
    createdAt: new Date(json.created_at_millis),
    currentPeriodEnd: dateOrNull(json.current_period_end_millis),
    cancelAtPeriodEnd: json.cancel_at_period_end,
    endedAt: dateOrNull(json.ended_at_millis),
  };
}

export function productsFromJson(json: OwnedProductsJson): CustomerProductsList {
  const list = json.items.map((p) => ({
    id: p.id,
    quantity: p.quantity,
    displayName: p.product.display_name,
    customerType: p.product.customer_type,
    isServerOnly: p.product.server_only ?? false,
    stackable: p.product.stackable ?? false,
    offer: inlineOfferFromWire(p.product),
  }));
  return Object.assign(list, { nextCursor: json.pagination.next_cursor });
}

export function purchaseCodeFromJson(json: ValidatedCodeJson): PurchaseCodeDetails {
  return {
    offer: inlineOfferFromWire(json.offer),
    offerId: json.offer_id,
    projectId: json.project_id,
    projectDisplayName: json.project_display_name,
    projectLogoUrl: json.project_logo_url,
    customerType: json.customer_type,
    customerId: json.customer_id,
    stripeAccountId: json.stripe_account_id,
    alreadyBoughtNonStackable: json.already_bought_non_stackable,
    conflictingOffers: json.conflicting_products.map((c) => ({ offerId: c.offer_id, displayName: c.display_name })),
    testMode: json.test_mode,
    chargesEnabled: json.charges_enabled,
    expiresAt: new Date(json.expires_at_millis),
  };
}

export function customerViewFromJson(json: CustomerViewJson): PaymentsCustomerView {
  return {
    customerType: json.customer_type,
    customerId: json.customer_id,
    items: json.items.map((i) => ({
      id: i.id,
      displayName: i.display_name,
      quantity: i.quantity,
      nonNegativeQuantity: Math.max(0, i.quantity),
    })),
    purchases: json.purchases.map(purchaseFromJson),
    changes: json.changes.map((c) => ({
      id: c.id,
      itemId: c.item_id,
      delta: c.delta,
      description: c.description,
      expiresAt: dateOrNull(c.expires_at_millis),
      createdAt: new Date(c.created_at_millis),
    })),
  };
}
