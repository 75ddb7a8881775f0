/**
 * The project's payments ledger as the reference's transactions (`GET /internal/payments/transactions`):
 * purchases (a subscription's start or a one-time purchase, with the product granted and the money
 * charged), manual item quantity changes, and paid subscription renewals, newest first. Each source
 * is read after the cursor and the pages are merged, so a page costs one query per source whatever
 * the project's size. A refund shows on its purchase as `adjusted_by`.
 */
import { CURRENCIES, CURRENCY_CODES, type Currency } from "@doorman/shared/wire-payments";
import {
  type LedgerChange,
  type LedgerCursor,
  listChangesPage,
  listPurchasesPage,
  listRenewalsPage,
  purchasesBySubscriptionIds,
  refundsOfPurchases,
  type StripeInvoiceRow,
} from "../../db/queries/payment-ledger";
import type { PurchaseRow } from "../../db/queries/payments";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { type OfferConfig, offerToWire } from "./config";
import { minorUnits } from "./stripe-checkout";

export const TRANSACTION_TYPES = [
  "purchase",
  "subscription-cancellation",
  "subscription-renewal",
  "manual-item-quantity-change",
  "chargeback",
  "product-change",
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

type Source = "sub-start" | "otp" | "miqc" | "sub-renewal";
const SOURCES_OF: Record<TransactionType, Source[]> = {
  purchase: ["sub-start", "otp"],
  "manual-item-quantity-change": ["miqc"],
  "subscription-renewal": ["sub-renewal"],
  // Not recorded as transactions of their own (as the reference).
  "subscription-cancellation": [],
  chargeback: [],
  "product-change": [],
};
const ALL_SOURCES: Source[] = ["sub-start", "otp", "miqc", "sub-renewal"];

type Entry = Record<string, unknown>;
export type Transaction = {
  id: string;
  created_at_millis: number;
  effective_at_millis: number;
  type: "purchase" | "subscription-renewal" | "manual-item-quantity-change";
  entries: Entry[];
  adjusted_by: { transaction_id: string; entry_index: number }[];
  test_mode: boolean;
};
type Row = { source: Source; id: string; createdAt: number; build: () => Transaction };

/** "9.99" × 3 in the currency's decimals ("29.97"); "0" stays out of a charged amount. */
export function multiplyAmount(amount: string, quantity: number, currency: Currency): string | null {
  const units = minorUnits(amount, currency);
  return units === null ? null : fromMinorUnits(units * quantity, currency);
}

/** Minor units as the wire's decimal string (1250 → "12.5", 5000 → "50"; negative keeps its sign). */
export function fromMinorUnits(units: number, currency: Currency): string {
  const decimals = CURRENCIES[currency];
  const abs = Math.abs(units)
    .toString()
    .padStart(decimals + 1, "0");
  const whole = decimals ? abs.slice(0, -decimals) : abs;
  const fraction = decimals ? abs.slice(-decimals).replace(/0+$/, "") : "";
  const text = fraction ? `${whole}.${fraction}` : whole;
  return units < 0 && text !== "0" ? `-${text}` : text;
}

/** The price a purchase was bought at, or null (a grant, an include-by-default product). */
function priceOf(p: Pick<PurchaseRow, "offer" | "priceId">) {
  const offer = p.offer as OfferConfig;
  return p.priceId && offer.prices !== "include-by-default" ? (offer.prices[p.priceId] ?? null) : null;
}

/** What the purchase charged, per currency of its price. */
export function chargedAmount(p: Pick<PurchaseRow, "offer" | "priceId" | "quantity">): Record<string, string> {
  const price = priceOf(p);
  if (!price) return {};
  const out: Record<string, string> = {};
  for (const c of CURRENCY_CODES) {
    const amount = price[c];
    const total = amount === undefined ? null : multiplyAmount(amount, p.quantity, c);
    if (total !== null && total !== "0") out[c] = total;
  }
  return out;
}

/** The reference's inline product of a stored product snapshot. */
function inlineProduct(offer: OfferConfig) {
  const wire = offerToWire(offer);
  return {
    display_name: wire.display_name,
    customer_type: wire.customer_type,
    stackable: wire.stackable,
    server_only: wire.server_only,
    included_items: Object.fromEntries(
      Object.entries(offer.includedItems ?? {}).map(([id, i]) => [
        id,
        { quantity: i.quantity, repeat: i.repeat ?? "never", expires: i.expires ?? "never" },
      ]),
    ),
    prices: Object.fromEntries(
      Object.entries(wire.prices).map(([id, p]) => {
        const { server_only: _s, ...rest } = p as Record<string, unknown>;
        return [id, rest];
      }),
    ),
    client_metadata: null,
    client_read_only_metadata: null,
    server_metadata: null,
  };
}

const noAdjustment = { adjusted_transaction_id: null, adjusted_entry_index: null };

function moneyEntry(customerType: string, customerId: string, charged: Record<string, string>): Entry | null {
  if (!Object.keys(charged).length) return null;
  return {
    type: "money_transfer",
    ...noAdjustment,
    customer_type: customerType,
    customer_id: customerId,
    charged_amount: charged,
    net_amount: { USD: charged.USD ?? "0" },
  };
}

/** A purchase's entries: the product grant (index 0), then the money it charged through Stripe. */
export function purchaseEntries(p: PurchaseRow): Entry[] {
  const grant: Entry = {
    type: "product_grant",
    ...noAdjustment,
    customer_type: p.customerType,
    customer_id: p.customerId,
    product_id: p.offerId,
    product: inlineProduct(p.offer as OfferConfig),
    // A server's grant sold nothing at a price (the reference's grants carry none).
    price_id: p.source === "api_grant" ? null : p.priceId,
    quantity: p.quantity,
    ...(p.kind === "subscription" ? { subscription_id: p.id } : { one_time_purchase_id: p.id }),
  };
  const money = p.source === "stripe" ? moneyEntry(p.customerType, p.customerId, chargedAmount(p)) : null;
  return money ? [grant, money] : [grant];
}

function purchaseRow(p: PurchaseRow): Row {
  const source: Source = p.kind === "subscription" ? "sub-start" : "otp";
  return {
    source,
    id: p.id,
    createdAt: p.createdAt,
    build: () => ({
      id: p.id,
      created_at_millis: p.createdAt,
      effective_at_millis: p.createdAt,
      type: "purchase",
      entries: purchaseEntries(p),
      adjusted_by: [],
      test_mode: p.source === "test_mode",
    }),
  };
}

function changeRow(c: LedgerChange): Row {
  return {
    source: "miqc",
    id: c.changeId,
    createdAt: c.createdAt,
    build: () => ({
      id: c.changeId,
      created_at_millis: c.createdAt,
      effective_at_millis: c.createdAt,
      type: "manual-item-quantity-change",
      entries: [
        {
          type: "item_quantity_change",
          ...noAdjustment,
          customer_type: c.customerType,
          customer_id: c.customerId,
          item_id: c.itemId,
          quantity: c.delta,
        },
      ],
      adjusted_by: [],
      test_mode: false,
    }),
  };
}

function renewalRow(inv: StripeInvoiceRow, purchase: PurchaseRow | undefined): Row {
  const currency = inv.currency?.toUpperCase() as Currency | undefined;
  // The subscription's price, or what the invoice says it charged.
  const charged = purchase
    ? chargedAmount(purchase)
    : currency && currency in CURRENCIES && inv.amountTotal !== null
      ? { [currency]: fromMinorUnits(inv.amountTotal, currency) }
      : {};
  const money = moneyEntry(inv.customerType, inv.customerId, charged);
  return {
    source: "sub-renewal",
    id: inv.id,
    createdAt: inv.createdAt,
    build: () => ({
      id: inv.id,
      created_at_millis: inv.createdAt,
      effective_at_millis: inv.createdAt,
      type: "subscription-renewal",
      entries: money ? [money] : [],
      adjusted_by: [],
      test_mode: false,
    }),
  };
}

const txnKey = (r: { source: string; id: string }) => `${r.source}:${r.id}`;
/** Newest first; ties by the reference's transaction id (source:id), descending. */
const newerFirst = (a: Row, b: Row) => b.createdAt - a.createdAt || (txnKey(b) > txnKey(a) ? 1 : txnKey(b) < txnKey(a) ? -1 : 0);

function encodeCursor(c: { createdAtMillis: number; txnId: string }): string {
  return btoa(JSON.stringify(c)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeCursor(cursor: string): { createdAtMillis: number; txnId: string } | null {
  try {
    const parsed = JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
    const { createdAtMillis, txnId } = parsed;
    if (typeof createdAtMillis !== "number" || !Number.isInteger(createdAtMillis) || createdAtMillis < 0) return null;
    if (typeof txnId !== "string" || !/^(sub-start|otp|miqc|sub-renewal):.{1,256}$/.test(txnId)) return null;
    return { createdAtMillis, txnId };
  } catch {
    return null;
  }
}

/** The cursor as one source's "before": rows of that source sorting after (createdAt, txnId). */
function beforeFor(source: Source, c: { createdAtMillis: number; txnId: string }): LedgerCursor {
  const prefix = `${source}:`;
  if (c.txnId.startsWith(prefix)) return { createdAt: c.createdAtMillis, id: c.txnId.slice(prefix.length) };
  // Another source at the same time: this source's rows there come after the cursor iff its prefix sorts lower.
  return prefix < c.txnId ? { createdAt: c.createdAtMillis + 1, id: "" } : { createdAt: c.createdAtMillis, id: "" };
}

export type ListTransactionsInput = { limit: number; cursor?: string; type?: TransactionType; customerType?: "user" | "team" | "custom" };

export async function listTransactions(
  deps: Deps,
  projectId: string,
  input: ListTransactionsInput,
): Promise<{ ok: true; transactions: Transaction[]; nextCursor: string | null } | Problem<"transaction_cursor_invalid">> {
  const cursor = input.cursor ? decodeCursor(input.cursor) : null;
  if (input.cursor && !cursor) return fail("transaction_cursor_invalid");
  const sources = input.type ? SOURCES_OF[input.type] : ALL_SOURCES;
  const filter = (s: Source) => ({
    projectId,
    customerType: input.customerType,
    limit: input.limit + 1,
    before: cursor ? beforeFor(s, cursor) : undefined,
  });
  const rows: Row[] = [];
  const has = (s: Source) => sources.includes(s);
  const [subs, otps, changes, renewals] = await Promise.all([
    has("sub-start") ? listPurchasesPage(deps.db, filter("sub-start"), ["subscription"]) : [],
    has("otp") ? listPurchasesPage(deps.db, filter("otp"), ["one_time"]) : [],
    has("miqc") ? listChangesPage(deps.db, filter("miqc")) : [],
    has("sub-renewal") ? listRenewalsPage(deps.db, filter("sub-renewal")) : [],
  ]);
  rows.push(...subs.map(purchaseRow), ...otps.map(purchaseRow), ...changes.map(changeRow));
  const renewed = await purchasesBySubscriptionIds(
    deps.db,
    projectId,
    [...new Set(renewals.map((r) => r.stripeSubscriptionId ?? ""))].filter(Boolean),
  );
  rows.push(
    ...renewals.map((r) =>
      renewalRow(
        r,
        renewed.find((p) => p.stripeSubscriptionId === r.stripeSubscriptionId),
      ),
    ),
  );
  rows.sort(newerFirst);
  const page = rows.slice(0, input.limit);
  const transactions = page.map((r) => r.build());
  const purchaseIds = page.filter((r) => r.source === "sub-start" || r.source === "otp").map((r) => r.id);
  for (const refund of await refundsOfPurchases(deps.db, projectId, purchaseIds)) {
    const tx = transactions.find((t) => t.id === refund.purchaseId && t.type === "purchase");
    // The refund's revocation is its entry 0, of the purchase's product grant (the reference's refund transaction).
    tx?.adjusted_by.push({ transaction_id: `${refund.purchaseId}:refund`, entry_index: 0 });
  }
  const last = page[page.length - 1];
  return {
    ok: true,
    transactions,
    nextCursor: rows.length > input.limit && last ? encodeCursor({ createdAtMillis: last.createdAt, txnId: txnKey(last) }) : null,
  };
}
