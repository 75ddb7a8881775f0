/**
 * PaymentsProvider on the official `stripe` package, built to run on Workers: requests go through
 * `fetch` (Stripe.createFetchHttpClient) and webhook signatures are checked with WebCrypto
 * (Stripe.createSubtleCryptoProvider + constructEventAsync). STRIPE_API_URL (development only)
 * points the client at a local mock instead of api.stripe.com. Every call is bounded
 * (config.outbound.stripe: time to first byte, total time including the body, body bytes; no retries,
 * no redirect followed), so a slow or broken Stripe ends a request with an error instead of holding it
 * (ProviderUnavailableError, stripe-errors.ts).
 */
import Stripe from "stripe";
import { type Config, DEFAULT_OUTBOUND_LIMITS } from "../../config";
import { boundedFetchFn, type OutboundBounds } from "../../lib/outbound-fetch";
import { fail } from "../result";
import { guard, isMissing, unavailableOr } from "./stripe-errors";
import {
  type CheckoutMetadata,
  type CheckoutRequest,
  type PaymentIntentRequest,
  type PaymentsProvider,
  type ProviderAccount,
  type ProviderEvent,
  type ProviderMethodConfig,
  ProviderRefusedError,
  type StartedPayment,
  type WebhookVerification,
} from "./stripe-provider";

const cryptoProvider = Stripe.createSubtleCryptoProvider();
/** Stripe's own default signature tolerance: an event signed more than 5 minutes before it arrives is refused (replays). */
const SIGNATURE_TOLERANCE_S = 300;

type StripeClient = InstanceType<typeof Stripe>;

function toAccount(a: { id: string; charges_enabled?: boolean; details_submitted?: boolean; payouts_enabled?: boolean }): ProviderAccount {
  return {
    id: a.id,
    chargesEnabled: a.charges_enabled === true,
    detailsSubmitted: a.details_submitted === true,
    payoutsEnabled: a.payouts_enabled === true,
  };
}

/** A configuration's methods: the entries with a display preference (the others are its own fields: id, name, parent, …). */
function toMethodConfig(config: Record<string, unknown>): ProviderMethodConfig {
  const methods = Object.entries(config).flatMap(([id, value]) => {
    if (!value || typeof value !== "object" || !("display_preference" in value)) return [];
    const entry = value as { available?: boolean; display_preference?: { value?: string; overridable?: boolean | null } };
    return [
      {
        id,
        available: entry.available === true,
        // `value` is what checkout shows; `preference` only what was asked (ignored when not overridable).
        enabled: entry.display_preference?.value === "on",
        overridable: entry.display_preference?.overridable === true,
      },
    ];
  });
  return {
    id: String(config.id),
    isDefault: config.is_default === true,
    fromPlatform: Boolean(config.application || config.parent),
    methods,
  };
}

/**
 * Client options: fetch-based and bounded, no retries inside a request (Stripe's idempotency keys make a caller's retry safe).
 */
function clientOptions(apiUrl: string | null, bounds: OutboundBounds, fetchFn?: typeof fetch): ConstructorParameters<typeof Stripe>[1] {
  const options: NonNullable<ConstructorParameters<typeof Stripe>[1]> = {
    httpClient: Stripe.createFetchHttpClient(boundedFetchFn(bounds, fetchFn)),
    maxNetworkRetries: 0,
    // The backstop: the bounded fetch's own limit fires first, with a message that says which.
    timeout: bounds.timeoutMs + 1_000,
    telemetry: false,
  };
  if (apiUrl) {
    const url = new URL(apiUrl);
    options.host = url.hostname;
    options.port = url.port || (url.protocol === "https:" ? 443 : 80);
    options.protocol = url.protocol === "https:" ? "https" : "http";
  }
  return options;
}

/** The purchase as Stripe metadata (strings), which the webhook events echo back. */
function metadataOf(metadata: CheckoutMetadata) {
  return {
    project_id: metadata.projectId,
    customer_type: metadata.customerType,
    customer_id: metadata.customerId,
    offer_id: metadata.offerId,
    price_id: metadata.priceId,
    quantity: String(metadata.quantity),
    purchase_code_hash: metadata.purchaseCodeHash,
  };
}

