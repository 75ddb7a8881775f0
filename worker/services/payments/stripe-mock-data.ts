/**
 * The reference suite's Stripe mock convention: a webhook event's object may carry
 * `stack_stripe_mock_data`, the answers its backend's mock Stripe gives to the calls the event leads
 * to (`customers.retrieve`, `subscriptions.list`). Doorman honours it only against a development
 * Stripe mock (STRIPE_API_URL, which a production worker refuses to start with), and only for events
 * whose signature it verified; everything else goes to the provider as usual.
 */
import type { Deps } from "../deps";
import type { PaymentsProvider } from "./stripe-provider";

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);

/** `provider` answering from the event's mock data where it has an answer (development mock only). */
export function withEventMockData(deps: Deps, provider: PaymentsProvider | null, object: Obj): PaymentsProvider | null {
  // Why development only: in production Stripe's real answers are the only truth; an event's own fields never replace them.
  if (!deps.config.stripe.apiUrl || deps.config.environment === "production") return provider;
  const mock = asObj(object.stack_stripe_mock_data);
  if (!mock || !provider) return provider;
  const customer = asObj(mock["customers.retrieve"]);
  const subscriptions = asObj(mock["subscriptions.list"]);
  return {
    ...provider,
    readCustomer: customer
      ? async () => ({ metadata: Object.fromEntries(Object.entries(asObj(customer.metadata) ?? {}).map(([k, v]) => [k, String(v)])) })
      : provider.readCustomer,
    listSubscriptions:
      subscriptions && Array.isArray(subscriptions.data)
        ? async () => (subscriptions.data as unknown[]).map(asObj).filter((s): s is Obj => s !== null)
        : provider.listSubscriptions,
  };
}
