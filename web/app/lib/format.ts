/**
 * How the console and the purchase page write dates, times, counts and amounts: one place, so a
 * date reads the same on every page. Dates and times follow the browser's locale unless a locale
 * is given; counts and money are en-US.
 *
 * Payments words live here too: money in a currency ("$5.00"), intervals ("per month", "every 3
 * months"), free trials ("7-day free trial"), item repeats, and a price's main currency.
 */
import { CURRENCY_CODES, type Currency, type Interval } from "@doorman/shared/wire-payments";

/** What a missing date shows. */
export const NO_DATE = "—";

/** "Jan 5, 2026, 10:04 AM" (medium date, short time); "—" when there is no date. */
export function formatDateTime(date: Date | number | null | undefined, locale?: string): string {
  if (date === null || date === undefined) return NO_DATE;
  return new Date(date).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

/** "Jan 5, 2026" (a day, no time). */
export function formatDay(date: Date, locale?: string): string {
  return date.toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
}

/** The locale's plain date ("1/5/2026" in en-US). */
export function formatShortDay(date: Date, locale?: string): string {
  return date.toLocaleDateString(locale);
}

/** The locale's plain date and time, seconds included ("1/5/2026, 10:04:31 AM"); "—" when there is none. */
export function formatTimestamp(date: Date | null | undefined, locale?: string): string {
  return date ? date.toLocaleString(locale) : NO_DATE;
}

/** A UTC calendar day ("2026-01-05") as "Jan 5". */
export function formatUtcDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });
}

/** A count with thousands separators ("12,345"). */
export function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

/** "$5.00", "€4.50", "¥500" (amounts are decimal strings, as the wire carries them). */
export function formatMoney(amount: string, currency: string, locale = "en-US"): string {
  const value = Number(amount);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(value);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A decimal amount times a quantity, kept exact in cents ("5.00" × 3 → "15.00"). */
export function multiplyAmount(amount: string, quantity: number): string {
  const [whole = "0", fraction = ""] = amount.split(".");
  const cents = (BigInt(whole) * 100n + BigInt((fraction + "00").slice(0, 2))) * BigInt(quantity);
  return `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;

/** "per month", "every 3 months". */
export function formatInterval(interval: Interval): string {
  const [count, unit] = interval;
  return count === 1 ? `per ${unit}` : `every ${plural(count, unit)}`;
}

/** "every month", "every 3 months" (item repeats). */
export function formatRepeat(repeat: Interval | "never" | undefined): string | null {
  if (!repeat || repeat === "never") return null;
  const [count, unit] = repeat;
  return count === 1 ? `every ${unit}` : `every ${plural(count, unit)}`;
}

/** "7-day free trial", "1-month free trial". */
export function formatFreeTrial(trial: Interval): string {
  const [count, unit] = trial;
  return `${count}-${unit} free trial`;
}

/** The amounts of a price (wire or config), in the order of CURRENCY_CODES (USD first). */
export function priceAmounts(price: Record<string, unknown>): { currency: Currency; amount: string }[] {
  return CURRENCY_CODES.filter((c) => typeof price[c] === "string").map((c) => ({ currency: c, amount: price[c] as string }));
}

/** "$5.00 one-time", "$9.99 per month" (the first currency of the price). */
export function describePrice(price: Record<string, unknown> & { interval?: Interval }): string {
  const [main] = priceAmounts(price);
  const money = main ? formatMoney(main.amount, main.currency) : "No amount";
  return price.interval ? `${money} ${formatInterval(price.interval)}` : `${money} one-time`;
}
