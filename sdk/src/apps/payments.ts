/**
 * Payments in the SDK (issue 15): a customer's items (cached reads, `useItem`), server quantity
 * changes (`increaseQuantity`, `decreaseQuantity`, the strict `tryDecreaseQuantity`), checkout
 * URLs, owned products, purchases and grants. The same customer methods are spread into the
 * current user, client teams, server users and server teams; the server app reaches any customer.
 *
 * Item reads go through one AsyncCache per app and access level; a quantity change or a grant
 * made through the SDK re-reads the customer's cached items, so `useItem` shows the new quantity.
 */
import { AsyncCache } from "../cache";
import type { RequestOptions } from "../interface/http";
import { KnownError } from "../shared/known-errors";
import type { AppCore } from "./app-core";
import {
  type ClientOfferChoice,
  type CustomerProductsList,
  type CustomerProductsListOptions,
  type CustomerType,
  type OfferChoice,
  offerChoiceToWire,
  type Purchase,
  productsFromJson,
  purchaseFromJson,
} from "./payments-shapes";
import type { ItemJson, OwnedProductsJson, PurchaseListJson } from "./wire-types";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** An item a customer holds (credits, seats…). */
export type Item = {
  readonly id: string;
  readonly displayName: string;
  /** May be negative (after a plain decrease). */
  readonly quantity: number;
  /** `Math.max(0, quantity)`. */
  readonly nonNegativeQuantity: number;
};

export type QuantityChangeOptions = {
  /** The change drops out of the quantity after this time. */
  expiresAt?: Date;
  /** Kept with the change (shown in the console's ledger). */
  description?: string;
};

/** An item as a server sees it: its quantity can be changed. */
export type ServerItem = Item & {
  /** Adds `delta` to the quantity. */
  increaseQuantity(delta: number, options?: QuantityChangeOptions): Promise<void>;
  /**
   * Subtracts `delta`; the quantity may go below zero. For pre-paid credits use
   * `tryDecreaseQuantity`, which never does, even under concurrency.
   */
  decreaseQuantity(delta: number, options?: QuantityChangeOptions): Promise<void>;
  /** Subtracts `delta` when the quantity covers it (true); false, changing nothing, when it is short. */
  tryDecreaseQuantity(delta: number, options?: QuantityChangeOptions): Promise<boolean>;
};

/** Whom an item or purchase belongs to. */
export type CustomerTarget = { customerType: CustomerType; customerId: string };
/** A customer as the server app names one (the reference's options). */
export type CustomerSelector = { userId: string } | { teamId: string } | { customCustomerId: string };

export type CheckoutOptions = OfferChoice & { returnUrl?: string };
export type ClientCheckoutOptions = ClientOfferChoice & { returnUrl?: string };
export type GrantProductOptions = OfferChoice & { quantity?: number };

export type Level = "client" | "server";

/** How a customer's methods reach the API: the app (cache owner), its access level and requester. */
export type PaymentsContext = { owner: object; level: Level; request: Request };

/** The signed-in user's requests (client level). */
export const clientContext = (app: AppCore): PaymentsContext => ({
  owner: app,
  level: "client",
  request: (path, options) => app._userRequest(path, options),
});

/** A server app's requests (secret or admin key). */
export const serverContext = (app: object, request: Request): PaymentsContext => ({ owner: app, level: "server", request });

const enc = encodeURIComponent;

export function targetOf(selector: CustomerSelector): CustomerTarget {
  if ("userId" in selector) return { customerType: "user", customerId: selector.userId };
  if ("teamId" in selector) return { customerType: "team", customerId: selector.teamId };
  return { customerType: "custom", customerId: selector.customCustomerId };
}

/** Splits the server app's options into the customer and the rest. */
export function splitCustomer<T extends object>(options: CustomerSelector & T): { target: CustomerTarget; rest: T } {
  const rest: Record<string, unknown> = { ...options };
  delete rest.userId;
  delete rest.teamId;
  delete rest.customCustomerId;
  return { target: targetOf(options), rest: rest as T };
}

const customerPath = (t: CustomerTarget) => `${t.customerType}/${enc(t.customerId)}`;
const itemPath = (t: CustomerTarget, itemId: string) => `/payments/items/${customerPath(t)}/${enc(itemId)}`;

// ---- the item caches ----------------------------------------------------------------------------

/** What the React hook needs of one cached item: a store and a builder of item objects. */
export type ItemBinding<I> = {
  subscribe(listener: () => void): () => void;
  /** The cached JSON (a stable object until re-read), or undefined before the first read. */
  snapshot(): ItemJson | undefined;
  load(): Promise<ItemJson>;
  build(json: ItemJson): I;
};

