/**
 * Item quantities (issue 15): the ledger (db/queries/payments.ts) plus the grants by time
 * (grants.ts). A strict decrease never takes a quantity below zero, under any
 * concurrency: it inserts only over the ledger it read, and re-reads when another change won.
 */

import {
  insertChangeIfUnchanged,
  type LedgerBucket,
  listPurchasesOf,
  type NewLedgerRow,
  readLedgerBuckets,
} from "../../db/queries/payments";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import type { ItemConfig, PaymentsConfig } from "./config";
import { type Customer, customerSince } from "./customers";
import { defaultGrants, defaultOfferGrants, defaultOffers, type Grant, purchaseGrants } from "./grants";

/** A pool a decrease may spend from: the never-expiring pool, a ledger expiry, or a computed grant that can end. */
type Pool = { balance: number; expiresAt: number | null; grantKey: string | null; order: number };

const NEVER = Number.MAX_SAFE_INTEGER;

/** The customer's pools of one item now: grants plus the unexpired ledger spent from them. */
function poolsOf(grants: Grant[], buckets: LedgerBucket[]): Map<string, Pool> {
  const pools = new Map<string, Pool>();
  const pool = (id: string, expiresAt: number | null, grantKey: string | null, order: number) => {
    let p = pools.get(id);
    if (!p) pools.set(id, (p = { balance: 0, expiresAt, grantKey, order }));
    return p;
  };
  for (const g of grants) {
    if (g.key === null) pool("never", null, null, NEVER).balance += g.amount;
    // A grant ending at a time not known yet (its purchase's end) is spent after dated ones, before the never pool.
    else pool(`g:${g.key}`, g.expiresAt, g.key, g.expiresAt ?? NEVER - 1).balance += g.amount;
  }
  for (const b of buckets) {
    if (b.grantKey !== null) {
      // Spent from a grant that has ended: it ended with the grant.
      const p = pools.get(`g:${b.grantKey}`);
      if (p) p.balance += b.sum;
    } else if (b.expiresAt === null) pool("never", null, null, NEVER).balance += b.sum;
    else pool(`t:${b.expiresAt}`, b.expiresAt, null, b.expiresAt).balance += b.sum;
  }
  return pools;
}

const total = (pools: Map<string, Pool>) => [...pools.values()].reduce((s, p) => s + p.balance, 0);

type ItemState = { pools: Map<string, Pool>; lastSeq: number };

/** An item of the project's payments config, with the config (its include-by-default offers grant items too). */
export type ItemRef = { itemId: string; item: ItemConfig; payments: PaymentsConfig };

async function readItemState(deps: Deps, project: ProjectRow, c: Customer, ref: ItemRef, now: number): Promise<ItemState | null> {
  const since = await customerSince(deps, project, c);
  if (since === null) return null;
  const [ledger, purchaseRows] = await Promise.all([readLedgerBuckets(deps.db, c, ref.itemId, now), listPurchasesOf(deps.db, c)]);
  const grants = [
    ...defaultGrants(ref.item, since, now),
    ...defaultOfferGrants(ref.itemId, defaultOffers(ref.payments, c.customerType, purchaseRows, now), since, now),
    ...purchaseGrants(ref.itemId, purchaseRows, now),
  ];
  return { pools: poolsOf(grants, ledger.buckets), lastSeq: ledger.lastSeq };
}

/** The item's quantity now (may be negative), or null when the customer does not exist. */
export async function itemQuantity(deps: Deps, project: ProjectRow, c: Customer, ref: ItemRef): Promise<number | null> {
  const state = await readItemState(deps, project, c, ref, deps.now());
  return state ? total(state.pools) : null;
}

/** The rows of a decrease of `amount`: spent from the soonest-ending pools first; a shortfall goes below zero in the never pool. */
function spend(pools: Map<string, Pool>, amount: number): NewLedgerRow[] {
  const rows: NewLedgerRow[] = [];
  let left = amount;
  for (const p of [...pools.values()].filter((p) => p.balance > 0).sort((a, b) => a.order - b.order)) {
    if (left === 0) break;
    const take = Math.min(p.balance, left);
    rows.push({ delta: -take, expiresAt: p.expiresAt, grantKey: p.grantKey });
    left -= take;
  }
  if (left > 0) rows.push({ delta: -left, expiresAt: null, grantKey: null });
  return rows;
}

export type QuantityChange = { delta: number; expiresAt: number | null; description: string | null; allowNegative: boolean };
export type QuantityChangeResult =
  | { ok: true; quantity: number }
  | Problem<"customer_not_found" | "item_quantity_insufficient" | "item_quantity_busy">;

/** Retries of a decrease that lost to concurrent changes; each round one writer always wins. */
const MAX_ROUNDS = 200;

/**
 * Adds `delta` to the item (a ledger change). An increase is one row. A decrease is split over the
 * pools it spends and lands only over the ledger it read; with `allowNegative` false it fails when
 * the quantity would go below zero, and never goes below zero under concurrency.
 */
export async function changeItemQuantity(
  deps: Deps,
  project: ProjectRow,
  c: Customer,
  ref: ItemRef,
  change: QuantityChange,
): Promise<QuantityChangeResult> {
  const changeId = deps.random.uuid();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = deps.now();
    const state = await readItemState(deps, project, c, ref, now);
    if (!state) return fail("customer_not_found", { customerId: c.customerId });
    const quantity = total(state.pools);
    // The reference's error names the change asked for (the delta) as its quantity.
    if (change.delta < 0 && !change.allowNegative && quantity + change.delta < 0)
      return fail("item_quantity_insufficient", { itemId: ref.itemId, customerId: c.customerId, quantity: change.delta });
    const rows: NewLedgerRow[] =
      change.delta >= 0 || change.expiresAt !== null
        ? [{ delta: change.delta, expiresAt: change.expiresAt, grantKey: null }]
        : spend(state.pools, -change.delta);
    // An increase cannot overdraw anything, so it needs no guard; every decrease is guarded.
    const guarded = change.delta < 0 ? state.lastSeq : null;
    const landed = await insertChangeIfUnchanged(
      deps.db,
      c,
      { changeId, itemId: ref.itemId, description: change.description, createdAt: now, lastSeq: guarded },
      rows,
    );
    if (landed) return { ok: true, quantity: quantity + change.delta };
    // Another change landed first: wait a moment (less contention next round) and re-read.
    await new Promise((resolve) => setTimeout(resolve, deps.random.fraction() * Math.min(20, 2 + round)));
  }
  return fail("item_quantity_busy");
}