/** The metadata of a payment purchase-session starts: its own events record it (stripe-payment-webhooks.ts), never Checkout's. */
function elementsMetadataOf(metadata: CheckoutMetadata) {
  return { ...metadataOf(metadata), payment_flow: "elements" };
}

function buildCheckoutParams(input: CheckoutRequest) {
  const { line, metadata } = input;
  const stringMetadata = metadataOf(metadata);
  const priceData = {
    currency: line.currency,
    unit_amount: line.unitAmount,
    product_data: { name: line.productName },
    ...(line.recurring ? { recurring: { interval: line.recurring.interval, interval_count: line.recurring.intervalCount } } : {}),
  };
  return {
    mode: line.recurring ? ("subscription" as const) : ("payment" as const),
    line_items: [{ price_data: priceData, quantity: line.quantity }],
    metadata: stringMetadata,
    // The same metadata on the subscription / payment intent, so their later events name the purchase too.
    ...(line.recurring
      ? { subscription_data: { metadata: stringMetadata, ...(input.trialPeriodDays ? { trial_period_days: input.trialPeriodDays } : {}) } }
      : { payment_intent_data: { metadata: stringMetadata } }),
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
  };
}

/** Stripe's refusals (a bad parameter, an account that cannot charge) as ProviderRefusedError; the rest unavailable. */
function refusedOr(err: unknown): never {
  if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripePermissionError)
    throw new ProviderRefusedError(err.message, err.code ?? null);
  throw unavailableOr(err);
}

/** A subscription item's price: the line's amount and interval, on a product made for it. */
function subscriptionItemPrice(line: PaymentIntentRequest["line"], productId: string) {
  return {
    currency: line.currency,
    unit_amount: line.unitAmount,
    product: productId,
    recurring: { interval: line.recurring!.interval, interval_count: line.recurring!.intervalCount },
  };
}

/** The client secret the page confirms a subscription with: its first invoice's, or the card setup's during a trial. */
function subscriptionSecret(sub: Stripe.Subscription): StartedPayment {
  const invoice = typeof sub.latest_invoice === "object" ? sub.latest_invoice : null;
  const setup = typeof sub.pending_setup_intent === "object" ? sub.pending_setup_intent : null;
  const secret = invoice?.confirmation_secret?.client_secret ?? setup?.client_secret ?? null;
  if (!secret) throw new Error(`Stripe answered subscription ${sub.id} without a client secret`);
  return { id: sub.id, clientSecret: secret };
}

const SUBSCRIPTION_EXPAND = ["latest_invoice.confirmation_secret", "pending_setup_intent"];

/**
 * The Stripe implementation. `fetchFn` replaces the global fetch (tests); `apiUrl` another host;
 * `bounds` each call's limits (default: DEFAULT_OUTBOUND_LIMITS.stripe).
 * @example
 * const stripe = createStripeProvider({ secretKey: "sk_test_…", apiUrl: null });
 * const { url } = await stripe.createOnboardingLink({ accountId, refreshUrl, returnUrl });
 */
