/**
 * The admin side of payments (issue 15): the console's customer view, the owner's test-mode
 * purchase, and Stripe Connect (onboarding URL, account state, embedded-component sessions).
 * Items, products (offers), product lines and test mode are config, edited with `project.updateConfig`.
 */
import type { RequestOptions } from "../interface/http";
import { KnownError } from "../shared/known-errors";
import { type CustomerType, customerViewFromJson, type PaymentsCustomerView } from "./payments-shapes";
import type { CustomerViewJson, StripeAccountInfoJson } from "./wire-types";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** The project's connected Stripe account (Stripe Connect onboarding state). */
export type StripeAccountInfo = {
  accountId: string;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  payoutsEnabled: boolean;
};

export async function getPaymentsCustomer(
  request: Request,
  options: { customerType: CustomerType; customerId: string },
): Promise<PaymentsCustomerView> {
  const path = `/internal/payments/customers/${options.customerType}/${encodeURIComponent(options.customerId)}`;
  return customerViewFromJson(await request<CustomerViewJson>(path));
}

export async function setupPayments(request: Request): Promise<{ url: string }> {
  const json = await request<{ url: string }>("/internal/payments/setup", { body: {} });
  return { url: json.url };
}

/** null when the project has no connected account yet (STRIPE_ACCOUNT_INFO_NOT_FOUND). */
export async function getStripeAccountInfo(request: Request): Promise<StripeAccountInfo | null> {
  try {
    const json = await request<StripeAccountInfoJson>("/internal/payments/stripe/account-info");
    return {
      accountId: json.account_id,
      chargesEnabled: json.charges_enabled,
      detailsSubmitted: json.details_submitted,
      payoutsEnabled: json.payouts_enabled,
    };
  } catch (error) {
    if (error instanceof KnownError && error.code === "STRIPE_ACCOUNT_INFO_NOT_FOUND") return null;
    throw error;
  }
}

export async function createStripeWidgetSession(request: Request): Promise<{ clientSecret: string }> {
  const json = await request<{ client_secret: string }>("/internal/payments/stripe-widgets/account-session", { body: {} });
  return { clientSecret: json.client_secret };
}

export async function testModePurchase(request: Request, options: { fullCode: string; priceId: string; quantity?: number }): Promise<void> {
  const body: Record<string, unknown> = { full_code: options.fullCode, price_id: options.priceId };
  if (options.quantity !== undefined) body.quantity = options.quantity;
  await request("/internal/payments/test-mode-purchase-session", { body });
}
