/**
 * Data access for payments (issue 15): the item quantity ledger, purchases and purchase codes.
 * The ledger's writes are guarded: a change lands only if no other change of the same customer's
 * item landed after the one its writer read (see insertChangeIfUnchanged).
 */
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { itemQuantityChanges, purchaseCodes, purchases, teams, users } from "../schema";

export type LedgerRow = typeof itemQuantityChanges.$inferSelect;
export type PurchaseRow = typeof purchases.$inferSelect;
export type PurchaseCodeRow = typeof purchaseCodes.$inferSelect;
export type CustomerKey = { projectId: string; customerType: string; customerId: string };

const customerIs = (k: CustomerKey) =>
  and(
    eq(itemQuantityChanges.projectId, k.projectId),
    eq(itemQuantityChanges.customerType, k.customerType),
    eq(itemQuantityChanges.customerId, k.customerId),
  );

/** The unexpired ledger of one item, summed per expiry (null: never expires), and the last seq seen. */
export async function readLedgerBuckets(
  db: Db,
  k: CustomerKey,
  itemId: string,
  now: number,
): Promise<{ buckets: LedgerBucket[]; lastSeq: number }> {
  const [buckets, last] = await db.batch([
    db
      .select({
        expiresAt: itemQuantityChanges.expiresAt,
        grantKey: itemQuantityChanges.grantKey,
        sum: sql<number>`sum(${itemQuantityChanges.delta})`,
      })
      .from(itemQuantityChanges)
      .where(
        and(
          customerIs(k),
          eq(itemQuantityChanges.itemId, itemId),
          or(isNull(itemQuantityChanges.expiresAt), gt(itemQuantityChanges.expiresAt, now)),
        ),
      )
      .groupBy(itemQuantityChanges.expiresAt, itemQuantityChanges.grantKey),
    db
      .select({ seq: sql<number | null>`max(${itemQuantityChanges.seq})` })
      .from(itemQuantityChanges)
      .where(and(customerIs(k), eq(itemQuantityChanges.itemId, itemId))),
  ]);
  return {
    buckets: buckets.map((b) => ({ expiresAt: b.expiresAt, grantKey: b.grantKey, sum: Number(b.sum) })),
    lastSeq: last[0]?.seq ?? 0,
  };
}

/** Unexpired ledger rows summed per (expiry, grant key). */
export type LedgerBucket = { expiresAt: number | null; grantKey: string | null; sum: number };
export type NewLedgerRow = { delta: number; expiresAt: number | null; grantKey: string | null };

/**
 * Inserts the rows of one change (one D1 batch, so all or none) only if no other change of this
 * customer's item has landed since `lastSeq`; answers whether they landed. D1 runs one write at a
 * time, so the guard and the insert cannot interleave with another writer's: a strict decrease
 * can never spend what another decrease already spent.
 */
export async function insertChangeIfUnchanged(
  db: Db,
  k: CustomerKey,
  change: { changeId: string; itemId: string; description: string | null; createdAt: number; lastSeq: number | null },
  rows: NewLedgerRow[],
): Promise<boolean> {
  // Raw D1 statements: the guard is a subquery over the same table, which the builder cannot express in an INSERT … SELECT.
  const guard =
    change.lastSeq === null
      ? "?11 = ?11"
      : "NOT EXISTS (SELECT 1 FROM item_quantity_changes WHERE project_id = ?3 AND customer_type = ?4 AND customer_id = ?5 AND item_id = ?6 AND seq > ?11 AND change_id <> ?2)";
  const statements = rows.map((r) =>
    db.$client
      .prepare(
        `INSERT INTO item_quantity_changes (change_id, project_id, customer_type, customer_id, item_id, delta, expires_at, grant_key, description, created_at)
         SELECT ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?1 WHERE ${guard}`,
      )
      .bind(
        change.createdAt,
        change.changeId,
        k.projectId,
        k.customerType,
        k.customerId,
        change.itemId,
        r.delta,
        r.expiresAt,
        r.grantKey,
        change.description,
        change.lastSeq ?? 0,
      ),
  );
  if (statements.length === 0) return true;
  const results = await db.$client.batch(statements);
  return results[0]?.meta.changes === 1;
}

/** The customer's latest ledger changes (all items), newest first. */
export function listLedgerChanges(db: Db, k: CustomerKey, limit: number): Promise<LedgerRow[]> {
  return db.select().from(itemQuantityChanges).where(customerIs(k)).orderBy(desc(itemQuantityChanges.seq)).limit(limit).all();
}

export async function userSignedUpAt(db: Db, projectId: string, userId: string): Promise<number | null> {
  const row = await db
    .select({ at: users.signedUpAt })
    .from(users)
    .where(and(eq(users.projectId, projectId), eq(users.id, userId)))
    .get();
  return row?.at ?? null;
}

