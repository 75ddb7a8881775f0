/** Payments rows as the wire carries them (issue 15). */
import type { PurchaseWire } from "@doorman/shared/wire-payments";
import type { LedgerRow, PurchaseRow } from "../db/queries/payments";
import { type OfferConfig, offerToWire } from "../services/payments/config";

/** `audience` "client" leaves out the offer's server metadata. */
export function purchaseView(p: PurchaseRow, audience: "server" | "client" = "server"): PurchaseWire {
  return {
    id: p.id,
    customer_type: p.customerType as PurchaseWire["customer_type"],
    customer_id: p.customerId,
    offer_id: p.offerId,
    offer: offerToWire(p.offer as OfferConfig, audience),
    price_id: p.priceId,
    quantity: p.quantity,
    kind: p.kind as PurchaseWire["kind"],
    status: p.status as PurchaseWire["status"],
    source: p.source as PurchaseWire["source"],
    created_at_millis: p.createdAt,
    current_period_end_millis: p.currentPeriodEnd,
    cancel_at_period_end: p.cancelAtPeriodEnd,
    ended_at_millis: p.endedAt,
  };
}

export function ledgerChangeView(r: LedgerRow) {
  return {
    id: String(r.seq),
    item_id: r.itemId,
    delta: r.delta,
    description: r.description,
    expires_at_millis: r.expiresAt,
    created_at_millis: r.createdAt,
  };
}
