/**
 * Data access for the payments ledger views (the console's transactions, refunds, a customer's
 * invoices): purchases, item quantity changes, Stripe invoices and refunds, read newest first by
 * (created_at, id) so a list can resume after a cursor.
 */
import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { itemQuantityChanges, paymentRefunds, purchases, stripeInvoices } from "../schema";
import type { PurchaseRow } from "./payments";

export type StripeInvoiceRow = typeof stripeInvoices.$inferSelect;
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;
/** Where a page resumes: strictly older than (createdAt, id). */
export type LedgerCursor = { createdAt: number; id: string };
export type LedgerFilter = { projectId: string; customerType?: string; limit: number; before?: LedgerCursor };

/** The project's purchases of these kinds, newest first. */
export function listPurchasesPage(db: Db, f: LedgerFilter, kinds: string[]): Promise<PurchaseRow[]> {
  return db
    .select()
    .from(purchases)
    .where(
      and(
        eq(purchases.projectId, f.projectId),
        inArray(purchases.kind, kinds),
        f.customerType ? eq(purchases.customerType, f.customerType) : undefined,
        f.before
          ? or(lt(purchases.createdAt, f.before.createdAt), and(eq(purchases.createdAt, f.before.createdAt), lt(purchases.id, f.before.id)))
          : undefined,
      ),
    )
    .orderBy(desc(purchases.createdAt), desc(purchases.id))
    .limit(f.limit)
    .all();
}

/** One manual quantity change (its rows summed): what the console lists as one transaction. */
export type LedgerChange = { changeId: string; customerType: string; customerId: string; itemId: string; delta: number; createdAt: number };

/** The project's quantity changes, one per change id, newest first. */
export function listChangesPage(db: Db, f: LedgerFilter): Promise<LedgerChange[]> {
  const t = itemQuantityChanges;
  const createdAt = sql<number>`min(${t.createdAt})`;
  return db
    .select({
      changeId: t.changeId,
      customerType: t.customerType,
      customerId: t.customerId,
      itemId: t.itemId,
      delta: sql<number>`sum(${t.delta})`,
      createdAt,
    })
    .from(t)
    .where(and(eq(t.projectId, f.projectId), f.customerType ? eq(t.customerType, f.customerType) : undefined))
    .groupBy(t.changeId, t.customerType, t.customerId, t.itemId)
    .having(
      f.before
        ? sql`${createdAt} < ${f.before.createdAt} OR (${createdAt} = ${f.before.createdAt} AND ${t.changeId} < ${f.before.id})`
        : undefined,
    )
    .orderBy(desc(createdAt), desc(t.changeId))
    .limit(f.limit)
    .all();
}

/** The project's paid renewal invoices (not a subscription's first one), newest first. */
export function listRenewalsPage(db: Db, f: LedgerFilter): Promise<StripeInvoiceRow[]> {
  const t = stripeInvoices;
  return db
    .select()
    .from(t)
    .where(
      and(
        eq(t.projectId, f.projectId),
        eq(t.isCreation, false),
        eq(t.status, "paid"),
        f.customerType ? eq(t.customerType, f.customerType) : undefined,
        f.before ? or(lt(t.createdAt, f.before.createdAt), and(eq(t.createdAt, f.before.createdAt), lt(t.id, f.before.id))) : undefined,
      ),
    )
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(f.limit)
    .all();
}

/** The purchases with these Stripe subscription ids in the project. */
export function purchasesBySubscriptionIds(db: Db, projectId: string, ids: string[]): Promise<PurchaseRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .select()
    .from(purchases)
    .where(and(eq(purchases.projectId, projectId), inArray(purchases.stripeSubscriptionId, ids)))
    .all();
}

export async function findPurchase(db: Db, projectId: string, id: string): Promise<PurchaseRow | null> {
  return (
    (await db
      .select()
      .from(purchases)
      .where(and(eq(purchases.projectId, projectId), eq(purchases.id, id)))
      .get()) ?? null
  );
}