export function createStripeProvider(
  settings: { secretKey: string; apiUrl: string | null; bounds?: OutboundBounds },
  fetchFn?: typeof fetch,
): PaymentsProvider {
  const bounds = settings.bounds ?? DEFAULT_OUTBOUND_LIMITS.stripe;
  const stripe: StripeClient = new Stripe(settings.secretKey, clientOptions(settings.apiUrl, bounds, fetchFn));
  /** The customer's default card (invoice settings), read from Stripe when only its id is given. */
  async function defaultCardOf(customer: { invoice_settings?: { default_payment_method?: unknown } | null }, accountId: string) {
    const ref = customer.invoice_settings?.default_payment_method;
    if (!ref) return null;
    try {
      const pm =
        typeof ref === "string"
          ? await stripe.paymentMethods.retrieve(ref, {}, { stripeAccount: accountId })
          : (ref as { id: string; card?: unknown });
      const card = (pm as { card?: { brand?: string; last4?: string; exp_month?: number; exp_year?: number } | null }).card ?? null;
      return {
        id: pm.id,
        brand: card?.brand ?? null,
        last4: card?.last4 ?? null,
        exp_month: card?.exp_month ?? null,
        exp_year: card?.exp_year ?? null,
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw unavailableOr(err);
    }
  }
  /**
   * The connected account's customer of a Doorman customer, found by the reference's metadata
   * (customerId, customerType): billing, purchase sessions and switches must all reach the same one.
   */
  async function searchCustomer(accountId: string, customerType: string, customerId: string) {
    // Stripe's search syntax: a quoted value escapes ' and \ with a backslash.
    const quote = (v: string) => `'${v.replace(/[\\']/g, (ch) => `\\${ch}`)}'`;
    const found = await guard(
      stripe.customers.search(
        {
          query: `metadata['customerId']:${quote(customerId)} AND metadata['customerType']:${quote(customerType.toUpperCase())}`,
          limit: 1,
        },
        { stripeAccount: accountId },
      ),
    );
    return found.data[0] ?? null;
  }
  /** Creates it; one idempotency key per Doorman customer, so two first purchases at once make one customer. */
  async function createCustomerFor(accountId: string, projectId: string, customerType: string, customerId: string) {
    return guard(
      stripe.customers.create(
        // The reference's metadata: its webhooks (and Doorman's) find the Doorman customer by it.
        { metadata: { customerId, customerType: customerType.toUpperCase() } },
        { stripeAccount: accountId, idempotencyKey: `doorman-customer-${projectId}-${customerType}-${customerId}` },
      ),
    );
  }
  return {
    async createAccount({ projectId, idempotencyKey }) {
      const account = await guard(
        stripe.accounts.create(
          {
            // No Stripe dashboard for the seller: the console's embedded components are their dashboard (as the reference).
            controller: { stripe_dashboard: { type: "none" } },
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
            metadata: { project_id: projectId },
          },
          { idempotencyKey },
        ),
      );
      return toAccount(account);
    },
    async createOnboardingLink({ accountId, refreshUrl, returnUrl }) {
      const link = await guard(
        stripe.accountLinks.create({
          account: accountId,
          type: "account_onboarding",
          refresh_url: refreshUrl,
          return_url: returnUrl,
        }),
      );
      return { url: link.url };
    },
    async createAccountSession({ accountId }) {
      const session = await guard(
        stripe.accountSessions.create({
          account: accountId,
          components: {
            account_onboarding: { enabled: true },
            payments: { enabled: true, features: { refund_management: true, dispute_management: true } },
            payouts: { enabled: true, features: { standard_payouts: true, edit_payout_schedule: true, external_account_collection: true } },
            notification_banner: { enabled: true },
          },
        }),
      );
      return { clientSecret: session.client_secret };
    },
    async readAccount(accountId) {
      try {
        return toAccount(await stripe.accounts.retrieve(accountId));
      } catch (err) {
        // An account Stripe does not know (deleted, or another platform's) is "no account", not a failure.
        if (isMissing(err) || err instanceof Stripe.errors.StripePermissionError) return null;
        throw unavailableOr(err);
      }
    },
    async readSubscription({ accountId, subscriptionId }) {
      try {
        const sub = await stripe.subscriptions.retrieve(subscriptionId, {}, { stripeAccount: accountId });
        return sub as unknown as Record<string, unknown>;
      } catch (err) {
        if (isMissing(err)) return null;
        throw unavailableOr(err);
      }
    },
    async cancelSubscription({ accountId, subscriptionId }) {
      try {
        await stripe.subscriptions.cancel(subscriptionId, {}, { stripeAccount: accountId });
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        if (err instanceof Stripe.errors.StripeInvalidRequestError) throw new ProviderRefusedError(err.message, err.code ?? null);
        throw unavailableOr(err);
      }
    },
    async findCustomer({ accountId, customerType, customerId }) {
      const customer = await searchCustomer(accountId, customerType, customerId);
      return customer ? { id: customer.id, defaultCard: await defaultCardOf(customer, accountId) } : null;
    },
    async createCustomer({ accountId, projectId, customerType, customerId }) {
      const customer = await createCustomerFor(accountId, projectId, customerType, customerId);
      return { id: customer.id, defaultCard: null };
    },
    async createSetupIntent({ accountId, stripeCustomerId }) {
      const intent = await guard(
        stripe.setupIntents.create({ customer: stripeCustomerId, usage: "off_session" }, { stripeAccount: accountId }),
      );
      if (!intent.client_secret) throw new Error(`Stripe answered setup intent ${intent.id} without a client secret`);
      return { clientSecret: intent.client_secret };
    },
    async readCustomer({ accountId, customerId }) {
      try {
        const customer = await stripe.customers.retrieve(customerId, {}, { stripeAccount: accountId });
        if ("deleted" in customer && customer.deleted) return null;
        return { metadata: { ...(customer as { metadata?: Record<string, string> }).metadata } };
      } catch (err) {
        if (isMissing(err)) return null;
        throw unavailableOr(err);
      }
    },
    async listSubscriptions({ accountId, customerId }) {
      const list = await guard(
        stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 }, { stripeAccount: accountId }),
      );
      return list.data as unknown as Record<string, unknown>[];
    },
    async createRefund({ accountId, paymentIntentId, amount, metadata, idempotencyKey }) {
      const refund = await stripe.refunds
        .create({ payment_intent: paymentIntentId, amount, metadata }, { stripeAccount: accountId, idempotencyKey })
        .catch((err: unknown) => {
          if (err instanceof Stripe.errors.StripeInvalidRequestError) throw new ProviderRefusedError(err.message, err.code ?? null);
          throw unavailableOr(err);
        });
      return { id: refund.id };
    },
    async createCheckoutSession(input) {
      // No idempotency key: a second session for the same code is harmless (each payment is recorded once, by its session id).
      const session = await stripe.checkout.sessions
        .create(buildCheckoutParams(input), { stripeAccount: input.accountId })
        .catch((err: unknown) => {
          if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripePermissionError)
            throw new ProviderRefusedError(err.message, err.code ?? null);
          throw unavailableOr(err);
        });
      if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a URL`);
      return { id: session.id, url: session.url, clientSecret: session.client_secret ?? null };
    },
    async defaultPaymentMethodOf({ accountId, customerType, customerId }) {
      const customer = await searchCustomer(accountId, customerType, customerId);
      const method = customer?.invoice_settings?.default_payment_method;
      const methodId = typeof method === "string" ? method : (method?.id ?? null);
      return customer && methodId ? { customerId: customer.id, paymentMethodId: methodId } : null;
    },
    async switchSubscription(input) {
      const opts = { stripeAccount: input.accountId };
      let itemId: string | null = null;
      if (input.subscriptionId) {
        try {
          itemId = (await stripe.subscriptions.retrieve(input.subscriptionId, {}, opts)).items.data[0]?.id ?? null;
        } catch (err) {
          if (isMissing(err)) return null;
          throw unavailableOr(err);
        }
        if (!itemId) return null;
      }
      const product = await stripe.products.create({ name: input.line.productName }, opts).catch(refusedOr);
      const item = { price_data: subscriptionItemPrice(input.line, product.id), quantity: input.line.quantity };
      // Charged now to the default payment method: a switch that cannot be paid fails instead of waiting.
      const common = {
        payment_behavior: "error_if_incomplete" as const,
        payment_settings: { save_default_payment_method: "on_subscription" as const },
        default_payment_method: input.paymentMethodId,
        metadata: input.metadata,
      };
      const sub = await (input.subscriptionId
        ? stripe.subscriptions.update(input.subscriptionId, { ...common, items: [{ id: itemId!, ...item }] }, opts)
        : stripe.subscriptions.create({ ...common, customer: input.customerId, items: [item] }, opts)
      ).catch(refusedOr);
      const ends = sub.items.data.map((i) => i.current_period_end).filter((v) => typeof v === "number");
      return { id: sub.id, status: sub.status, currentPeriodEnd: ends.length ? Math.max(...ends) * 1000 : null };
    },
    async findOrCreateCustomer({ accountId, projectId, customerType, customerId }) {
      const existing = await searchCustomer(accountId, customerType, customerId);
      return { id: (existing ?? (await createCustomerFor(accountId, projectId, customerType, customerId))).id };
    },
    async createSubscriptionPayment(input) {
      const opts = { stripeAccount: input.accountId };
      const product = await stripe.products.create({ name: input.line.productName }, opts).catch(refusedOr);
      const sub = await stripe.subscriptions
        .create(
          {
            customer: input.customerId,
            items: [{ price_data: subscriptionItemPrice(input.line, product.id), quantity: input.line.quantity }],
            // Incomplete until the page confirms the first invoice's payment; nothing is granted before (the webhook does).
            payment_behavior: "default_incomplete",
            payment_settings: { save_default_payment_method: "on_subscription" },
            expand: SUBSCRIPTION_EXPAND,
            metadata: elementsMetadataOf(input.metadata),
            ...(input.trialPeriodDays ? { trial_period_days: input.trialPeriodDays } : {}),
          },
          opts,
        )
        .catch(refusedOr);
      return subscriptionSecret(sub);
    },
    async updateSubscriptionPayment(input) {
      const opts = { stripeAccount: input.accountId };
      let current: Stripe.Subscription;
      try {
        current = await stripe.subscriptions.retrieve(input.subscriptionId, {}, opts);
      } catch (err) {
        if (isMissing(err)) return null;
        throw unavailableOr(err);
      }
      const item = current.items.data[0];
      if (!item) return null;
      const product = await stripe.products.create({ name: input.line.productName }, opts).catch(refusedOr);
      const sub = await stripe.subscriptions
        .update(
          input.subscriptionId,
          {
            items: [{ id: item.id, price_data: subscriptionItemPrice(input.line, product.id), quantity: input.line.quantity }],
            payment_behavior: "default_incomplete",
            payment_settings: { save_default_payment_method: "on_subscription" },
            expand: SUBSCRIPTION_EXPAND,
            metadata: elementsMetadataOf(input.metadata),
          },
          opts,
        )
        .catch(refusedOr);
      return subscriptionSecret(sub);
    },
    async createOneTimePayment(input) {
      const intent = await stripe.paymentIntents
        .create(
          {
            amount: input.line.unitAmount * input.line.quantity,
            currency: input.line.currency,
            customer: input.customerId,
            automatic_payment_methods: { enabled: true },
            metadata: elementsMetadataOf(input.metadata),
          },
          { stripeAccount: input.accountId },
        )
        .catch(refusedOr);
      if (!intent.client_secret) throw new Error(`Stripe answered payment intent ${intent.id} without a client secret`);
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async listMethodConfigs(accountId) {
      const list = await guard(stripe.paymentMethodConfigurations.list({ limit: 100 }, { stripeAccount: accountId }));
      return list.data.map((config) => toMethodConfig(config as unknown as Record<string, unknown>));
    },
    async updateMethodConfig({ accountId, configId, preferences }) {
      const changes = Object.fromEntries(Object.entries(preferences).map(([id, on]) => [id, { display_preference: { preference: on } }]));
      try {
        await stripe.paymentMethodConfigurations.update(configId, changes, { stripeAccount: accountId });
        return true;
      } catch (err) {
        if (isMissing(err)) return null;
        throw unavailableOr(err);
      }
    },
    verifyWebhook: verifyStripeWebhook,
  };
}

/**
 * Verifies a Stripe webhook (the Stripe-Signature header over the raw body, HMAC-SHA256 with the
 * endpoint secret, within the tolerance) and parses its event. Needs no API key.
 */
export async function verifyStripeWebhook(input: {
  payload: string;
  signature: string;
  secret: string;
  nowMs: number;
}): Promise<WebhookVerification> {
  let event: { id: string; type: string; account?: string | null; data: { object: unknown } };
  try {
    event = await Stripe.webhooks.constructEventAsync(
      input.payload,
      input.signature,
      input.secret,
      SIGNATURE_TOLERANCE_S,
      cryptoProvider,
      input.nowMs,
    );
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) return fail("stripe_signature_mismatch");
    // A signed body that is not an event (constructEvent parses after verifying).
    if (err instanceof SyntaxError) return fail("stripe_payload_invalid");
    throw err;
  }
  const object = event.data?.object;
  if (typeof event.id !== "string" || typeof event.type !== "string" || !object || typeof object !== "object")
    return fail("stripe_payload_invalid");
  const parsed: ProviderEvent = {
    id: event.id,
    type: event.type,
    account: typeof event.account === "string" ? event.account : null,
    object: object as Record<string, unknown>,
  };
  return { ok: true, event: parsed };
}

/** The provider of this worker's settings and bounds; null when no secret key is configured (test mode only). */
export function stripeProviderOf(config: Pick<Config, "stripe" | "outbound">): PaymentsProvider | null {
  const { secretKey, apiUrl } = config.stripe;
  return secretKey ? createStripeProvider({ secretKey, apiUrl, bounds: config.outbound.stripe }) : null;
}
