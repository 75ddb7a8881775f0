/**
 * The `payments` section of the config (issue 15), the reference's current keys: items, products
 * (Doorman's offers) and product lines (its groups), and test mode. Old names (`offers`, `groups`,
 * `catalogs`, `groupId`, `catalogId`) are renamed on the way in (project-config/migrate.ts). It lives only in the config overrides (read through renderConfig where payments
 * need it), like the email themes; the per-request flat config stays small.
 */

import {
  CURRENCY_CODES,
  type Currency,
  customerTypeSchema,
  type InlineOffer,
  intervalSchema,
  moneyAmountSchema,
  repeatSchema,
  userIdSchema,
} from "@doorman/shared/wire-payments";
import { z } from "zod";

const includedItem = z.strictObject({
  quantity: z.number().int().min(0).max(1_000_000_000),
  repeat: repeatSchema.optional(),
  expires: z.enum(["never", "when-purchase-expires", "when-repeated"]).optional(),
});

export type PriceConfig = {
  interval?: z.infer<typeof intervalSchema>;
  serverOnly?: boolean;
  freeTrial?: z.infer<typeof intervalSchema>;
} & Partial<Record<Currency, string>>;

const price: z.ZodType<PriceConfig> = z
  .object({
    interval: intervalSchema.optional(),
    serverOnly: z.boolean().optional(),
    freeTrial: intervalSchema.optional(),
    ...Object.fromEntries(CURRENCY_CODES.map((c) => [c, moneyAmountSchema.optional()])),
  })
  .strict()
  .refine((p) => CURRENCY_CODES.some((c) => (p as Record<string, unknown>)[c] !== undefined), "a price needs at least one currency");

/** Free-form JSON the project attaches to an offer (the reference's client / client read-only / server metadata). */
const metadata = z.record(z.string(), z.unknown()).nullable().optional();

export const offerConfigSchema = z.strictObject({
  displayName: z.string().min(1).max(256),
  customerType: customerTypeSchema,
  /** Offers of one product line are exclusive: buying one replaces the customer's other subscription in it. */
  productLineId: userIdSchema.optional(),
  /** false, or the offers this one is an add-on of (buyable only by owners of one of them). */
  isAddOnTo: z.union([z.literal(false), z.record(userIdSchema, z.literal(true))]).optional(),
  serverOnly: z.boolean(),
  stackable: z.boolean(),
  freeTrial: intervalSchema.optional(),
  /** "include-by-default": the product line's free default, owned by every customer of the type without buying. */
  prices: z.union([z.literal("include-by-default"), z.record(userIdSchema, price)]),
  includedItems: z.record(userIdSchema, includedItem),
  clientMetadata: metadata,
  clientReadOnlyMetadata: metadata,
  /** Only servers read it (never clients, never the public purchase page). */
  serverMetadata: metadata,
});
export type OfferConfig = z.infer<typeof offerConfigSchema>;
export type IncludedItem = z.infer<typeof includedItem>;

export const itemConfigSchema = z.strictObject({
  /** Defaults to the item's id (as the reference). */
  displayName: z.string().min(1).max(256).optional(),
  /** Defaults to "user" (as the reference). */
  customerType: customerTypeSchema.default("user"),
  /** What every customer of the type holds without buying: a quantity, optionally granted again each interval. */
  default: z
    .strictObject({
      quantity: z.number().int().min(0).max(1_000_000_000),
      repeat: repeatSchema.optional(),
      expires: z.enum(["never", "when-repeated"]).optional(),
    })
    .optional(),
});
export type ItemConfig = Omit<z.infer<typeof itemConfigSchema>, "displayName"> & { displayName: string };

/** The items of the config, each with its display name (its id when none is set). */
const itemsSchema = z
  .record(userIdSchema, itemConfigSchema)
  .transform(
    (items): Record<string, ItemConfig> =>
      Object.fromEntries(Object.entries(items).map(([id, item]) => [id, { ...item, displayName: item.displayName ?? id }])),
  );

