/**
 * POST /payments/purchases/purchase-session (issue 27, the reference's wire): a purchase code and a
 * price become a payment the purchase page confirms with Stripe Elements, on the project's connected
 * account: an incomplete subscription (a recurring price) or a payment intent (a one-time price).
 * The answer is its client secret. Nothing is granted here: the payment's webhook records the
 * purchase (stripe-payment-webhooks.ts). A switch within a product line moves the customer's Stripe
 * subscription to the new price; a subscription Doorman holds alone (test mode, a grant) ends.
 */
import type { PurchaseRow } from "../../db/queries/payments";
import { listPurchasesOf, spendCodeStatement } from "../../db/queries/payments";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { type CodeProblem, type PurchaseCode, readPurchaseCode } from "./codes";
import type { PriceConfig } from "./config";
import { productLineOf } from "./config";
import { readPaymentsConfig } from "./customers";
import { addInterval, isOwned } from "./grants";
import { endPurchase } from "./purchases";
import { checkoutLineOf } from "./stripe-checkout";
import { askProvider, type PaymentsProvider, ProviderRefusedError, type StartedPayment } from "./stripe-provider";

export type PurchaseCheckProblem = Problem<
  "price_not_found" | "quantity_not_stackable" | "offer_already_owned" | "add_on_without_base" | "one_time_in_product_line"
>;

/**
 * What a purchase code may buy now, as the reference checks it: the price exists, only a stackable
 * offer takes a quantity, a non-stackable offer is bought once, an add-on needs its base, and a
 * product line holds one offer: the customer's subscriptions there are `replaced`; a one-time
 * purchase there blocks.
 */
export function checkPurchase(
  code: Pick<PurchaseCode, "offerId" | "offer" | "customerId">,
  input: { priceId: string; quantity: number; owned: PurchaseRow[]; now: number },
): { ok: true; price: PriceConfig; replaced: PurchaseRow[] } | PurchaseCheckProblem {
  const { offer, offerId } = code;
  const prices = offer.prices === "include-by-default" ? {} : offer.prices;
  const price = Object.hasOwn(prices, input.priceId) ? prices[input.priceId] : undefined;
  if (!price) return fail("price_not_found", { priceId: input.priceId });
  if (input.quantity !== 1 && !offer.stackable) return fail("quantity_not_stackable");
  const current = input.owned.filter((p) => isOwned(p, input.now));
  if (offerId !== null && !offer.stackable && current.some((p) => p.offerId === offerId))
    return fail("offer_already_owned", { offerId, customerId: code.customerId });
  const bases = offer.isAddOnTo ? Object.keys(offer.isAddOnTo) : [];
  if (offer.isAddOnTo && !current.some((p) => p.offerId !== null && bases.includes(p.offerId)))
    return fail("add_on_without_base", { offerId: offerId ?? "" });
  const line = productLineOf(offer);
  const inLine = line ? current.filter((p) => productLineOf(p.offer) === line && !(p.offerId !== null && bases.includes(p.offerId))) : [];
  const replaced = inLine.filter((p) => p.kind === "subscription");
  if (inLine.length > 0 && replaced.length === 0) return fail("one_time_in_product_line");
  return { ok: true, price, replaced };
}

export type PurchaseSessionProblem =
  | CodeProblem
  | PurchaseCheckProblem
  | Problem<
      | "new_purchases_blocked"
      | "stripe_not_configured"
      | "payments_not_set_up"
      | "free_one_time_price"
      | "stripe_refused"
      | "stripe_unavailable"
      | "code_used"
    >;

const DAY_MS = 86_400_000;

/** Starts the payment of a purchase code; its client secret. The code is spent: a second session needs a new URL. */
export async function startPurchaseSession(
  deps: Deps,
  provider: PaymentsProvider | null,
  input: { fullCode: string; priceId: string; quantity: number },
): Promise<{ ok: true; clientSecret: string } | PurchaseSessionProblem> {
  const read = await readPurchaseCode(deps, input.fullCode);
  if (!read.ok) return read;
  const { code, project } = read;
  if (readPaymentsConfig(project).blockNewPurchases) return fail("new_purchases_blocked");
  if (!provider) return fail("stripe_not_configured");
  if (!project.stripeAccountId) return fail("payments_not_set_up");
  const now = deps.now();
  const checked = checkPurchase(code, {
    priceId: input.priceId,
    quantity: input.quantity,
    owned: await listPurchasesOf(deps.db, code),
    now,
  });
  if (!checked.ok) return checked;
  const line = checkoutLineOf(code.offer.displayName, checked.price, input.quantity);
  if (!line) return fail("price_not_found", { priceId: input.priceId });
  // Stripe takes no zero payment intent; a free one-time offer is granted by the server instead.
  if (line.unitAmount === 0 && !line.recurring) return fail("free_one_time_price");
  // The code buys once: spent before any payment starts, so two sessions never charge for one code.
  const spent = await spendCodeStatement(deps.db, code.codeHash, null, now).run();
  if (spent.meta.changes !== 1) return fail("code_used");

  const accountId = project.stripeAccountId;
  const trial = checked.price.interval ? (checked.price.freeTrial ?? code.offer.freeTrial) : undefined;
  const request = {
    accountId,
    customerId: "",
    line,
    metadata: {
      projectId: project.id,
      customerType: code.customerType,
      customerId: code.customerId,
      offerId: code.offerId ?? "",
      priceId: input.priceId,
      quantity: input.quantity,
      purchaseCodeHash: code.codeHash,
    },
    ...(trial ? { trialPeriodDays: Math.max(1, Math.round((addInterval(now, trial) - now) / DAY_MS)) } : {}),
  };
  const started = await askProvider(async (): Promise<StartedPayment> => {
    const stripeSub = checked.replaced.find((p) => p.stripeSubscriptionId !== null);
    if (stripeSub?.stripeSubscriptionId) {
      // A switch within the product line: the customer's Stripe subscription moves to the new price (as the reference).
      if (line.recurring) {
        const moved = await provider.updateSubscriptionPayment({ ...request, subscriptionId: stripeSub.stripeSubscriptionId });
        if (moved) return moved;
      } else await provider.cancelSubscription({ accountId, subscriptionId: stripeSub.stripeSubscriptionId });
    }
    // Subscriptions only Doorman knows (test mode, grants) end now, as the reference cancels them.
    for (const p of checked.replaced) if (p.stripeSubscriptionId === null) await endPurchase(deps, project.id, p.id);
    const customer = await provider.findOrCreateCustomer({
      accountId,
      projectId: project.id,
      customerType: code.customerType,
      customerId: code.customerId,
    });
    const withCustomer = { ...request, customerId: customer.id };
    return line.recurring ? provider.createSubscriptionPayment(withCustomer) : provider.createOneTimePayment(withCustomer);
  }).catch((err: unknown) => {
    if (!(err instanceof ProviderRefusedError)) throw err;
    console.warn(`stripe refused a purchase session for project ${project.id}: ${err.message}`);
    return fail("stripe_refused", { message: err.message });
  });
  if (!started.ok) return started;
  return { ok: true, clientSecret: started.value.clientSecret };
}
