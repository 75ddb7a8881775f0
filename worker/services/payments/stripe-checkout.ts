/**
 * Live-mode checkout (issue 15): a purchase code and one of its offer's prices become a Stripe
 * Checkout Session on the project's connected account. Nothing is granted here: the paid session's
 * webhook (stripe-webhooks.ts) records the purchase, so only money that moved grants items.
 */
import { CURRENCIES, CURRENCY_CODES, type Currency } from "@doorman/shared/wire-payments";
import { listPurchasesOf } from "../../db/queries/payments";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { type CodeProblem, readPurchaseCode } from "./codes";
import type { PriceConfig } from "./config";
import { readPaymentsConfig } from "./customers";
import { addInterval } from "./grants";
import { purchaseBlocker } from "./purchases";
import { askProvider, type CheckoutLine, type CheckoutSession, type PaymentsProvider, ProviderRefusedError } from "./stripe-provider";

export type CheckoutProblem =
  | CodeProblem
  | Problem<
      | "offer_already_owned"
      | "add_on_without_base"
      | "price_not_found"
      | "stripe_checkout_in_test_mode"
      | "stripe_not_configured"
      | "stripe_account_missing"
      | "free_one_time_price"
      | "stripe_refused"
      | "stripe_unavailable"
      | "new_purchases_blocked"
    >;

const DAY_MS = 86_400_000;

/** "9.99" in minor units of `currency` (999; JPY has none: "1000" is 1000); null when it has more decimals than the currency. */
export function minorUnits(amount: string, currency: Currency): number | null {
  const [whole = "0", fraction = ""] = amount.split(".");
  const decimals = CURRENCIES[currency];
  if (fraction.replace(/0+$/, "").length > decimals) return null;
  return Number(whole) * 10 ** decimals + Number((fraction + "0".repeat(decimals)).slice(0, decimals) || "0");
}

/** The price's currency for Checkout: USD when it has one, else the first it is given in. */
function pickCurrency(price: PriceConfig): Currency | null {
  if (price.USD !== undefined) return "USD";
  return CURRENCY_CODES.find((c) => price[c] !== undefined) ?? null;
}

/** The Checkout line of a price: amount in minor units, and the interval of a subscription. */
export function checkoutLineOf(productName: string, price: PriceConfig, quantity: number): CheckoutLine | null {
  const currency = pickCurrency(price);
  const amount = currency ? minorUnits(price[currency]!, currency) : null;
  if (!currency || amount === null) return null;
  return {
    productName,
    currency: currency.toLowerCase(),
    unitAmount: amount,
    quantity,
    ...(price.interval ? { recurring: { interval: price.interval[1], intervalCount: price.interval[0] } } : {}),
  };
}

/**
 * Starts a Stripe Checkout for a purchase code. `webOrigin` serves the purchase page, where a
 * canceled checkout returns; a paid one goes to the code's return URL (or back to the page).
 */
export async function startStripeCheckout(
  deps: Deps,
  provider: PaymentsProvider | null,
  input: { fullCode: string; priceId: string; quantity: number | undefined; webOrigin: string },
): Promise<{ ok: true; url: string; clientSecret: string | null; sessionId: string } | CheckoutProblem> {
  const read = await readPurchaseCode(deps, input.fullCode);
  if (!read.ok) return read;
  const { code, project } = read;
  const payments = readPaymentsConfig(project);
  if (payments.blockNewPurchases) return fail("new_purchases_blocked");
  if (payments.testMode) return fail("stripe_checkout_in_test_mode");
  if (!provider) return fail("stripe_not_configured");
  if (!project.stripeAccountId) return fail("stripe_account_missing");
  const prices = code.offer.prices === "include-by-default" ? {} : code.offer.prices;
  const price = Object.hasOwn(prices, input.priceId) ? prices[input.priceId] : undefined;
  if (!price) return fail("price_not_found", { priceId: input.priceId });
  const now = deps.now();
  const owned = await listPurchasesOf(deps.db, code);
  const blocker = purchaseBlocker(code.offerId, code.offer, code.customerId, owned, now);
  if (blocker && (blocker.reason === "offer_already_owned" || blocker.reason === "add_on_without_base")) return blocker;
  // As the test checkout: only a stackable offer is bought more than once at a time.
  const quantity = code.offer.stackable ? (input.quantity ?? 1) : 1;
  const line = checkoutLineOf(code.offer.displayName, price, quantity);
  if (!line) return fail("price_not_found", { priceId: input.priceId });
  // Stripe Checkout cannot take a zero payment; a free one-time offer is granted by the server instead.
  if (line.unitAmount === 0 && !line.recurring) return fail("free_one_time_price");
  const trial = price.interval ? (price.freeTrial ?? code.offer.freeTrial) : undefined;
  const pageUrl = new URL(`/purchase/${encodeURIComponent(input.fullCode)}`, input.webOrigin);
  if (code.returnUrl) pageUrl.searchParams.set("return_url", code.returnUrl);
  const request = {
    accountId: project.stripeAccountId,
    line,
    metadata: {
      projectId: project.id,
      customerType: code.customerType,
      customerId: code.customerId,
      offerId: code.offerId ?? "",
      priceId: input.priceId,
      quantity,
      purchaseCodeHash: code.codeHash,
    },
    // The return URL was checked against the project's trusted domains when the code was made.
    successUrl: code.returnUrl ?? pageUrl.toString(),
    cancelUrl: pageUrl.toString(),
    ...(trial ? { trialPeriodDays: Math.max(1, Math.round((addInterval(now, trial) - now) / DAY_MS)) } : {}),
  };
  let session: Awaited<ReturnType<typeof askProvider<CheckoutSession>>>;
  try {
    session = await askProvider(() => provider.createCheckoutSession(request));
  } catch (err) {
    if (!(err instanceof ProviderRefusedError)) throw err;
    console.warn(`stripe refused a checkout for project ${project.id}: ${err.message}`);
    return fail("stripe_refused", { message: err.message });
  }
  if (!session.ok) return session;
  const { url, clientSecret, id } = session.value;
  return { ok: true, url, clientSecret, sessionId: id };
}
