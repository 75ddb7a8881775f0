/**
 * A customer's billing on the project's connected Stripe account (the reference's
 * `/payments/billing`, `/payments/payment-method/…/setup-intent` and `/payments/invoices`): whether
 * Stripe knows the customer and its default card, a SetupIntent to save a card, and the invoices of
 * its subscriptions. Clients see their own user's billing and that of the teams they administer.
 */
import { findStripeInvoice, listInvoicesOf, type StripeInvoiceRow } from "../../db/queries/payment-ledger";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { hasTeamPermission } from "../permissions";
import { fail, type Problem } from "../result";
import type { Customer } from "./customers";
import { askProvider, type PaymentsProvider, type ProviderCard } from "./stripe-provider";

/** A client acts for its signed-in user; a server or admin for anyone. */
export type BillingActor = { type: "client"; userId: string } | { type: "server" };
export type BillingProblem = Problem<"client_billing_forbidden" | "team_permission_required">;

/** May this caller see the customer's billing? Its own user's, and a team's it administers (as the reference). */
async function mayManageBilling(deps: Deps, actor: BillingActor, c: Customer): Promise<BillingProblem | null> {
  if (actor.type !== "client") return null;
  if (c.customerType === "user") return c.customerId === actor.userId ? null : fail("client_billing_forbidden");
  if (c.customerType === "custom") return fail("client_billing_forbidden");
  // Billing is the team's admins' business: a plain member may not see or change the team's card.
  if (await hasTeamPermission(deps, c.projectId, c.customerId, actor.userId, "team_admin")) return null;
  return fail("team_permission_required", { teamId: c.customerId, userId: actor.userId, permissionId: "team_admin" });
}

export type BillingStatus = { hasCustomer: boolean; defaultPaymentMethod: ProviderCard | null };

export async function readBilling(
  deps: Deps,
  provider: PaymentsProvider | null,
  project: ProjectRow,
  actor: BillingActor,
  c: Customer,
): Promise<({ ok: true } & BillingStatus) | BillingProblem | Problem<"stripe_unavailable">> {
  const refused = await mayManageBilling(deps, actor, c);
  if (refused) return refused;
  const accountId = project.stripeAccountId;
  // No connected account (or no Stripe on this server): Stripe knows no customer of the project.
  if (!accountId || !provider) return { ok: true, hasCustomer: false, defaultPaymentMethod: null };
  const found = await askProvider(() => provider.findCustomer({ accountId, customerType: c.customerType, customerId: c.customerId }));
  if (!found.ok) return found;
  if (!found.value) return { ok: true, hasCustomer: false, defaultPaymentMethod: null };
  return { ok: true, hasCustomer: true, defaultPaymentMethod: found.value.defaultCard };
}

export async function createSetupIntent(
  deps: Deps,
  provider: PaymentsProvider | null,
  project: ProjectRow,
  actor: BillingActor,
  c: Customer,
): Promise<
  | { ok: true; clientSecret: string; accountId: string }
  | BillingProblem
  | Problem<"stripe_not_configured" | "stripe_account_missing" | "stripe_unavailable">
> {
  const refused = await mayManageBilling(deps, actor, c);
  if (refused) return refused;
  if (!provider) return fail("stripe_not_configured");
  const accountId = project.stripeAccountId;
  if (!accountId) return fail("stripe_account_missing");
  const who = { accountId, customerType: c.customerType, customerId: c.customerId };
  const intent = await askProvider(async () => {
    const customer =
      (await provider.findCustomer(who)) ??
      // One Stripe customer per Doorman customer, even when two first setups race (the provider keys the creation by it).
      (await provider.createCustomer({ ...who, projectId: project.id }));
    return provider.createSetupIntent({ accountId, stripeCustomerId: customer.id });
  });
  if (!intent.ok) return intent;
  return { ok: true, clientSecret: intent.value.clientSecret, accountId };
}

export type InvoiceView = { created_at_millis: number; status: string | null; amount_total: number; hosted_invoice_url: string | null };
const INVOICE_STATUSES = new Set(["draft", "open", "paid", "uncollectible", "void"]);

const invoiceView = (i: StripeInvoiceRow): InvoiceView => ({
  created_at_millis: i.createdAt,
  status: i.status && INVOICE_STATUSES.has(i.status) ? i.status : null,
  amount_total: i.amountTotal ?? 0,
  hosted_invoice_url: i.hostedInvoiceUrl,
});

/** The customer's invoices, newest first; `cursor` is the last invoice id of the page before. */
export async function listCustomerInvoices(
  deps: Deps,
  actor: BillingActor,
  c: Customer,
  page: { limit: number; cursor?: string },
): Promise<{ ok: true; items: InvoiceView[]; nextCursor: string | null } | BillingProblem | Problem<"invoice_cursor_invalid">> {
  const refused = await mayManageBilling(deps, actor, c);
  if (refused) return refused;
  let before: { createdAt: number; id: string } | undefined;
  if (page.cursor) {
    const pivot = await findStripeInvoice(deps.db, c.projectId, page.cursor);
    if (!pivot || pivot.customerType !== c.customerType || pivot.customerId !== c.customerId) return fail("invoice_cursor_invalid");
    before = { createdAt: pivot.createdAt, id: pivot.id };
  }
  const rows = await listInvoicesOf(deps.db, c, page.limit, before);
  const last = rows[rows.length - 1];
  return { ok: true, items: rows.map(invoiceView), nextCursor: rows.length === page.limit && last ? last.id : null };
}
