/**
 * Stripe webhook events (issue 15) turned into purchases: a paid checkout grants the offer, a
 * renewal moves the subscription's period on, a cancellation or end changes its status, a full
 * refund revokes it. Grants are computed from purchases, so each of these is one purchase update.
 * Events in the reference's shapes (one-time PaymentIntents, a customer's subscriptions and
 * invoices) are handled in stripe-webhook-sync.ts, their emails in stripe-webhook-emails.ts. A type
 * the endpoint does not take is a 500 (as the reference), not recorded, so Stripe retries and shows it.
 *
 * Idempotent per event id: the event is recorded first (stripe_events) and a redelivered id
 * changes nothing; if handling fails, the record is dropped so Stripe's retry handles it again.
 */

import { spendCodeStatement, updatePurchaseWhere } from "../../db/queries/payments";
import { forgetStripeEvent, recordStripeEvent } from "../../db/queries/stripe";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import type { OfferConfig } from "./config";
import { completePurchase, refundPurchaseByPaymentIntent, updateSubscriptionByStripeId } from "./purchases";
import { verifyStripeWebhook } from "./stripe-client";
import { withEventMockData } from "./stripe-mock-data";
import { asObj, idOf, listData, num, subscriptionPatchOf, subscriptionPeriodEnd } from "./stripe-objects";
import { onPaymentIntentSucceeded, onSubscriptionStarted, paymentMetadataSchema, purchaseOf } from "./stripe-payment-webhooks";
import type { PaymentsProvider, ProviderEvent } from "./stripe-provider";
import { sendPaymentFailedEmail, sendReceiptEmail } from "./stripe-webhook-emails";
import { onOneTimePaymentSucceeded, projectOfEvent, syncCustomerFromEvent } from "./stripe-webhook-sync";

export { subscriptionPatchOf } from "./stripe-objects";

export type StripeWebhookOutcome =
  | { ok: true; duplicate: boolean; handled: boolean }
  | Problem<"stripe_webhooks_not_configured" | "stripe_signature_mismatch" | "stripe_payload_invalid" | "stripe_event_type_unknown">;

/** The events about a customer's subscriptions and invoices: each syncs the customer's subscriptions (as the reference). */
const CUSTOMER_SYNC_EVENTS = new Set([
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "customer.subscription.paused",
  "customer.subscription.resumed",
  "customer.subscription.pending_update_applied",
  "customer.subscription.pending_update_expired",
  "customer.subscription.trial_will_end",
  "invoice.created",
  "invoice.finalized",
  "invoice.updated",
  "invoice.voided",
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "invoice.upcoming",
  "invoice.marked_uncollectible",
  "invoice.payment_succeeded",
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.canceled",
]);

/** Every event type the endpoint takes; another type is refused with a 500 so Stripe shows the endpoint as failing (as the reference). */
const KNOWN_EVENTS = new Set([
  ...CUSTOMER_SYNC_EVENTS,
  "checkout.session.async_payment_succeeded",
  "charge.refunded",
  "charge.dispute.created",
  // Received but need nothing (as the reference).
  "account.updated",
  "account.application.authorized",
  "capability.updated",
  "charge.failed",
  "balance.available",
  "customer.updated",
]);

/** checkout.session.completed / async_payment_succeeded: the paid checkout becomes a purchase (once). */
async function onCheckoutPaid(deps: Deps, provider: PaymentsProvider | null, event: ProviderEvent): Promise<boolean> {
  const session = event.object;
  // "no_payment_required": a subscription starting with a free trial.
  if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required") return false;
  // A checkout Doorman did not create (the connected account's own sales), or another account's: not ours to grant.
  const found = await purchaseOf(deps, event, paymentMetadataSchema, "checkout");
  if (!found) return false;
  const { project, code, meta: m } = found;
  const sessionId = typeof session.id === "string" ? session.id : null;
  if (!sessionId) return false;
  const subscriptionId = idOf(session.subscription);
  const subscription =
    subscriptionId && provider
      ? await provider.readSubscription({ accountId: event.account!, subscriptionId }).catch(logNull(event))
      : null;
  const result = await completePurchase(deps, {
    project,
    customerType: m.customer_type,
    customerId: m.customer_id,
    offerId: code.offerId,
    // The offer as the customer saw it when the code was made: what they paid for.
    offer: code.offer as OfferConfig,
    priceId: m.price_id,
    quantity: Number(m.quantity),
    source: "stripe",
    externalId: sessionId,
    stripeSubscriptionId: subscriptionId,
    stripePaymentIntentId: idOf(session.payment_intent),
    currentPeriodEnd: subscription ? subscriptionPeriodEnd(subscription) : null,
  });
  if (!result.ok) {
    console.error(`stripe event ${event.id}: paid checkout ${sessionId} not recorded (${result.reason})`);
    return false;
  }
  if (result.created) {
    // The code buys once; it was not spent when the checkout began (an abandoned checkout may be retried).
    await spendCodeStatement(deps.db, code.codeHash, result.purchaseId, deps.now()).run();
    const patch = subscription ? subscriptionPatchOf(subscription, deps.now()) : null;
    if (subscriptionId && patch) await updateSubscriptionByStripeId(deps, subscriptionId, patch);
  }
  return result.created;
}

const logNull = (event: ProviderEvent) => (err: unknown) => {
  console.warn(`stripe event ${event.id}: subscription read failed; the period comes from the price`, err);
  return null;
};

