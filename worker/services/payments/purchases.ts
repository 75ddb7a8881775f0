/**
 * Purchases (issue 15): an offer bought through the test checkout or Stripe, or granted by a
 * server. A purchase is a row; what it grants is computed by time (grants.ts), so ending,
 * canceling or refunding it changes the customer's quantities with no other write.
 */
import type { CustomerType } from "@doorman/shared/wire-payments";
import { findPurchaseByExternalId, listPurchasesOf, type PurchaseRow, updatePurchaseWhere } from "../../db/queries/payments";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { type OfferConfig, productLineOf } from "./config";
import { addInterval, isOwned } from "./grants";

export type PurchaseSource = "test_mode" | "stripe" | "api_grant";
/** The purchase code being spent, if the purchase came through a purchase URL. */
export type SpentCode = { codeHash: string };

export type CompletePurchaseInput = {
  project: ProjectRow;
  code?: SpentCode;
  customerType: CustomerType;
  customerId: string;
  offerId: string | null;
  offer: OfferConfig;
  priceId: string | null;
  quantity: number;
  source: PurchaseSource;
  /** The payment's id outside Doorman: a second purchase with it is the same purchase (no second grant). */
  externalId?: string | null;
  stripeSubscriptionId?: string | null;
  stripePaymentIntentId?: string | null;
  /** A subscription's current period end; computed from the price's interval when not given. */
  currentPeriodEnd?: number | null;
};

export type PurchaseProblem = Problem<"offer_already_owned" | "add_on_without_base" | "price_not_found" | "code_used">;
export type CompletePurchaseResult =
  | { ok: true; purchaseId: string; created: boolean; kind: "subscription" | "one_time" }
  | PurchaseProblem;

/** Problems that make buying `offer` impossible for a customer who owns `owned` now. */
export function purchaseBlocker(
  offerId: string | null,
  offer: OfferConfig,
  customerId: string,
  owned: PurchaseRow[],
  now: number,
): PurchaseProblem | null {
  const current = owned.filter((p) => isOwned(p, now));
  if (offerId !== null && !offer.stackable && current.some((p) => p.offerId === offerId))
    return fail("offer_already_owned", { offerId, customerId });
  if (offerId !== null && offer.isAddOnTo) {
    const bases = Object.keys(offer.isAddOnTo);
    if (!current.some((p) => p.offerId !== null && bases.includes(p.offerId))) return fail("add_on_without_base", { offerId });
  }
  return null;
}

/**
 * Records a purchase: one D1 batch that spends the code (if any, only if unused), ends the
 * customer's other subscriptions in the offer's group (one plan at a time), and inserts the
 * purchase. Idempotent per external id: a redelivered payment answers the first purchase.
 */