export const paymentsConfigSchema = z.strictObject({
  /** Test mode: the built-in test checkout completes purchases; no money moves. */
  testMode: z.boolean(),
  /** Stops new purchases (purchase URLs, checkouts, test purchases, switches): NEW_PURCHASES_BLOCKED. What customers own stays. */
  blockNewPurchases: z.boolean(),
  /** The reference's product lines (formerly catalogs, groups): "one of these products at a time". */
  productLines: z.record(
    userIdSchema,
    z.strictObject({ displayName: z.string().max(256).optional(), customerType: customerTypeSchema.optional() }),
  ),
  items: itemsSchema,
  /** The reference's products (formerly offers). */
  products: z.record(userIdSchema, offerConfigSchema),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

export const defaultPaymentsConfig = (): PaymentsConfig => ({
  testMode: true,
  blockNewPurchases: false,
  productLines: {},
  items: {},
  products: {},
});

/** Record paths: a set record replaces the default's entries instead of adding to them. */
export const PAYMENTS_RECORD_PATHS = ["payments.productLines", "payments.items", "payments.products"];

/** The wire's inline offer of a config offer; `audience` "client" leaves out the server metadata. */
export function offerToWire(o: OfferConfig, audience: "server" | "client" = "server"): InlineOffer {
  const prices = o.prices === "include-by-default" ? {} : o.prices;
  return {
    client_metadata: o.clientMetadata ?? null,
    client_read_only_metadata: o.clientReadOnlyMetadata ?? null,
    ...(audience === "server" ? { server_metadata: o.serverMetadata ?? null } : {}),
    display_name: o.displayName,
    customer_type: o.customerType,
    server_only: o.serverOnly,
    stackable: o.stackable,
    ...(o.freeTrial ? { free_trial: o.freeTrial } : {}),
    prices: Object.fromEntries(
      Object.entries(prices).map(([id, p]) => {
        const amounts = Object.fromEntries(CURRENCY_CODES.filter((c) => p[c] !== undefined).map((c) => [c, p[c]]));
        return [
          id,
          {
            ...amounts,
            ...(p.interval ? { interval: p.interval } : {}),
            ...(p.freeTrial ? { free_trial: p.freeTrial } : {}),
            ...(p.serverOnly !== undefined ? { server_only: p.serverOnly } : {}),
          },
        ];
      }),
    ),
    included_items: o.includedItems,
  };
}

/** The config offer of a wire inline offer (server calls only). */
export function offerFromWire(w: InlineOffer): OfferConfig {
  return {
    displayName: w.display_name,
    customerType: w.customer_type,
    serverOnly: w.server_only ?? false,
    stackable: w.stackable ?? false,
    ...(w.free_trial ? { freeTrial: w.free_trial } : {}),
    prices: Object.fromEntries(
      Object.entries(w.prices).map(([id, p]) => {
        const { interval, free_trial, server_only, ...amounts } = p as Record<string, unknown> & {
          interval?: PriceConfig["interval"];
          free_trial?: PriceConfig["freeTrial"];
          server_only?: boolean;
        };
        return [
          id,
          {
            ...(amounts as Partial<Record<Currency, string>>),
            ...(interval ? { interval } : {}),
            ...(free_trial ? { freeTrial: free_trial } : {}),
            ...(server_only !== undefined ? { serverOnly: server_only } : {}),
          } as PriceConfig,
        ];
      }),
    ),
    includedItems: w.included_items,
    ...(w.client_metadata ? { clientMetadata: w.client_metadata } : {}),
    ...(w.client_read_only_metadata ? { clientReadOnlyMetadata: w.client_read_only_metadata } : {}),
    ...(w.server_metadata ? { serverMetadata: w.server_metadata } : {}),
  };
}

/**
 * The product line of an offer as stored with a purchase: snapshots written before the rename
 * carry `groupId`, newer ones `productLineId`.
 */
export function productLineOf(offer: unknown): string | undefined {
  const o = offer as { productLineId?: string; groupId?: string } | null;
  return o?.productLineId ?? o?.groupId;
}
