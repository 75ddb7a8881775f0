/**
 * The payment emails of Stripe's webhooks, as the reference sends them: a receipt for a paid
 * one-time purchase, and "payment failed" when Stripe gives up on a subscription's invoice
 * (uncollectible). They go to the customer's people: a user, or a team's admins (custom customers
 * have no inbox). Each is an outbox row (rendered and sent by the consumer).
 */
import type { EmailOutboxRecipient } from "@doorman/shared/wire-email-outbox";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { queueBuiltInEmail } from "../email/outbox";
import type { TemplateKind, TemplateVars } from "../email/templates";
import { listTeamPermissions } from "../permissions";
import { asObj, listData, num, type Obj } from "./stripe-objects";

type PaymentCustomer = { customerType: "user" | "team" | "custom"; customerId: string };

/** "USD 5.00" from Stripe's minor units and currency, as the reference formats it. */
export function formatStripeAmount(amount: unknown, currency: unknown): string {
  const cents = num(amount);
  if (cents === null) return "Amount unavailable";
  const value = (cents / 100).toFixed(2);
  return typeof currency === "string" && currency ? `${currency.toUpperCase()} ${value}` : value;
}

async function recipientsOf(deps: Deps, projectId: string, c: PaymentCustomer): Promise<EmailOutboxRecipient[]> {
  if (c.customerType === "user") return [{ type: "user-primary-email", user_id: c.customerId }];
  if (c.customerType === "custom") return [];
  const admins = await listTeamPermissions(deps, projectId, { teamId: c.customerId, permissionId: "team_admin", recursive: true });
  return [...new Set(admins.map((a) => a.user_id))].map((userId) => ({ type: "user-primary-email", user_id: userId }));
}

async function sendToCustomer(deps: Deps, project: ProjectRow, c: PaymentCustomer, kind: TemplateKind, vars: TemplateVars) {
  for (const recipient of await recipientsOf(deps, project.id, c)) await queueBuiltInEmail(deps, project, kind, recipient, vars, null); // Stripe's request: the project's default locale
}

/** The receipt of a paid one-time purchase (payment_intent.succeeded), sent once per purchase. */
export async function sendReceiptEmail(
  deps: Deps,
  payment: { project: ProjectRow; customer: PaymentCustomer; product: { displayName: string }; quantity: number },
  intent: Obj,
): Promise<void> {
  const receiptLink = listData(intent.charges)[0]?.receipt_url;
  await sendToCustomer(deps, payment.project, payment.customer, "payment_receipt", {
    productName: payment.product.displayName,
    quantity: payment.quantity,
    amount: formatStripeAmount(intent.amount_received, intent.currency),
    ...(typeof receiptLink === "string" && receiptLink ? { receiptLink } : {}),
  });
}

/** invoice.payment_failed: only once Stripe gave up collecting it (uncollectible), as the reference. */
export async function sendPaymentFailedEmail(
  deps: Deps,
  synced: { project: ProjectRow; customer: PaymentCustomer },
  invoice: Obj,
): Promise<void> {
  if (invoice.status !== "uncollectible") return;
  const line = listData(invoice.lines)[0];
  const description = typeof line?.description === "string" && line.description ? line.description : "Subscription";
  const invoiceUrl = invoice.hosted_invoice_url;
  const failure = asObj(invoice.last_finalization_error)?.message;
  await sendToCustomer(deps, synced.project, synced.customer, "payment_failed", {
    productName: description,
    amount: formatStripeAmount(invoice.amount_due, invoice.currency),
    ...(typeof invoiceUrl === "string" && invoiceUrl ? { invoiceUrl } : {}),
    ...(typeof failure === "string" && failure ? { failureReason: failure } : {}),
  });
}
