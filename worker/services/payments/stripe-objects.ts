/**
 * Reading Stripe's objects as webhooks send them (loosely typed: fields differ between API
 * versions): ids that may be expanded objects, lists, a subscription's period and its state as a
 * purchase patch.
 */
import type { SubscriptionPatch } from "./purchases";

export type Obj = Record<string, unknown>;
export const asObj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
/** An id field that Stripe sends as a string, or as the expanded object. */
export const idOf = (v: unknown): string | null =>
  typeof v === "string" ? v : typeof asObj(v)?.id === "string" ? (asObj(v)!.id as string) : null;
export const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
export const listData = (v: unknown): Obj[] => {
  const data = asObj(v)?.data;
  return Array.isArray(data) ? (data.map(asObj).filter(Boolean) as Obj[]) : [];
};

/** The latest period end (ms) of a subscription: per item in current API versions, top level in older ones. */
export function subscriptionPeriodEnd(sub: Obj): number | null {
  const ends = listData(sub.items)
    .map((item) => num(item.current_period_end))
    .filter((v): v is number => v !== null);
  const top = num(sub.current_period_end);
  if (top !== null) ends.push(top);
  return ends.length ? Math.max(...ends) * 1000 : null;
}

/**
 * A Stripe subscription's state as a purchase patch; null for states that change nothing yet
 * ("incomplete": the first payment is still pending, the checkout has not completed).
 */
export function subscriptionPatchOf(sub: Obj, nowMs: number): SubscriptionPatch | null {
  const status = typeof sub.status === "string" ? sub.status : "";
  const currentPeriodEnd = subscriptionPeriodEnd(sub);
  const cancelAtPeriodEnd = sub.cancel_at_period_end === true;
  const endedAt = (num(sub.ended_at) ?? Math.floor(nowMs / 1000)) * 1000;
  switch (status) {
    case "active":
    // Stripe is still retrying the payment: the customer keeps the items until Stripe gives up.
    case "past_due":
      return { status: "active", currentPeriodEnd, cancelAtPeriodEnd, endedAt: null };
    case "trialing":
      return { status: "trialing", currentPeriodEnd, cancelAtPeriodEnd, endedAt: null };
    case "canceled":
    case "incomplete_expired":
      return { status: "canceled", currentPeriodEnd, cancelAtPeriodEnd, endedAt };
    // Unpaid or paused: no access now; a later payment or resume makes it active again.
    case "unpaid":
    case "paused":
      return { status: "ended", currentPeriodEnd, cancelAtPeriodEnd, endedAt: nowMs };
    default:
      return null;
  }
}
