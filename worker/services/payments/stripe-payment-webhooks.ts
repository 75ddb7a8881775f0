/**
 * Webhook events of the payments that purchase-session starts (issue 27; the page confirms them with
 * Stripe Elements): a succeeded payment intent records a one-time purchase, a subscription that
 * becomes active (or trialing) records a subscription purchase. Only payments Doorman started carry
 * `payment_flow: "elements"` in their metadata; hosted Checkout's are recorded by its own event
 * (stripe-webhooks.ts), so no payment is recorded twice. Each purchase's external id is the payment
 * (the intent, or the subscription with the code it was bought with): a redelivery records nothing.
 */
import { customerTypeSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";
import { detachStripeSubscription, findPurchaseCode } from "../../db/queries/payments";
import { findProjectById } from "../../db/queries/projects";
import type { Deps } from "../deps";
import type { OfferConfig } from "./config";
import { completePurchase } from "./purchases";
import type { ProviderEvent } from "./stripe-provider";

/** What Doorman puts on a payment it starts (stripe-client.ts metadataOf): Checkout Sessions, and purchase-session's payments. */
export const paymentMetadataSchema = z.object({
  project_id: z.string().min(1),
  customer_type: customerTypeSchema,
  customer_id: z.string().min(1),
  offer_id: z.string(),
  price_id: z.string().min(1),
  quantity: z.string().regex(/^[1-9]\d{0,3}$/),
  purchase_code_hash: z.string().min(1),
});
type PaymentMetadata = z.infer<typeof paymentMetadataSchema>;

/** purchase-session's payments also carry payment_flow "elements" (Checkout's never do). */
const elementsMetadataSchema = paymentMetadataSchema.extend({ payment_flow: z.literal("elements") });

/**
 * The purchase code and project a payment's metadata names; null when the payment is not one of
 * Doorman's (`schema` does not match), or not from the project's own connected account.
 */
export async function purchaseOf(deps: Deps, event: ProviderEvent, schema: z.ZodType<PaymentMetadata>, what: "checkout" | "payment") {
  const meta = schema.safeParse(event.object.metadata);
  if (!meta.success) return null;
  const m = meta.data;
  const project = await findProjectById(deps.db, m.project_id);
  // Why: a connected account's owner can put any metadata on their own account's objects;
  // only events from the project's own connected account may grant in that project.
  if (!project?.stripeAccountId || project.stripeAccountId !== event.account) {
    console.warn(`stripe event ${event.id}: ${what} for project ${m.project_id} from account ${event.account ?? "(platform)"} ignored`);
    return null;
  }
  const code = await findPurchaseCode(deps.db, m.purchase_code_hash);
  if (!code || code.projectId !== project.id || code.customerType !== m.customer_type || code.customerId !== m.customer_id) {
    console.warn(`stripe event ${event.id}: ${what} without its purchase code ignored`);
    return null;
  }
  return { project, code, meta: m };
}

/** payment_intent.succeeded: a one-time payment of purchase-session becomes a purchase (once). */
export async function onPaymentIntentSucceeded(deps: Deps, event: ProviderEvent): Promise<boolean> {
  const intentId = typeof event.object.id === "string" ? event.object.id : null;
  if (!intentId || event.object.status !== "succeeded") return false;
  const found = await purchaseOf(deps, event, elementsMetadataSchema, "payment");
  if (!found) return false;
  const { project, code, meta } = found;
  const result = await completePurchase(deps, {
    project,
    customerType: meta.customer_type,
    customerId: meta.customer_id,
    offerId: code.offerId,
    // The offer as the customer saw it when the code was made: what they paid for.
    offer: code.offer as OfferConfig,
    priceId: meta.price_id,
    quantity: Number(meta.quantity),
    source: "stripe",
    externalId: intentId,
    stripePaymentIntentId: intentId,
  });
  if (!result.ok) console.error(`stripe event ${event.id}: paid intent ${intentId} not recorded (${result.reason})`);
  return result.ok && result.created;
}

/**
 * customer.subscription.created / updated: a subscription of purchase-session that is now active or
 * trialing becomes a purchase (once per code). A switch within a product line moved the same Stripe
 * subscription to the new offer: the new purchase takes the subscription over, the old one ended.
 */
export async function onSubscriptionStarted(deps: Deps, event: ProviderEvent): Promise<boolean> {
  const sub = event.object;
  const subscriptionId = typeof sub.id === "string" ? sub.id : null;
  if (!subscriptionId || (sub.status !== "active" && sub.status !== "trialing")) return false;
  const found = await purchaseOf(deps, event, elementsMetadataSchema, "payment");
  if (!found) return false;
  const { project, code, meta } = found;
  const result = await completePurchase(deps, {
    project,
    customerType: meta.customer_type,
    customerId: meta.customer_id,
    offerId: code.offerId,
    offer: code.offer as OfferConfig,
    priceId: meta.price_id,
    quantity: Number(meta.quantity),
    source: "stripe",
    externalId: `${subscriptionId}:${meta.purchase_code_hash}`,
    stripeSubscriptionId: subscriptionId,
  });
  if (!result.ok) {
    console.error(`stripe event ${event.id}: subscription ${subscriptionId} not recorded (${result.reason})`);
    return false;
  }
  // The replaced purchase (ended by completePurchase) no longer follows this subscription's events.
  if (result.created) await detachStripeSubscription(deps.db, project.id, subscriptionId, result.purchaseId);
  return result.created;
}