export async function completePurchase(deps: Deps, input: CompletePurchaseInput): Promise<CompletePurchaseResult> {
  const now = deps.now();
  const { project } = input;
  if (input.externalId) {
    const existing = await findPurchaseByExternalId(deps.db, project.id, input.externalId);
    if (existing) return { ok: true, purchaseId: existing.id, created: false, kind: existing.kind as "subscription" | "one_time" };
  }
  const customer = { projectId: project.id, customerType: input.customerType, customerId: input.customerId };
  const owned = await listPurchasesOf(deps.db, customer);
  // A paid payment is recorded even if the customer bought the same offer meanwhile: the money moved.
  if (input.source !== "stripe") {
    const blocker = purchaseBlocker(input.offerId, input.offer, input.customerId, owned, now);
    if (blocker) return blocker;
  }
  const price = input.priceId === null || input.offer.prices === "include-by-default" ? undefined : input.offer.prices[input.priceId];
  if (input.priceId !== null && !price) return fail("price_not_found", { priceId: input.priceId });
  const kind = price?.interval ? "subscription" : "one_time";
  const trial = price?.freeTrial ?? input.offer.freeTrial;
  const status = kind === "subscription" && trial ? "trialing" : "active";
  const periodEnd =
    input.currentPeriodEnd ?? (kind === "subscription" && price?.interval ? addInterval(now, trial ?? price.interval) : null);
  const id = deps.random.uuid();

  const d1 = deps.db.$client;
  const statements: D1PreparedStatement[] = [];
  if (input.code)
    statements.push(
      d1
        .prepare("UPDATE purchase_codes SET used_at = ?1, purchase_id = ?2 WHERE code_hash = ?3 AND used_at IS NULL")
        .bind(now, id, input.code.codeHash),
    );
  const groupId = productLineOf(input.offer);
  const replaced = groupId
    ? owned.filter((p) => isOwned(p, now) && p.kind === "subscription" && productLineOf(p.offer) === groupId && p.offerId !== input.offerId)
    : [];
  // The inserted purchase needs the code spent by this batch (a code buys once, even under concurrency).
  const codeGuard = input.code ? "(SELECT purchase_id FROM purchase_codes WHERE code_hash = ?19) = ?1" : "?19 IS NULL";
  statements.push(
    d1
      .prepare(
        `INSERT INTO purchases (id, project_id, customer_type, customer_id, offer_id, offer, price_id, quantity, kind, status, source,
           external_id, stripe_subscription_id, stripe_payment_intent_id, created_at, current_period_end, cancel_at_period_end, ended_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18 WHERE ${codeGuard}
         ON CONFLICT DO NOTHING`,
      )
      .bind(
        id,
        project.id,
        input.customerType,
        input.customerId,
        input.offerId,
        JSON.stringify(input.offer),
        input.priceId,
        input.quantity,
        kind,
        status,
        input.source,
        input.externalId ?? null,
        input.stripeSubscriptionId ?? null,
        input.stripePaymentIntentId ?? null,
        now,
        periodEnd,
        0,
        null,
        input.code?.codeHash ?? null,
      ),
  );
  // Buying into a group ends the customer's other subscription there, only if the purchase landed.
  for (const p of replaced)
    statements.push(
      d1
        .prepare(
          "UPDATE purchases SET status = 'ended', ended_at = ?1 WHERE project_id = ?2 AND id = ?3 AND EXISTS (SELECT 1 FROM purchases WHERE id = ?4)",
        )
        .bind(now, project.id, p.id, id),
    );
  const results = await d1.batch(statements);
  if (results[input.code ? 1 : 0]?.meta.changes === 1) return { ok: true, purchaseId: id, created: true, kind };
  if (input.externalId) {
    const existing = await findPurchaseByExternalId(deps.db, project.id, input.externalId);
    if (existing) return { ok: true, purchaseId: existing.id, created: false, kind: existing.kind as "subscription" | "one_time" };
  }
  return fail("code_used");
}

export type SubscriptionPatch = {
  status: "active" | "trialing" | "canceled" | "ended";
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  endedAt: number | null;
};

/** Applies a Stripe subscription's state (renewal, cancellation, end); false when no purchase has it. */
export async function updateSubscriptionByStripeId(deps: Deps, stripeSubscriptionId: string, patch: SubscriptionPatch): Promise<boolean> {
  return (await updatePurchaseWhere(deps.db, { stripeSubscriptionId }, patch)) > 0;
}

/** A refunded payment: the purchase grants nothing from now on. */
export async function refundPurchaseByPaymentIntent(deps: Deps, paymentIntentId: string): Promise<boolean> {
  return (await updatePurchaseWhere(deps.db, { stripePaymentIntentId: paymentIntentId }, { status: "refunded", endedAt: deps.now() })) > 0;
}

/** Ends a purchase now (the console's "end" and a server's revoke): its items that end with it go. */
export async function endPurchase(deps: Deps, projectId: string, id: string): Promise<boolean> {
  return (await updatePurchaseWhere(deps.db, { projectId, id }, { status: "ended", endedAt: deps.now() })) > 0;
}
