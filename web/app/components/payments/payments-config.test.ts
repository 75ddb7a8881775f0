import { describe, expect, it } from "vitest";
import { CONFIG_ID, idProblem, type OfferConfig, offerWrite } from "./payments-config";

describe("payments config ids", () => {
  it("takes letters, digits, _ and -, not - first, at most 63 characters", () => {
    expect(CONFIG_ID.test("credits")).toBe(true);
    expect(CONFIG_ID.test("_pro-plan_2")).toBe(true);
    expect(CONFIG_ID.test("-pro")).toBe(false);
    expect(CONFIG_ID.test("pro plan")).toBe(false);
    expect(CONFIG_ID.test("a".repeat(63))).toBe(true);
    expect(CONFIG_ID.test("a".repeat(64))).toBe(false);
  });
  it("says why an id cannot be used", () => {
    expect(idProblem("", [], "item")).toBe("Enter an id for the item.");
    expect(idProblem("x y", [], "item")).toMatch(/^Use letters/);
    expect(idProblem("credits", ["credits"], "item")).toMatch(/^There is already an? item with this id\.$/);
    expect(idProblem("credits", ["seats"], "item")).toBeNull();
  });
});

describe("offerWrite", () => {
  const offer: OfferConfig = {
    displayName: "Pro",
    customerType: "team",
    groupId: "plans",
    serverOnly: false,
    stackable: false,
    prices: "include-by-default",
    includedItems: {},
  };
  it("writes an offer as a product under the config's current names, and a new group as a product line", () => {
    const { groupId: _, ...rest } = offer;
    expect(offerWrite("pro", offer, "plans")).toEqual({
      "payments.productLines.plans": { displayName: "plans", customerType: "team" },
      "payments.products.pro": { ...rest, productLineId: "plans" },
    });
    expect(offerWrite("free", rest, null)).toEqual({ "payments.products.free": rest });
  });
});
