/**
 * Grants by time (issue 15): what an item's default and a customer's purchases grant at a given
 * moment, computed, never stored. A grant that never expires joins the customer's "never" pool
 * (key null). One that can end — a repeat's current grant ("when-repeated"), or items that end
 * with their purchase — has a key, so a decrease spent from it ends with it (ledger `grant_key`).
 */
import type { Interval } from "@doorman/shared/wire-payments";
import type { PurchaseRow } from "../../db/queries/payments";
import { type IncludedItem, type ItemConfig, type OfferConfig, type PaymentsConfig, productLineOf } from "./config";

/** One grant bucket: `key` null is the never-expiring pool; `expiresAt` null with a key: ends at a time not known yet. */
export type Grant = { key: string | null; amount: number; expiresAt: number | null };

const DAY = 86_400_000;

/** `at` moved by `count` intervals, calendar months and years in UTC (Jan 31 + 1 month = Feb 28/29). */
export function addInterval(at: number, [n, unit]: Interval, count = 1): number {
  if (unit === "day") return at + n * count * DAY;
  if (unit === "week") return at + 7 * n * count * DAY;
  const d = new Date(at);
  const months = (unit === "month" ? n : 12 * n) * count;
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + months,
      1,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
      d.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime();
}

/** How many intervals have started from `start` up to `now` (the grant at `start` included); at most 100,000. */
function periodsStarted(start: number, now: number, interval: Interval, end: number | null): number {
  if (now < start) return 0;
  const until = end === null ? now : Math.min(now, end - 1);
  // An estimate from the mean length, then corrected, keeps a long-lived customer at O(1).
  const [n, unit] = interval;
  const mean = { day: DAY, week: 7 * DAY, month: 30.436875 * DAY, year: 365.2425 * DAY }[unit] * n;
  let k = Math.max(0, Math.floor((until - start) / mean) - 1);
  while (k < 100_000 && addInterval(start, interval, k + 1) <= until) k++;
  while (k > 0 && addInterval(start, interval, k) > until) k--;
  return Math.min(k + 1, 100_000);
}

/**
 * The grants of `quantity` per period from `start`: with no repeat, one grant; with a repeat and
 * "when-repeated", only the current period's grant (it ends at the next); otherwise all periods so far.
 * `end`: when the source ends (a purchase's end); `endsWithSource`: the grants end then too.
 */
function grantsOf(
  key: string,
  g: { quantity: number; repeat?: "never" | Interval; expires?: string },
  start: number,
  now: number,
  end: number | null,
  endsWithSource: boolean,
): Grant[] {
  if (g.quantity === 0 || now < start) return [];
  if (endsWithSource && end !== null && end <= now) return [];
  const sourceKey = endsWithSource ? key : null;
  if (!g.repeat || g.repeat === "never") return [{ key: sourceKey, amount: g.quantity, expiresAt: endsWithSource ? end : null }];
  const started = periodsStarted(start, now, g.repeat, end);
  if (started === 0) return [];
  if (g.expires === "when-repeated") {
    const next = addInterval(start, g.repeat, started);
    const ends = endsWithSource && end !== null ? Math.min(end, next) : next;
    if (ends <= now) return [];
    return [{ key: `${key}:${started - 1}`, amount: g.quantity, expiresAt: ends }];
  }
  return [{ key: sourceKey, amount: g.quantity * started, expiresAt: endsWithSource ? end : null }];
}

/** The grants of an item's default, from when the customer began (`anchor`). */
export function defaultGrants(item: ItemConfig, anchor: number, now: number): Grant[] {
  if (!item.default) return [];
  return grantsOf("default", item.default, anchor, now, null, false);
}

/** The grants of one item from the customer's purchases (refunded ones grant nothing). */
export function purchaseGrants(itemId: string, rows: PurchaseRow[], now: number): Grant[] {
  const out: Grant[] = [];
  for (const p of rows) {
    if (p.status === "refunded") continue;
    const included = (p.offer as OfferConfig).includedItems?.[itemId] as IncludedItem | undefined;
    if (!included) continue;
    const expires = included.expires ?? "never";
    const endsWithPurchase = expires === "when-purchase-expires" || (expires === "when-repeated" && p.endedAt !== null);
    const g = { ...included, quantity: included.quantity * (p.quantity - p.refundedQuantity) };
    out.push(...grantsOf(`p:${p.id}`, g, p.createdAt, now, p.endedAt, endsWithPurchase));
  }
  return out;
}

/**
 * Whether a purchase is owned now: not refunded or ended, and not past its end. A subscription
 * canceled at period end stays owned until then.
 */
export const isOwned = (p: PurchaseRow, now: number) =>
  p.status !== "refunded" && p.status !== "ended" && (p.endedAt === null || p.endedAt > now);

/**
 * The include-by-default offers every customer of the type owns without buying: those with no
 * group, or whose group has no offer the customer owns. Their items run from the customer's start.
 */
export function defaultOffers(payments: PaymentsConfig, customerType: string, owned: PurchaseRow[], now: number): [string, OfferConfig][] {
  const ownedGroups = new Set(
    owned
      .filter((p) => isOwned(p, now))
      .map((p) => productLineOf(p.offer))
      .filter(Boolean),
  );
  return Object.entries(payments.products).filter(
    ([, o]) =>
      o.prices === "include-by-default" && o.customerType === customerType && !(o.productLineId && ownedGroups.has(o.productLineId)),
  );
}

/** The grants of one item from the customer's include-by-default offers. */
export function defaultOfferGrants(itemId: string, offers: [string, OfferConfig][], anchor: number, now: number): Grant[] {
  return offers.flatMap(([offerId, o]) => {
    const included = o.includedItems[itemId];
    if (!included) return [];
    const endsWith = included.expires === "when-repeated";
    return grantsOf(`o:${offerId}`, included, anchor, now, null, endsWith);
  });
}
