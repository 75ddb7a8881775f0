/**
 * The payments provider Doorman talks to in live mode (Stripe Connect), as a small interface: the
 * few calls Doorman makes, in Doorman's words. stripe-client.ts implements it on the official
 * `stripe` package; services take a PaymentsProvider, so they never import Stripe itself.
 */

import { fail, type Problem } from "../result";

/** A connected account's state, as the console shows it. */
export type ProviderAccount = {
  id: string;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  payoutsEnabled: boolean;
};

/** What Doorman stores on a Checkout Session, and reads back from its webhook events. */
export type CheckoutMetadata = {
  projectId: string;
  customerType: string;
  customerId: string;
  /** "" for an inline offer. */
  offerId: string;
  priceId: string;
  quantity: number;
  /** The purchase code's SHA-256 (never the code itself): the webhook finds the code's offer by it. */
  purchaseCodeHash: string;
};

/** One line of a Checkout Session: the offer's price, in minor units of one currency. */
export type CheckoutLine = {
  productName: string;
  /** Lower-case ISO currency ("usd"). */
  currency: string;
  /** Minor units (cents; yen for JPY). */
  unitAmount: number;
  quantity: number;
  /** A subscription's billing interval; absent = a one-time payment. */
  recurring?: { interval: "day" | "week" | "month" | "year"; intervalCount: number };
};

export type CheckoutRequest = {
  /** The connected account the payment goes to (a direct charge). */
  accountId: string;
  line: CheckoutLine;
  metadata: CheckoutMetadata;
  successUrl: string;
  cancelUrl: string;
  /** A subscription's free trial, in days from when the customer subscribes. */
  trialPeriodDays?: number;
};

export type CheckoutSession = { id: string; url: string; clientSecret: string | null };

/** A saved card, as the customer's billing shows it. */
export type ProviderCard = { id: string; brand: string | null; last4: string | null; exp_month: number | null; exp_year: number | null };
/** A customer of a connected account (its metadata names Doorman's customer), with its default card if it has one. */
export type ProviderCustomer = { id: string; defaultCard: ProviderCard | null };
/** A payment the purchase page confirms itself (Stripe Elements): a subscription or a one-time payment intent. */
export type PaymentIntentRequest = {
  accountId: string;
  /** The customer on the connected account (findOrCreateCustomer). */
  customerId: string;
  line: CheckoutLine;
  metadata: CheckoutMetadata;
  trialPeriodDays?: number;
};
/** What the page confirms with: the client secret of the payment (or of the card setup, during a free trial). */
export type StartedPayment = { id: string; clientSecret: string };

/** A verified webhook event: only the fields Doorman reads. */
export type ProviderEvent = {
  id: string;
  type: string;
  /** The connected account the event happened on (Connect events); null = the platform's own account. */
  account: string | null;
  /** The event's object (checkout session, invoice, subscription, charge), as Stripe sent it. */
  object: Record<string, unknown>;
};

export type WebhookVerification = { ok: true; event: ProviderEvent } | Problem<"stripe_signature_mismatch" | "stripe_payload_invalid">;

/** The provider refused a request (an account that cannot take charges yet, a bad parameter): not Doorman's failure. */
export class ProviderRefusedError extends Error {
  constructor(
    message: string,
    readonly providerCode: string | null,
  ) {
    super(message);
    this.name = "ProviderRefusedError";
  }
}

/**
 * The provider could not be reached, did not answer within its bounds (STRIPE_TIMEOUT_MS), or failed
 * on its side (a 5xx, a rate limit, the platform's key refused): Doorman cannot go on, but it is no bug.
 */
export class ProviderUnavailableError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = "ProviderUnavailableError";
  }
}

/** One payment method of a configuration: what checkout shows (`enabled`) and whether the seller may change it. */
export type ProviderPaymentMethod = { id: string; available: boolean; enabled: boolean; overridable: boolean };

/** A payment method configuration of a connected account (which methods its checkouts offer). */
export type ProviderMethodConfig = {
  id: string;
  isDefault: boolean;
  /** Made by the platform (Connect) for its accounts, rather than the account's own. */
  fromPlatform: boolean;
  methods: ProviderPaymentMethod[];
};

/** A provider call's outcome, with an unreachable or slow provider as the problem `stripe_unavailable` instead of an exception. */
export async function askProvider<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | Problem<"stripe_unavailable">> {
  try {
    return { ok: true, value: await call() };
  } catch (err) {
    if (!(err instanceof ProviderUnavailableError)) throw err;
    console.warn(`stripe unavailable: ${err.message}`);
    return fail("stripe_unavailable", { timedOut: err.timedOut });
  }
}