export async function findPurchaseBySubscription(db: Db, projectId: string, stripeSubscriptionId: string): Promise<PurchaseRow | null> {
  return (
    (await db
      .select()
      .from(purchases)
      .where(and(eq(purchases.projectId, projectId), eq(purchases.stripeSubscriptionId, stripeSubscriptionId)))
      .get()) ?? null
  );
}

/** The refunds of these purchases. */
export function refundsOfPurchases(db: Db, projectId: string, purchaseIds: string[]): Promise<PaymentRefundRow[]> {
  if (!purchaseIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.projectId, projectId), inArray(paymentRefunds.purchaseId, purchaseIds)))
    .all();
}

/**
 * Claims a purchase's refund: false when it was refunded already (the unique purchase id, so two
 * concurrent refunds claim once). The money moves next; applyRefund then takes the quantity back.
 */
export async function claimRefund(db: Db, row: PaymentRefundRow): Promise<boolean> {
  const inserted = await db.insert(paymentRefunds).values(row).onConflictDoNothing().returning({ id: paymentRefunds.id });
  return inserted.length === 1;
}

/** Takes a claimed refund's quantity back from its purchase (all of it: the purchase grants nothing from now on). */
export async function applyRefund(db: Db, row: PaymentRefundRow, stripeRefundId: string | null): Promise<void> {
  const taken = sql`${purchases.refundedQuantity} + ${row.quantity}`;
  await db.batch([
    db
      .update(paymentRefunds)
      .set({ stripeRefundId })
      .where(and(eq(paymentRefunds.projectId, row.projectId), eq(paymentRefunds.id, row.id))),
    db
      .update(purchases)
      .set({
        refundedQuantity: sql`min(${purchases.quantity}, ${taken})`,
        status: sql`CASE WHEN ${taken} >= ${purchases.quantity} THEN 'refunded' ELSE ${purchases.status} END`,
        endedAt: sql`CASE WHEN ${taken} >= ${purchases.quantity} THEN ${row.createdAt} ELSE ${purchases.endedAt} END`,
      })
      .where(and(eq(purchases.projectId, row.projectId), eq(purchases.id, row.purchaseId))),
  ]);
}

/** Forgets a refund whose money transfer failed (the provider refused it), so it can be tried again. */
export async function forgetRefund(db: Db, projectId: string, id: string): Promise<void> {
  await db.delete(paymentRefunds).where(and(eq(paymentRefunds.projectId, projectId), eq(paymentRefunds.id, id)));
}

/** Inserts or updates a Stripe invoice (a redelivered or later event of the same invoice updates it). */
export async function upsertStripeInvoice(db: Db, row: StripeInvoiceRow): Promise<void> {
  const { projectId: _p, id: _i, createdAt: _c, ...changes } = row;
  await db
    .insert(stripeInvoices)
    .values(row)
    .onConflictDoUpdate({ target: [stripeInvoices.projectId, stripeInvoices.id], set: changes });
}

/** A customer's invoices, newest first. */
export function listInvoicesOf(
  db: Db,
  k: { projectId: string; customerType: string; customerId: string },
  limit: number,
  before?: LedgerCursor,
) {
  const t = stripeInvoices;
  return db
    .select()
    .from(t)
    .where(
      and(
        eq(t.projectId, k.projectId),
        eq(t.customerType, k.customerType),
        eq(t.customerId, k.customerId),
        before ? or(lt(t.createdAt, before.createdAt), and(eq(t.createdAt, before.createdAt), lt(t.id, before.id))) : undefined,
      ),
    )
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(limit)
    .all();
}

export async function findStripeInvoice(db: Db, projectId: string, id: string): Promise<StripeInvoiceRow | null> {
  return (
    (await db
      .select()
      .from(stripeInvoices)
      .where(and(eq(stripeInvoices.projectId, projectId), eq(stripeInvoices.id, id)))
      .get()) ?? null
  );
}
