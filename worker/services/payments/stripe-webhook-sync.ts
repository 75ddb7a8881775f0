/**
 * Stripe events about payments made outside Doorman's own Checkout Sessions, in the reference's
 * shapes (its purchase page charges through PaymentIntents and subscriptions whose metadata names
 * the product): a paid one-time payment intent becomes a purchase, a customer's subscriptions are
 * synced into purchases, and each invoice is kept for the transactions list and the customer's
 * invoices. Every change is scoped to the project that owns the event's connected account.
 */
import { customerTypeSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";
import { findPurchaseBySubscription, upsertStripeInvoice } from "../../db/queries/payment-ledger";
import { updatePurchaseWhere } from "../../db/queries/payments";
import { findProjectById, type ProjectRow } from "../../db/queries/projects";
import { findProjectIdByStripeAccount } from "../../db/queries/stripe";
import type { Deps } from "../deps";
import { type OfferConfig, offerConfigSchema } from "./config";
import { completePurchase } from "./purchases";
import { asObj, idOf, listData, num, type Obj, subscriptionPatchOf, subscriptionPeriodEnd } from "./stripe-objects";
import type { PaymentsProvider, ProviderEvent } from "./stripe-provider";

/** The project of the event's connected account; null for the platform's own events or an account no project has. */
export async function projectOfEvent(deps: Deps, event: ProviderEvent): Promise<ProjectRow | null> {
  if (!event.account) return null;
  const projectId = await findProjectIdByStripeAccount(deps.db, event.account);
  return projectId ? findProjectById(deps.db, projectId) : null;
}

/** The customer Stripe's metadata names ("USER" or "user"), or null. */
export function customerOf(
  metadata: Record<string, unknown> | null,
): { customerType: "user" | "team" | "custom"; customerId: string } | null {
  const type = customerTypeSchema.safeParse(typeof metadata?.customerType === "string" ? metadata.customerType.toLowerCase() : null);
  const id = metadata?.customerId;
  return type.success && typeof id === "string" && id.length > 0 && id.length <= 256 ? { customerType: type.data, customerId: id } : null;
}

/** The product a payment's metadata carries (a JSON snapshot of the product as sold), or null. */
function productOf(metadata: Obj): OfferConfig | null {
  if (typeof metadata.product !== "string") return null;
  try {
    const parsed = offerConfigSchema.safeParse(JSON.parse(metadata.product));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const quantitySchema = z.coerce.number().int().min(1).max(10_000);

export type OneTimePayment = {
  project: ProjectRow;
  customer: { customerType: "user" | "team" | "custom"; customerId: string };
  product: OfferConfig;
  quantity: number;
  purchaseId: string;
};

/**
 * payment_intent.succeeded of a one-time purchase (metadata purchaseKind ONE_TIME): the purchase,
 * once per payment intent (a redelivery finds it). Null when it is not such a payment, or not this
 * project's (Why: only the project's own connected account may grant in the project).
 */
export async function onOneTimePaymentSucceeded(deps: Deps, event: ProviderEvent): Promise<(OneTimePayment & { created: boolean }) | null> {
  const intent = event.object;
  const metadata = asObj(intent.metadata) ?? {};
  const paymentIntentId = idOf(intent.id);
  if (metadata.purchaseKind !== "ONE_TIME" || !paymentIntentId) return null;
  const project = await projectOfEvent(deps, event);
  const customer = customerOf(metadata);
  const product = productOf(metadata);
  const quantity = quantitySchema.safeParse(metadata.purchaseQuantity ?? 1);
  if (!project || !customer || !product || !quantity.success) {
    console.warn(`stripe event ${event.id}: one-time payment ${paymentIntentId} without a project, customer or product ignored`);
    return null;
  }
  const priceId = typeof metadata.priceId === "string" && metadata.priceId ? metadata.priceId : null;
  const result = await completePurchase(deps, {
    project,
    ...customer,
    offerId: typeof metadata.productId === "string" && metadata.productId ? metadata.productId : null,
    offer: product,
    priceId: priceId && product.prices !== "include-by-default" && product.prices[priceId] ? priceId : null,
    quantity: quantity.data,
    source: "stripe",
    externalId: paymentIntentId,
    stripePaymentIntentId: paymentIntentId,
  });
  if (!result.ok) {
    console.error(`stripe event ${event.id}: payment ${paymentIntentId} not recorded (${result.reason})`);
    return null;
  }
  return { project, customer, product, quantity: quantity.data, purchaseId: result.purchaseId, created: result.created };
}

/** One Stripe subscription (with the reference's product metadata) as a purchase: created once, then kept in step. */
async function syncSubscription(
  deps: Deps,
  project: ProjectRow,
  customer: { customerType: "user" | "team" | "custom"; customerId: string },
  sub: Obj,
): Promise<boolean> {
  const id = idOf(sub.id);
  const metadata = asObj(sub.metadata) ?? {};
  const product = productOf(metadata);
  const patch = subscriptionPatchOf(sub, deps.now());
  if (!id || !product || !patch) return false;
  const existing = await findPurchaseBySubscription(deps.db, project.id, id);
  if (!existing) {
    const priceId = typeof metadata.priceId === "string" && metadata.priceId ? metadata.priceId : null;
    const quantity = quantitySchema.safeParse(listData(sub.items)[0]?.quantity ?? 1);
    const created = await completePurchase(deps, {
      project,
      ...customer,
      offerId: typeof metadata.productId === "string" && metadata.productId ? metadata.productId : null,
      offer: product,
      priceId: priceId && product.prices !== "include-by-default" && product.prices[priceId] ? priceId : null,
      quantity: quantity.success ? quantity.data : 1,
      source: "stripe",
      externalId: id,
      stripeSubscriptionId: id,
      currentPeriodEnd: subscriptionPeriodEnd(sub),
    });
    if (!created.ok) {
      console.error(`stripe subscription ${id}: not recorded (${created.reason})`);
      return false;
    }
  }
  return (await updatePurchaseWhere(deps.db, { projectId: project.id, stripeSubscriptionId: id }, patch)) > 0;
}

/** The Stripe customer's Doorman customer, from its metadata; null when Stripe does not name one. */
async function stripeCustomerOf(provider: PaymentsProvider, accountId: string, stripeCustomerId: string) {
  const stripeCustomer = await provider.readCustomer({ accountId, customerId: stripeCustomerId });
  return customerOf(stripeCustomer?.metadata ?? null);
}

/** The subscription an invoice bills: current API versions name it per line or under parent, older ones at the top. */
function invoiceSubscriptionId(invoice: Obj): string | null {
  const line = listData(invoice.lines)[0];
  return (
    idOf(asObj(asObj(line?.parent)?.subscription_item_details)?.subscription) ??
    idOf(asObj(asObj(invoice.parent)?.subscription_details)?.subscription) ??
    idOf(invoice.subscription)
  );
}

const PAID_EVENTS = new Set(["invoice.paid", "invoice.payment_succeeded"]);

/**
 * Events about a customer's subscriptions or invoices: syncs the customer's subscriptions from
 * Stripe into purchases and keeps the invoice. Answers the project and customer it touched (for the
 * emails), or null when the event is not about a customer Doorman knows.
 */
export async function syncCustomerFromEvent(deps: Deps, provider: PaymentsProvider | null, event: ProviderEvent) {
  const stripeCustomerId = idOf(event.object.customer);
  if (!provider || !event.account || !stripeCustomerId) return null;
  const project = await projectOfEvent(deps, event);
  if (!project) return null;
  const customer = await stripeCustomerOf(provider, event.account, stripeCustomerId);
  if (!customer) return null;
  for (const sub of await provider.listSubscriptions({ accountId: event.account, customerId: stripeCustomerId }))
    await syncSubscription(deps, project, customer, sub);
  if (event.type.startsWith("invoice.")) {
    const invoice = event.object;
    const id = idOf(invoice.id);
    if (id) {
      const created = num(invoice.created);
      await upsertStripeInvoice(deps.db, {
        projectId: project.id,
        id,
        ...customer,
        stripeSubscriptionId: invoiceSubscriptionId(invoice),
        isCreation: invoice.billing_reason === "subscription_create",
        status: typeof invoice.status === "string" ? invoice.status : PAID_EVENTS.has(event.type) ? "paid" : null,
        amountTotal: num(invoice.total) ?? num(invoice.amount_due),
        currency: typeof invoice.currency === "string" ? invoice.currency : null,
        hostedInvoiceUrl: typeof invoice.hosted_invoice_url === "string" ? invoice.hosted_invoice_url : null,
        createdAt: created !== null ? created * 1000 : deps.now(),
      });
    }
  }
  return { project, customer };
}