/** One cache per app and access level, remembering its keys so a customer's items can be re-read together. */
class ItemStore {
  readonly cache: AsyncCache<ItemJson>;
  private readonly keys = new Set<string>();
  private readonly bindings = new Map<string, ItemBinding<Item>>();

  constructor(request: Request) {
    this.cache = new AsyncCache((key) => {
      const [customerType, customerId, itemId] = JSON.parse(key) as [CustomerType, string, string];
      return request<ItemJson>(itemPath({ customerType, customerId }, itemId));
    });
  }

  key(target: CustomerTarget, itemId: string): string {
    const key = JSON.stringify([target.customerType, target.customerId, itemId]);
    this.keys.add(key);
    return key;
  }

  /** Marks the customer's cached items stale (watched ones are re-read at once). */
  invalidateCustomer(target: CustomerTarget): void {
    const prefix = JSON.stringify([target.customerType, target.customerId]).slice(0, -1);
    for (const key of this.keys) if (key.startsWith(`${prefix},`)) this.cache.invalidate(key);
  }

  binding<I extends Item>(key: string, build: (json: ItemJson) => I): ItemBinding<I> {
    let found = this.bindings.get(key);
    if (!found) {
      found = {
        subscribe: (listener) => this.cache.subscribe(key, listener),
        snapshot: () => this.cache.peek(key),
        load: () => this.cache.get(key),
        build,
      };
      this.bindings.set(key, found);
    }
    return found as ItemBinding<I>;
  }
}

const stores = new WeakMap<object, Partial<Record<Level, ItemStore>>>();

function storeOf(ctx: PaymentsContext): ItemStore {
  let perOwner = stores.get(ctx.owner);
  if (!perOwner) {
    perOwner = {};
    stores.set(ctx.owner, perOwner);
  }
  perOwner[ctx.level] ??= new ItemStore(ctx.request);
  return perOwner[ctx.level] as ItemStore;
}

/** After a change: re-read the customer's items at this level, and mark them stale at the other. */
async function refreshCustomer(ctx: PaymentsContext, target: CustomerTarget, itemId?: string): Promise<void> {
  const store = storeOf(ctx);
  const other = stores.get(ctx.owner)?.[ctx.level === "client" ? "server" : "client"];
  other?.invalidateCustomer(target);
  store.invalidateCustomer(target);
  if (itemId !== undefined) await store.cache.refresh(store.key(target, itemId));
}

// ---- items -----------------------------------------------------------------------------------------

function itemFromJson(json: ItemJson): Item {
  return { id: json.id, displayName: json.display_name, quantity: json.quantity, nonNegativeQuantity: Math.max(0, json.quantity) };
}

function serverItemFromJson(ctx: PaymentsContext, target: CustomerTarget, json: ItemJson): ServerItem {
  const change = async (delta: number, allowNegative: boolean, options: QuantityChangeOptions = {}) => {
    const body: Record<string, unknown> = { delta };
    if (options.expiresAt) body.expires_at = options.expiresAt.toISOString();
    if (options.description !== undefined) body.description = options.description;
    await ctx.request(`${itemPath(target, json.id)}/update-quantity?allow_negative=${allowNegative}`, { body });
    await refreshCustomer(ctx, target, json.id);
  };
  return {
    ...itemFromJson(json),
    increaseQuantity: (delta, options) => change(delta, true, options),
    decreaseQuantity: (delta, options) => change(-delta, true, options),
    async tryDecreaseQuantity(delta, options) {
      try {
        await change(-delta, false, options);
        return true;
      } catch (error) {
        if (error instanceof KnownError && error.code === "ITEM_QUANTITY_INSUFFICIENT_AMOUNT") return false;
        throw error;
      }
    },
  };
}

/** React's `useItem`, installed by the React entry (so the core SDK does not import React). */
type ItemHook = <I extends Item>(binding: ItemBinding<I>) => I;
let itemHook: ItemHook | null = null;

/** @internal Called once by sdk/src/react/use-item.ts. */
export function _installItemHook(hook: ItemHook): void {
  itemHook = hook;
}

function useItemOf<I extends Item>(binding: ItemBinding<I>): I {
  if (!itemHook) throw new Error("useItem is a React hook: import the SDK's React entry (sdk/src/react) to use it.");
  return itemHook(binding);
}

// ---- customers -----------------------------------------------------------------------------------

async function listProducts(ctx: PaymentsContext, target: CustomerTarget, options: CustomerProductsListOptions = {}) {
  const q = new URLSearchParams();
  if (options.cursor) q.set("cursor", options.cursor);
  if (options.limit !== undefined) q.set("limit", String(options.limit));
  const json = await ctx.request<OwnedProductsJson>(`/payments/products/${customerPath(target)}${q.size ? `?${q}` : ""}`);
  return productsFromJson(json);
}