/** invoice.paid / invoice.payment_succeeded of a renewal: the subscription runs until the new period's end. */
async function onInvoicePaid(deps: Deps, event: ProviderEvent): Promise<boolean> {
  const invoice = event.object;
  if (invoice.billing_reason !== "subscription_cycle") return false;
  const parent = asObj(asObj(invoice.parent)?.subscription_details);
  // Current API versions name the subscription under parent.subscription_details; older ones at the top.
  const subscriptionId = idOf(parent?.subscription) ?? idOf(invoice.subscription);
  if (!subscriptionId) return false;
  const ends = listData(invoice.lines)
    .map((line) => num(asObj(line.period)?.end))
    .filter((v): v is number => v !== null);
  if (!ends.length) return false;
  // Only the renewal's facts: a cancellation scheduled meanwhile (cancel_at_period_end) stays as it is.
  const changed = await updatePurchaseWhere(
    deps.db,
    { stripeSubscriptionId: subscriptionId },
    { status: "active", currentPeriodEnd: Math.max(...ends) * 1000, endedAt: null },
  );
  return changed > 0;
}

async function onSubscriptionChanged(deps: Deps, event: ProviderEvent): Promise<boolean> {
  const sub = event.object;
  const id = idOf(sub.id);
  const patch = subscriptionPatchOf(sub, deps.now());
  if (!id || !patch) return false;
  return updateSubscriptionByStripeId(deps, id, patch);
}

/** charge.refunded: a fully refunded payment revokes its purchase; a partial refund keeps the items. */
async function onChargeRefunded(deps: Deps, event: ProviderEvent): Promise<boolean> {
  const charge = event.object;
  if (charge.refunded !== true) return false;
  const paymentIntentId = idOf(charge.payment_intent);
  return paymentIntentId ? refundPurchaseByPaymentIntent(deps, paymentIntentId) : false;
}

/** charge.dispute.created: logged for the operator (the reference posts it to its team's chat). */
async function onDispute(deps: Deps, event: ProviderEvent): Promise<boolean> {
  const project = await projectOfEvent(deps, event);
  const d = event.object;
  console.warn(
    `stripe chargeback: project ${project?.id ?? "(unknown)"} account ${event.account ?? "(platform)"} event ${event.id} dispute ${idOf(d.id) ?? "?"} ` +
      `amount ${num(d.amount) ?? "?"} ${typeof d.currency === "string" ? d.currency : ""} reason ${String(d.reason ?? "?")} charge ${idOf(d.charge) ?? "?"}`,
  );
  return project !== null;
}

async function dispatch(deps: Deps, provider: PaymentsProvider | null, event: ProviderEvent): Promise<boolean> {
  let handled = false;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      handled = await onCheckoutPaid(deps, provider, event);
      break;
    case "invoice.paid":
    case "invoice.payment_succeeded":
      handled = await onInvoicePaid(deps, event);
      break;
    // A subscription purchase-session started becomes a purchase first; then its state applies as to any.
    case "customer.subscription.created":
    case "customer.subscription.updated": {
      const started = await onSubscriptionStarted(deps, event);
      handled = (await onSubscriptionChanged(deps, event)) || started;
      break;
    }
    case "customer.subscription.deleted":
      handled = await onSubscriptionChanged(deps, event);
      break;
    case "charge.refunded":
      return onChargeRefunded(deps, event);
    case "charge.dispute.created":
      return onDispute(deps, event);
    case "payment_intent.succeeded": {
      // A payment Doorman's purchase-session started (metadata payment_flow "elements"), else the reference's one-time shape.
      if (await onPaymentIntentSucceeded(deps, event)) return true;
      const payment = await onOneTimePaymentSucceeded(deps, event);
      // Once per purchase: a redelivered payment finds the purchase and sends nothing again.
      if (payment?.created) await sendReceiptEmail(deps, payment, event.object);
      if (payment) return true;
      break;
    }
  }
  if (!CUSTOMER_SYNC_EVENTS.has(event.type)) return handled;
  const synced = await syncCustomerFromEvent(deps, withEventMockData(deps, provider, event.object), event);
  if (synced && event.type === "invoice.payment_failed") await sendPaymentFailedEmail(deps, synced, event.object);
  return handled || synced !== null;
}

/**
 * Verifies and handles one webhook delivery. `provider` (null without a secret key) reads a new
 * subscription's period; the signature check needs only the webhook secret.
 */
export async function handleStripeWebhook(
  deps: Deps,
  provider: PaymentsProvider | null,
  input: { payload: string; signature: string | null },
): Promise<StripeWebhookOutcome> {
  const secret = deps.config.stripe.webhookSecret;
  if (!secret) return fail("stripe_webhooks_not_configured");
  if (!input.signature) return fail("stripe_signature_mismatch");
  const verified = await verifyStripeWebhook({ payload: input.payload, signature: input.signature, secret, nowMs: deps.now() });
  if (!verified.ok) return verified;
  const { event } = verified;
  if (!KNOWN_EVENTS.has(event.type)) return fail("stripe_event_type_unknown", { type: event.type.slice(0, 128) });
  const projectId = asObj(event.object.metadata)?.project_id;
  const fresh = await recordStripeEvent(deps.db, {
    eventId: event.id,
    projectId: typeof projectId === "string" ? projectId.slice(0, 256) : null,
    type: event.type.slice(0, 128),
    receivedAt: deps.now(),
  });
  if (!fresh) return { ok: true, duplicate: true, handled: false };
  try {
    return { ok: true, duplicate: false, handled: await dispatch(deps, provider, event) };
  } catch (err) {
    await forgetStripeEvent(deps.db, event.id);
    throw err;
  }
}
