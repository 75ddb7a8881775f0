/**
 * Canceling a customer's subscription product (the reference's DELETE /payments/products/…): who
 * may cancel, which purchases a cancel ends, and the cancel itself. A canceled subscription stays
 * owned until its current period ends, then grants nothing more.
 */
import { cancelSubscriptionPurchase, listPurchasesOf, type PurchaseRow, updatePurchaseWhere } from "../../db/queries/payments";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { hasTeamPermission } from "../permissions";
import { fail, type Problem } from "../result";
import { resolveOffer } from "./codes";
import { type Customer, customerSince, readPaymentsConfig } from "./customers";
import { isOwned } from "./grants";
import { askProvider, type PaymentsProvider, ProviderRefusedError } from "./stripe-provider";

export type CancelProblem = Problem<
  | "client_cancel_forbidden"
  | "team_permission_required"
  | "customer_not_found"
  | "offer_not_found"
  | "offer_choice_invalid"
  | "offer_customer_type_mismatch"
  | "product_not_owned"
  | "one_time_not_cancelable"
  | "subscription_not_found"
  | "stripe_not_configured"
  | "stripe_account_missing"
  | "stripe_refused"
  | "stripe_unavailable"
>;

/** The caller: a client acts for its signed-in user only; a server or admin for anyone. */
export type CancelActor = { type: "client"; userId: string } | { type: "server" };

const isActiveSubscription = (p: PurchaseRow, now: number) =>
  p.kind === "subscription" && (p.status === "active" || p.status === "trialing") && isOwned(p, now);

/** May a client cancel this customer's subscriptions? Its own user's, and a team's it administers. */
async function clientMayCancel(deps: Deps, projectId: string, userId: string, c: Customer): Promise<CancelProblem | null> {
  if (c.customerType === "user") return c.customerId === userId ? null : fail("client_cancel_forbidden", { customerType: "user" });
  if (c.customerType === "custom") return fail("client_cancel_forbidden", { customerType: "custom" });
  // Billing is the team's admins' business, as the reference: a plain member may not cancel it.
  if (await hasTeamPermission(deps, projectId, c.customerId, userId, "team_admin")) return null;
  return fail("team_permission_required", { teamId: c.customerId, userId, permissionId: "team_admin" });
}

/**
 * Cancels the customer's active subscriptions of `productId` (every stackable quantity), or the one
 * purchase `subscriptionId` names (inline offers have no product id). One-time purchases are refused.
 */
export async function cancelSubscriptionProduct(
  deps: Deps,
  provider: PaymentsProvider | null,
  project: ProjectRow,
  actor: CancelActor,
  c: Customer,
  target: { productId: string; subscriptionId: string | undefined },
): Promise<{ ok: true; canceled: number } | CancelProblem> {
  if (actor.type === "client") {
    const refused = await clientMayCancel(deps, project.id, actor.userId, c);
    if (refused) return refused;
  }
  if ((await customerSince(deps, project, c)) === null) return fail("customer_not_found", { customerId: c.customerId });
  const now = deps.now();
  const rows = await listPurchasesOf(deps.db, c);
  let targets: PurchaseRow[];
  if (target.subscriptionId !== undefined) {
    targets = rows.filter((p) => p.id === target.subscriptionId && isActiveSubscription(p, now));
    if (targets.length === 0) return fail("subscription_not_found");
  } else {
    const resolved = resolveOffer(readPaymentsConfig(project), { offerId: target.productId }, actor.type === "client");
    if (!resolved.ok) return resolved;
    if (resolved.offer.customerType !== c.customerType)
      return fail("offer_customer_type_mismatch", {
        offerId: target.productId,
        customerId: c.customerId,
        offerType: resolved.offer.customerType,
        actualType: c.customerType,
      });
    const owned = rows.filter((p) => p.offerId === target.productId && isOwned(p, now));
    if (owned.length === 0) return fail("product_not_owned");
    targets = owned.filter((p) => isActiveSubscription(p, now));
    if (targets.length === 0) return fail("one_time_not_cancelable");
  }
  let canceled = 0;
  for (const p of targets) {
    if (p.stripeSubscriptionId === null) {
      canceled += await cancelSubscriptionPurchase(deps.db, project.id, p.id, now);
      continue;
    }
    // Stripe bills it: it is canceled there (ending it only here would keep charging the customer).
    const done = await cancelAtStripe(provider, project, p.stripeSubscriptionId);
    if (done !== true) return done;
    canceled += await updatePurchaseWhere(deps.db, { projectId: project.id, id: p.id }, { status: "canceled", endedAt: now });
  }
  return { ok: true, canceled };
}

/** Cancels a subscription at Stripe now (its webhook then confirms the end); true, or why not. */
async function cancelAtStripe(
  provider: PaymentsProvider | null,
  project: ProjectRow,
  subscriptionId: string,
): Promise<true | CancelProblem> {
  if (!provider) return fail("stripe_not_configured");
  if (!project.stripeAccountId) return fail("stripe_account_missing");
  const accountId = project.stripeAccountId;
  try {
    const asked = await askProvider(() => provider.cancelSubscription({ accountId, subscriptionId }));
    if (!asked.ok) return asked;
    // Stripe no longer knowing it means it is gone there already: end it here too.
    return true;
  } catch (err) {
    if (!(err instanceof ProviderRefusedError)) throw err;
    console.warn(`stripe refused canceling subscription ${subscriptionId} of project ${project.id}: ${err.message}`);
    return fail("stripe_refused", { message: err.message });
  }
}