export interface PaymentsProvider {
  /** Creates a connected account (no Stripe dashboard: the console embeds Stripe's components) for a project; `projectId` goes into its metadata. */
  createAccount(input: { projectId: string; idempotencyKey: string }): Promise<ProviderAccount>;
  /** A one-time onboarding link to the provider's hosted onboarding. */
  createOnboardingLink(input: { accountId: string; refreshUrl: string; returnUrl: string }): Promise<{ url: string }>;
  /** A client secret for the provider's embedded components (payments, payouts, onboarding). */
  createAccountSession(input: { accountId: string }): Promise<{ clientSecret: string }>;
  /** The account's state; null when the provider does not know it. */
  readAccount(accountId: string): Promise<ProviderAccount | null>;
  /** A subscription's state on a connected account; null when the provider does not know it. */
  readSubscription(input: { accountId: string; subscriptionId: string }): Promise<Record<string, unknown> | null>;
  /** Cancels a subscription on a connected account now; false when the provider does not know it. */
  cancelSubscription(input: { accountId: string; subscriptionId: string }): Promise<boolean>;
  /** A customer of a connected account (its metadata names Doorman's customer); null when the provider does not know it. */
  readCustomer(input: { accountId: string; customerId: string }): Promise<{ metadata: Record<string, string> } | null>;
  /** The connected account's customer of a Doorman customer (by its metadata), or null. */
  findCustomer(input: { accountId: string; customerType: string; customerId: string }): Promise<ProviderCustomer | null>;
  /** Creates the connected account's customer of a Doorman customer. */
  createCustomer(input: { accountId: string; projectId: string; customerType: string; customerId: string }): Promise<ProviderCustomer>;
  /** A SetupIntent that saves a card for the customer (off-session use), for Stripe's in-page form. */
  createSetupIntent(input: { accountId: string; stripeCustomerId: string }): Promise<{ clientSecret: string }>;
  /** Every subscription (any status) of a customer of a connected account, as the provider sends them. */
  listSubscriptions(input: { accountId: string; customerId: string }): Promise<Record<string, unknown>[]>;
  /** Refunds `amount` (minor units) of a payment intent on a connected account; ProviderRefusedError when the provider says no. */
  createRefund(input: {
    accountId: string;
    paymentIntentId: string;
    amount: number;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<{ id: string }>;
  /** A hosted checkout page on the connected account, for one purchase; ProviderRefusedError when the provider says no. */
  createCheckoutSession(input: CheckoutRequest): Promise<CheckoutSession>;
  /** The connected account's customer for a Doorman customer, created on first use. */
  findOrCreateCustomer(input: { accountId: string; projectId: string; customerType: string; customerId: string }): Promise<{ id: string }>;
  /** An incomplete subscription the page pays (its first invoice's client secret). */
  createSubscriptionPayment(input: PaymentIntentRequest): Promise<StartedPayment>;
  /** Moves an existing subscription to another price (a switch within a product line); false-y when Stripe does not know it. */
  updateSubscriptionPayment(input: PaymentIntentRequest & { subscriptionId: string }): Promise<StartedPayment | null>;
  /** A one-time payment intent the page confirms. */
  createOneTimePayment(input: PaymentIntentRequest): Promise<StartedPayment>;
  /** The customer's Stripe customer and its default payment method on the account; null when it has none. */
  defaultPaymentMethodOf(input: {
    accountId: string;
    customerType: string;
    customerId: string;
  }): Promise<{ customerId: string; paymentMethodId: string } | null>;
  /**
   * A plan switch charged to `paymentMethodId` at once: moves `subscriptionId` to the line's price, or
   * starts a subscription when null; null when Stripe does not know the subscription.
   */
  switchSubscription(input: {
    accountId: string;
    customerId: string;
    paymentMethodId: string;
    subscriptionId: string | null;
    line: CheckoutLine;
    metadata: Record<string, string>;
  }): Promise<{ id: string; status: string; currentPeriodEnd: number | null } | null>;
  /** The connected account's payment method configurations. */
  listMethodConfigs(accountId: string): Promise<ProviderMethodConfig[]>;
  /** Turns payment methods of one configuration on or off; null when the provider does not know the configuration. */
  updateMethodConfig(input: { accountId: string; configId: string; preferences: Record<string, "on" | "off"> }): Promise<true | null>;
  /** Verifies a webhook's signature against the endpoint's secret and parses the event. */
  verifyWebhook(input: { payload: string; signature: string; secret: string; nowMs: number }): Promise<WebhookVerification>;
}
