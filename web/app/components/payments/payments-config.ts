/**
 * The `payments` section of a project's config as the console edits it (the console's names:
 * items, offers, groups, testMode; the config's current ones are products, productLines and
 * productLineId), read from `project.getConfig()` and written back one entry at a time through
 * `project.updateConfig({ "payments.items.<id>": … })`; null deletes an entry.
 */
import type { Currency, CustomerType, Interval } from "@doorman/shared/wire-payments";
import type { OwnedProject } from "../../lib/dashboard-types";

export type Repeat = "never" | Interval;

export type ItemConfig = {
  displayName: string;
  customerType: CustomerType;
  default?: { quantity: number; repeat?: Repeat; expires?: "never" | "when-repeated" };
};

export type PriceConfig = { interval?: Interval; serverOnly?: boolean; freeTrial?: Interval } & Partial<Record<Currency, string>>;

export type IncludedItemConfig = { quantity: number; repeat?: Repeat; expires?: "never" | "when-purchase-expires" | "when-repeated" };

export type OfferConfig = {
  displayName: string;
  customerType: CustomerType;
  groupId?: string;
  isAddOnTo?: false | Record<string, true>;
  serverOnly: boolean;
  stackable: boolean;
  freeTrial?: Interval;
  prices: "include-by-default" | Record<string, PriceConfig>;
  includedItems: Record<string, IncludedItemConfig>;
};

export type PaymentsConfig = {
  testMode: boolean;
  groups: Record<string, { displayName?: string }>;
  items: Record<string, ItemConfig>;
  offers: Record<string, OfferConfig>;
};

/** The payments section of the rendered config (defaults when the project has none yet). */
export async function loadPaymentsConfig(project: OwnedProject): Promise<PaymentsConfig> {
  const config = await project.getConfig();
  const payments = (config.payments ?? {}) as {
    testMode?: boolean;
    productLines?: PaymentsConfig["groups"];
    items?: PaymentsConfig["items"];
    products?: Record<string, Omit<OfferConfig, "groupId"> & { productLineId?: string }>;
  };
  return {
    testMode: payments.testMode ?? true,
    groups: payments.productLines ?? {},
    items: payments.items ?? {},
    offers: Object.fromEntries(
      Object.entries(payments.products ?? {}).map(([id, { productLineId, ...p }]) => [
        id,
        { ...p, ...(productLineId ? { groupId: productLineId } : {}) },
      ]),
    ),
  };
}

/** The config keys that save an offer (as a product), and a new group (as a product line) when it names one. */
export function offerWrite(id: string, offer: OfferConfig, newGroup: string | null): Record<string, unknown> {
  const { groupId, ...product } = offer;
  return {
    ...(newGroup ? { [`payments.productLines.${newGroup}`]: { displayName: newGroup, customerType: offer.customerType } } : {}),
    [`payments.products.${id}`]: { ...product, ...(groupId ? { productLineId: groupId } : {}) },
  };
}

/** An id as the config takes it: letters, digits, _ and - (not first), at most 63 characters. */
export const CONFIG_ID = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,62}$/;

export const ID_HINT = "Letters, digits, _ and -; used in code and URLs, and cannot be changed later.";

/** Why an id cannot be used, or null. */
export function idProblem(id: string, taken: string[], what: string): string | null {
  if (!id) return `Enter an id for the ${what}.`;
  if (!CONFIG_ID.test(id)) return "Use letters, digits, _ and - only (not - first), at most 63.";
  if (taken.includes(id)) return `There is already a ${what} with this id.`;
  return null;
}

export const CUSTOMER_TYPE_LABELS: Record<CustomerType, string> = { user: "Users", team: "Teams", custom: "Custom ids" };
