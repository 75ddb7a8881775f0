/**
 * Refunds from the console (`POST /internal/payments/transactions/refund`, the reference's wire): an
 * owner returns money of a purchase paid through Stripe and takes back some or all of what it
 * granted. Once per purchase: the refund is claimed first (a unique row), then Stripe refunds the
 * payment on the project's connected account, then the purchase's quantity is taken back. Test-mode
 * purchases moved no money and are not refundable.
 */
import { applyRefund, claimRefund, findPurchase, forgetRefund, type PaymentRefundRow } from "../../db/queries/payment-ledger";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { minorUnits } from "./stripe-checkout";
import { askProvider, type PaymentsProvider, ProviderRefusedError } from "./stripe-provider";
import { purchaseEntries } from "./transactions";

export type RefundEntry = { entryIndex: number; quantity: number; amountUsd: string };
export type RefundInput = { type: "subscription" | "one-time-purchase"; id: string; entries: RefundEntry[] };

export type RefundProblem = Problem<
  | "refund_invalid"
  | "one_time_purchase_not_found"
  | "subscription_invoice_not_found"
  | "one_time_purchase_already_refunded"
  | "subscription_already_refunded"
  | "test_mode_purchase_non_refundable"
  | "stripe_not_configured"
  | "stripe_account_missing"
  | "stripe_refused"
  | "stripe_unavailable"
>;

/** The refund's entries checked against the purchase's transaction (the reference's messages). */
function checkEntries(entries: Record<string, unknown>[], refund: RefundEntry[]): string | null {
  const seen = new Set<number>();
  for (const r of refund) {
    if (r.quantity < 0) return "Refund quantity cannot be negative.";
    if (seen.has(r.entryIndex)) return "Refund entries cannot contain duplicate entry indexes.";
    seen.add(r.entryIndex);
    const entry = r.entryIndex >= 0 ? entries[r.entryIndex] : undefined;
    if (!entry) return "Refund entry index is invalid.";
    if (entry.type !== "product_grant") return "Refund entries must reference product grant entries.";
    if (r.quantity > (entry.quantity as number)) return "Refund quantity cannot exceed purchased quantity.";
  }
  return null;
}

export async function refundTransaction(
  deps: Deps,
  provider: PaymentsProvider | null,
  project: ProjectRow,
  input: RefundInput,
): Promise<{ ok: true } | RefundProblem> {
  const subscription = input.type === "subscription";
  const purchase = await findPurchase(deps.db, project.id, input.id);
  if (!purchase || purchase.kind !== (subscription ? "subscription" : "one_time"))
    return subscription ? fail("subscription_invoice_not_found", { id: input.id }) : fail("one_time_purchase_not_found", { id: input.id });
  if (purchase.refundedQuantity > 0 || purchase.status === "refunded")
    return subscription
      ? fail("subscription_already_refunded", { id: purchase.id })
      : fail("one_time_purchase_already_refunded", { id: purchase.id });
  if (purchase.source === "test_mode") return fail("test_mode_purchase_non_refundable");
  // Only a payment Doorman knows the Stripe payment of can be refunded (a server's grant moved no money).
  if (purchase.source !== "stripe" || !purchase.stripePaymentIntentId)
    return subscription
      ? fail("subscription_invoice_not_found", { id: purchase.id })
      : fail("one_time_purchase_not_found", { id: purchase.id });

  const invalid = checkEntries(purchaseEntries(purchase), input.entries);
  if (invalid) return fail("refund_invalid", { message: invalid });
  const offer = purchase.offer as { prices?: unknown };
  const usd =
    purchase.priceId && offer.prices && typeof offer.prices === "object"
      ? (offer.prices as Record<string, { USD?: string }>)[purchase.priceId]?.USD
      : undefined;
  if (!usd) return fail("refund_invalid", { message: "Refund amounts can only be specified for USD-priced purchases." });
  const charged = (minorUnits(usd, "USD") ?? 0) * purchase.quantity;
  let amount = 0;
  for (const e of input.entries) {
    const units = minorUnits(e.amountUsd, "USD");
    if (units === null) return fail("refund_invalid", { message: "Money amount must be in the format of <number> or <number>.<number>" });
    amount += units;
  }
  if (amount > charged) return fail("refund_invalid", { message: "Refund amount cannot exceed the charged amount." });

  if (!provider) return fail("stripe_not_configured");
  if (!project.stripeAccountId) return fail("stripe_account_missing");
  const row: PaymentRefundRow = {
    id: deps.random.uuid(),
    projectId: project.id,
    purchaseId: purchase.id,
    quantity: input.entries.reduce((n, e) => n + e.quantity, 0),
    amountUsdCents: amount,
    stripeRefundId: null,
    createdAt: deps.now(),
  };
  // Claimed before the money moves: two concurrent refunds of one purchase refund once.
  if (!(await claimRefund(deps.db, row)))
    return subscription
      ? fail("subscription_already_refunded", { id: purchase.id })
      : fail("one_time_purchase_already_refunded", { id: purchase.id });
  let stripeRefundId: string | null = null;
  if (amount > 0) {
    const accountId = project.stripeAccountId;
    const paymentIntentId = purchase.stripePaymentIntentId;
    try {
      const refunded = await askProvider(() =>
        provider.createRefund({
          accountId,
          paymentIntentId,
          amount,
          metadata: { project_id: project.id, purchase_id: purchase.id },
          // The claim's id: a retried call never refunds twice at Stripe.
          idempotencyKey: `doorman-refund-${row.id}`,
        }),
      );
      if (!refunded.ok) {
        await forgetRefund(deps.db, project.id, row.id);
        return refunded;
      }
      stripeRefundId = refunded.value.id;
    } catch (err) {
      await forgetRefund(deps.db, project.id, row.id);
      if (err instanceof ProviderRefusedError) {
        console.warn(`refund of purchase ${purchase.id} refused by Stripe: ${err.message}`);
        return fail("stripe_refused", { message: err.message });
      }
      throw err;
    }
  }
  await applyRefund(deps.db, row, stripeRefundId);
  return { ok: true };
}