export async function teamCreatedAt(db: Db, projectId: string, teamId: string): Promise<number | null> {
  const row = await db
    .select({ at: teams.createdAt })
    .from(teams)
    .where(and(eq(teams.projectId, projectId), eq(teams.id, teamId)))
    .get();
  return row?.at ?? null;
}

// --- purchases ---

export function listPurchasesOf(db: Db, k: CustomerKey): Promise<PurchaseRow[]> {
  return db
    .select()
    .from(purchases)
    .where(and(eq(purchases.projectId, k.projectId), eq(purchases.customerType, k.customerType), eq(purchases.customerId, k.customerId)))
    .orderBy(desc(purchases.createdAt), desc(purchases.id))
    .limit(500)
    .all();
}

export function insertPurchaseStatement(db: Db, row: typeof purchases.$inferInsert) {
  // A second purchase with the same external id (a redelivered payment) inserts nothing.
  return db.insert(purchases).values(row).onConflictDoNothing();
}

export async function findPurchaseByExternalId(db: Db, projectId: string, externalId: string): Promise<PurchaseRow | null> {
  return (
    (await db
      .select()
      .from(purchases)
      .where(and(eq(purchases.projectId, projectId), eq(purchases.externalId, externalId)))
      .get()) ?? null
  );
}

export async function updatePurchaseWhere(
  db: Db,
  where: { stripeSubscriptionId: string; projectId?: string } | { stripePaymentIntentId: string } | { projectId: string; id: string },
  patch: Partial<Pick<PurchaseRow, "status" | "currentPeriodEnd" | "cancelAtPeriodEnd" | "endedAt">>,
): Promise<number> {
  const cond =
    "stripeSubscriptionId" in where
      ? where.projectId
        ? and(eq(purchases.projectId, where.projectId), eq(purchases.stripeSubscriptionId, where.stripeSubscriptionId))
        : eq(purchases.stripeSubscriptionId, where.stripeSubscriptionId)
      : "stripePaymentIntentId" in where
        ? eq(purchases.stripePaymentIntentId, where.stripePaymentIntentId)
        : and(eq(purchases.projectId, where.projectId), eq(purchases.id, where.id));
  const rows = await db.update(purchases).set(patch).where(cond).returning({ id: purchases.id });
  return rows.length;
}

/** A plan switch: the purchase now holds another offer, price and quantity (its Stripe subscription moved). */
export async function switchPurchaseOffer(
  db: Db,
  projectId: string,
  id: string,
  to: { offerId: string; offer: unknown; priceId: string; quantity: number },
): Promise<void> {
  await db
    .update(purchases)
    .set({ offerId: to.offerId, offer: to.offer, priceId: to.priceId, quantity: to.quantity })
    .where(and(eq(purchases.projectId, projectId), eq(purchases.id, id)));
}

/** A Stripe subscription now belongs to `keepId` only: the purchases it was switched away from stop following its events. */
export async function detachStripeSubscription(db: Db, projectId: string, stripeSubscriptionId: string, keepId: string): Promise<void> {
  await db
    .update(purchases)
    .set({ stripeSubscriptionId: null })
    .where(
      and(eq(purchases.projectId, projectId), eq(purchases.stripeSubscriptionId, stripeSubscriptionId), sql`${purchases.id} <> ${keepId}`),
    );
}

/**
 * Cancels a subscription purchase at its period's end (owned until then), only while it is still
 * active or trialing: a concurrent cancel changes nothing twice. Answers how many rows changed.
 */
export async function cancelSubscriptionPurchase(db: Db, projectId: string, id: string, now: number): Promise<number> {
  const rows = await db
    .update(purchases)
    .set({ status: "canceled", cancelAtPeriodEnd: true, endedAt: sql`coalesce(${purchases.currentPeriodEnd}, ${now})` })
    .where(
      and(
        eq(purchases.projectId, projectId),
        eq(purchases.id, id),
        eq(purchases.kind, "subscription"),
        or(eq(purchases.status, "active"), eq(purchases.status, "trialing")),
      ),
    )
    .returning({ id: purchases.id });
  return rows.length;
}

// --- purchase codes ---

export function insertPurchaseCode(db: Db, row: PurchaseCodeRow) {
  return db.insert(purchaseCodes).values(row);
}

export async function findPurchaseCode(db: Db, codeHash: string): Promise<PurchaseCodeRow | null> {
  return (await db.select().from(purchaseCodes).where(eq(purchaseCodes.codeHash, codeHash)).get()) ?? null;
}

/** Marks the code used by this purchase, only if still unused: the statement to batch with the purchase. */
export function spendCodeStatement(db: Db, codeHash: string, purchaseId: string | null, now: number) {
  return db
    .update(purchaseCodes)
    .set({ usedAt: now, purchaseId })
    .where(and(eq(purchaseCodes.codeHash, codeHash), isNull(purchaseCodes.usedAt)));
}
