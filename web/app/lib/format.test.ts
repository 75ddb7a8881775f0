import { describe, expect, it } from "vitest";
import {
  describePrice,
  formatCount,
  formatDateTime,
  formatDay,
  formatFreeTrial,
  formatInterval,
  formatMoney,
  formatRepeat,
  formatShortDay,
  formatTimestamp,
  formatUtcDay,
  multiplyAmount,
  NO_DATE,
  priceAmounts,
} from "./format";

/** ICU versions differ on the space before AM/PM (U+0020, U+202F): compare with plain spaces. */
const plain = (s: string) => s.replace(/\s/g, " ");

// 2026-01-05 10:04:31 in the runner's time zone: the formats are local, so is the date.
const date = new Date(2026, 0, 5, 10, 4, 31);

describe("dates and times", () => {
  it("writes a date and time at minute precision", () => {
    expect(plain(formatDateTime(date, "en-US"))).toBe("Jan 5, 2026, 10:04 AM");
    expect(plain(formatDateTime(date.getTime(), "en-US"))).toBe("Jan 5, 2026, 10:04 AM");
  });
  it("writes a dash for a missing date", () => {
    expect(formatDateTime(null)).toBe(NO_DATE);
    expect(formatDateTime(undefined)).toBe("—");
    expect(formatTimestamp(null)).toBe("—");
  });
  it("writes days without the time", () => {
    expect(formatDay(date, "en-US")).toBe("Jan 5, 2026");
    expect(formatShortDay(date, "en-US")).toBe("1/5/2026");
  });
  it("keeps the seconds in a timestamp", () => {
    expect(plain(formatTimestamp(date, "en-US"))).toBe("1/5/2026, 10:04:31 AM");
  });
  it("writes a UTC calendar day whatever the local zone", () => {
    expect(formatUtcDay("2026-01-05")).toBe("Jan 5");
    expect(formatUtcDay("2025-12-31")).toBe("Dec 31");
  });
  it("uses the browser's locale when none is given", () => {
    expect(formatDateTime(date)).toBe(date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }));
  });
});

describe("counts and money", () => {
  it("groups thousands", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(12345)).toBe("12,345");
    expect(formatCount(-1500)).toBe("-1,500");
  });
  it("formats money in its currency", () => {
    expect(formatMoney("5", "USD")).toBe("$5.00");
    expect(formatMoney("4.5", "EUR")).toBe("€4.50");
    expect(formatMoney("500", "JPY")).toBe("¥500");
  });
  it("falls back to the amount and code for an unknown currency", () => {
    expect(formatMoney("5", "NOT-A-CURRENCY")).toBe("5 NOT-A-CURRENCY");
  });
  it("multiplies amounts exactly in cents", () => {
    expect(multiplyAmount("5.00", 3)).toBe("15.00");
    expect(multiplyAmount("0.10", 3)).toBe("0.30");
    expect(multiplyAmount("19.9", 2)).toBe("39.80");
    expect(multiplyAmount("7", 1)).toBe("7.00");
  });
});

describe("payments words", () => {
  it("writes intervals, repeats and free trials", () => {
    expect(formatInterval([1, "month"])).toBe("per month");
    expect(formatInterval([3, "month"])).toBe("every 3 months");
    expect(formatRepeat([1, "week"])).toBe("every week");
    expect(formatRepeat([2, "year"])).toBe("every 2 years");
    expect(formatRepeat("never")).toBeNull();
    expect(formatRepeat(undefined)).toBeNull();
    expect(formatFreeTrial([7, "day"])).toBe("7-day free trial");
  });
  it("lists a price's amounts USD first and describes the price by its first one", () => {
    expect(priceAmounts({ EUR: "4.50", USD: "5.00", serverOnly: true })).toEqual([
      { currency: "USD", amount: "5.00" },
      { currency: "EUR", amount: "4.50" },
    ]);
    expect(describePrice({ USD: "5.00" })).toBe("$5.00 one-time");
    expect(describePrice({ USD: "9.99", interval: [1, "month"] })).toBe("$9.99 per month");
    expect(describePrice({})).toBe("No amount one-time");
  });
});