async function listPurchases(ctx: PaymentsContext, target: CustomerTarget): Promise<Purchase[]> {
  const json = await ctx.request<PurchaseListJson>(`/payments/purchases/${customerPath(target)}`);
  return json.items.map(purchaseFromJson);
}

async function createCheckoutUrl(ctx: PaymentsContext, target: CustomerTarget, options: CheckoutOptions): Promise<string> {
  const { returnUrl, ...choice } = options;
  const body: Record<string, unknown> = {
    customer_type: target.customerType,
    customer_id: target.customerId,
    ...offerChoiceToWire(choice),
  };
  if (returnUrl !== undefined) body.return_url = returnUrl;
  const json = await ctx.request<{ url: string }>("/payments/purchases/create-purchase-url", { body });
  return json.url;
}

async function grantProduct(ctx: PaymentsContext, target: CustomerTarget, options: GrantProductOptions): Promise<void> {
  const { quantity, ...choice } = options;
  const body: Record<string, unknown> = offerChoiceToWire(choice);
  if (quantity !== undefined) body.quantity = quantity;
  await ctx.request(`/payments/products/${customerPath(target)}`, { body });
  // The grant's included items change the customer's quantities.
  await refreshCustomer(ctx, target);
}

/** Payments methods of a customer as a client sees it (the signed-in user, or one of its teams). */
export type ClientCustomer = {
  /**
   * One of the customer's items (cached; re-read after changes made through the SDK).
   *
   * @example
   * const credits = await user.getItem("credits");
   * console.log(credits.nonNegativeQuantity);
   */
  getItem(itemId: string): Promise<Item>;
  /** React: the item, kept up to date (suspends during the first read). Needs the SDK's React entry. */
  useItem(itemId: string): Item;
  /**
   * A purchase page URL for a configured offer; send the customer there.
   *
   * @example
   * window.location.href = await user.createCheckoutUrl({ offerId: "pro" });
   */
  createCheckoutUrl(options: ClientCheckoutOptions): Promise<string>;
  /** The products (offers) the customer owns. */
  listProducts(options?: CustomerProductsListOptions): Promise<CustomerProductsList>;
  /** The customer's purchases and subscriptions, newest first. */
  listPurchases(): Promise<Purchase[]>;
};

/** Payments methods of a customer as a server sees it: quantities can change, inline offers and grants are allowed. */
export type ServerCustomer = Omit<ClientCustomer, "getItem" | "useItem" | "createCheckoutUrl"> & {
  /**
   * One of the customer's items, with quantity changes.
   *
   * @example
   * const credits = await serverUser.getItem("credits");
   * if (!(await credits.tryDecreaseQuantity(1))) throw new Error("Out of credits");
   */
  getItem(itemId: string): Promise<ServerItem>;
  useItem(itemId: string): ServerItem;
  /** A purchase page URL for a configured or an inline offer. */
  createCheckoutUrl(options: CheckoutOptions): Promise<string>;
  /**
   * Gives the customer an offer without payment (its items included).
   *
   * @example
   * await serverTeam.grantProduct({ offerId: "team-plan" });
   */
  grantProduct(options: GrantProductOptions): Promise<void>;
};

export function clientCustomerMethods(ctx: PaymentsContext, target: CustomerTarget): ClientCustomer {
  const store = () => storeOf(ctx);
  return {
    async getItem(itemId) {
      const s = store();
      return itemFromJson(await s.cache.get(s.key(target, itemId)));
    },
    useItem(itemId) {
      const s = store();
      return useItemOf(s.binding(s.key(target, itemId), itemFromJson));
    },
    createCheckoutUrl: (options) => createCheckoutUrl(ctx, target, options),
    listProducts: (options) => listProducts(ctx, target, options),
    listPurchases: () => listPurchases(ctx, target),
  };
}

export function serverCustomerMethods(ctx: PaymentsContext, target: CustomerTarget): ServerCustomer {
  const store = () => storeOf(ctx);
  const build = (json: ItemJson) => serverItemFromJson(ctx, target, json);
  return {
    async getItem(itemId) {
      const s = store();
      return build(await s.cache.get(s.key(target, itemId)));
    },
    useItem(itemId) {
      const s = store();
      return useItemOf(s.binding(s.key(target, itemId), build));
    },
    createCheckoutUrl: (options) => createCheckoutUrl(ctx, target, options),
    listProducts: (options) => listProducts(ctx, target, options),
    listPurchases: () => listPurchases(ctx, target),
    grantProduct: (options) => grantProduct(ctx, target, options),
  };
}
