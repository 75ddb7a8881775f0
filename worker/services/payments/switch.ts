/**
 * POST /payments/products/{customer_type}/{customer_id}/switch (the reference's plan switch): moves a
 * customer's subscription to another product of its product line, charged at once to the customer's
 * default payment method on the project's connected account. A subscription Stripe bills is moved
 * there and the purchase follows it; from the line's include-by-default product, a new Stripe
 * subscription starts. Subscriptions only Doorman knows (test mode, grants) cannot be switched (as
 * the reference): buy the other product instead.
 */
import { listPurchasesOf, switchPurchaseOffer } from "../../db/queries/payments";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { hasTeamPermission } from "../permissions";
import { fail, type Problem } from "../result";
import { productLineOf } from "./config";
import { type Customer, customerSince, readPaymentsConfig } from "./customers";
import { isOwned } from "./grants";
import { completePurchase } from "./purchases";
import { checkoutLineOf } from "./stripe-checkout";
import { askProvider, type PaymentsProvider, ProviderRefusedError } from "./stripe-provider";

export type SwitchProblem = Problem<
  | "new_purchases_blocked"
  | "client_switch_forbidden"
  | "team_permission_required"
  | "switch_refused"
  | "user_not_found"
  | "team_not_found"
  | "one_time_in_product_line"
  | "quantity_not_stackable"
  | "stripe_not_configured"
  | "payments_not_set_up"
  | "default_payment_method_required"
  | "stripe_refused"
  | "stripe_unavailable"
>;

const refuse = (message: string) => fail("switch_refused", { message });

/** Switches `c`'s subscription from one product to another of the same product line. */
export async function switchSubscriptionProduct(
  deps: Deps,
  provider: PaymentsProvider | null,
  project: ProjectRow,
  actor: { type: "client"; userId: string } | { type: "server" },
  c: Customer,
  input: { fromProductId: string; toProductId: string; priceId?: string; quantity?: number },
): Promise<{ ok: true } | SwitchProblem> {
  const payments = readPaymentsConfig(project);
  if (payments.blockNewPurchases) return fail("new_purchases_blocked");
  if (actor.type === "client") {
    if (c.customerType !== "team" && !(c.customerType === "user" && c.customerId === actor.userId)) return fail("client_switch_forbidden");
    // Billing is the team's admins' business, as the reference.
    if (c.customerType === "team" && !(await hasTeamPermission(deps, project.id, c.customerId, actor.userId, "team_admin")))
      return fail("team_permission_required", { teamId: c.customerId, userId: actor.userId, permissionId: "team_admin" });
  }
  const from = Object.hasOwn(payments.products, input.fromProductId) ? payments.products[input.fromProductId] : undefined;
  const to = Object.hasOwn(payments.products, input.toProductId) ? payments.products[input.toProductId] : undefined;
  if (!from || !to) return refuse("Product not found.");
  if (from.customerType !== c.customerType || to.customerType !== c.customerType) return refuse("Product customer type does not match.");
  const line = productLineOf(from);
  if (!line || line !== productLineOf(to)) return refuse("Products must be in the same product line to switch.");
  if (input.fromProductId === input.toProductId) return refuse("Product is already active.");
  if (to.isAddOnTo && Object.keys(to.isAddOnTo).length > 0) return refuse("Add-on products cannot be selected for plan switching.");
  if (to.prices === "include-by-default") return refuse("Include-by-default products cannot be selected for plan switching.");
  const fromIsDefault = from.prices === "include-by-default";
  if (from.prices !== "include-by-default" && !Object.values(from.prices).some((p) => p.interval))
    return refuse("This subscription cannot be switched.");
  if ((await customerSince(deps, project, c)) === null)
    return c.customerType === "team" ? fail("team_not_found", { teamId: c.customerId }) : fail("user_not_found");

  const now = deps.now();
  const owned = (await listPurchasesOf(deps.db, c)).filter((p) => isOwned(p, now));
  if (owned.some((p) => p.kind === "one_time" && productLineOf(p.offer) === line)) return fail("one_time_in_product_line");
  const existing = fromIsDefault ? null : (owned.find((p) => p.kind === "subscription" && p.offerId === input.fromProductId) ?? null);
  if (!fromIsDefault && !existing?.stripeSubscriptionId) return refuse("This subscription cannot be switched.");

  const recurring = Object.entries(to.prices).filter(([, p]) => p.interval);
  const priceId = input.priceId ?? recurring[0]?.[0];
  const price = recurring.find(([id]) => id === priceId)?.[1];
  if (!priceId || !price) return refuse("Price not found for target product.");
  const quantity = input.quantity ?? existing?.quantity ?? 1;
  if (input.quantity !== undefined && quantity !== 1 && !to.stackable) return fail("quantity_not_stackable");
  const lineItem = checkoutLineOf(to.displayName, price, quantity);
  if (!lineItem) return refuse("Price not found for target product.");

  if (!provider) return fail("stripe_not_configured");
  if (!project.stripeAccountId) return fail("payments_not_set_up");
  const accountId = project.stripeAccountId;
  const asked = await askProvider(async () => {
    const paying = await provider.defaultPaymentMethodOf({ accountId, customerType: c.customerType, customerId: c.customerId });
    if (!paying) return null;
    return provider.switchSubscription({
      accountId,
      customerId: paying.customerId,
      paymentMethodId: paying.paymentMethodId,
      subscriptionId: existing?.stripeSubscriptionId ?? null,
      line: lineItem,
      metadata: {
        project_id: project.id,
        customer_type: c.customerType,
        customer_id: c.customerId,
        offer_id: input.toProductId,
        price_id: priceId,
      },
    });
  }).catch((err: unknown) => {
    if (!(err instanceof ProviderRefusedError)) throw err;
    console.warn(`stripe refused a plan switch for project ${project.id}: ${err.message}`);
    return fail("stripe_refused", { message: err.message });
  });
  if (!asked.ok) return asked;
  if (!asked.value) return fail("default_payment_method_required", { customerType: c.customerType, customerId: c.customerId });
  const sub = asked.value;
  if (existing) {
    // The purchase follows its Stripe subscription: same purchase, the new product, price and quantity.
    await switchPurchaseOffer(deps.db, project.id, existing.id, { offerId: input.toProductId, offer: to, priceId, quantity });
    return { ok: true };
  }
  const recorded = await completePurchase(deps, {
    project,
    customerType: c.customerType,
    customerId: c.customerId,
    offerId: input.toProductId,
    offer: to,
    priceId,
    quantity,
    source: "stripe",
    externalId: sub.id,
    stripeSubscriptionId: sub.id,
    currentPeriodEnd: sub.currentPeriodEnd,
  });
  return recorded.ok ? { ok: true } : refuse("This subscription cannot be switched.");
}
