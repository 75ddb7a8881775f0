/**
 * A customer's billing (the reference's wire): GET /payments/billing/{customer_type}/{customer_id}
 * (does Stripe know the customer, and its default card), POST
 * /payments/payment-method/{customer_type}/{customer_id}/setup-intent (a SetupIntent to save a card
 * on the project's connected account) and GET /payments/invoices/{customer_type}/{customer_id}.
 * Clients reach their own user's billing and that of the teams they administer.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { type BillingActor, createSetupIntent, listCustomerInvoices, readBilling } from "../../services/payments/billing";
import { stripeProviderOf } from "../../services/payments/stripe-client";
import type { RequestAuth } from "../../services/request-auth";

// As the reference: billing is a user's or a team's (custom customers have none).
const params = z.strictObject({ customer_type: z.enum(["user", "team"]), customer_id: z.string().min(1).max(256) });
const access = ["client", "server", "admin"] as const;

const billing = defineRoute({
  method: "get",
  path: "/billing/{customer_type}/{customer_id}",
  summary: "Whether Stripe knows the customer, and its default card",
  access: [...access],
  params,
  response: z.object({
    has_customer: z.boolean(),
    default_payment_method: z
      .object({
        id: z.string(),
        brand: z.string().nullable(),
        last4: z.string().nullable(),
        exp_month: z.number().nullable(),
        exp_year: z.number().nullable(),
      })
      .nullable(),
  }),
  errors: ["USER_AUTHENTICATION_REQUIRED", "TEAM_PERMISSION_REQUIRED"],
});

const setupIntent = defineRoute({
  method: "post",
  path: "/payment-method/{customer_type}/{customer_id}/setup-intent",
  summary: "A Stripe SetupIntent to save the customer's card on the project's connected account",
  access: [...access],
  params,
  body: z.strictObject({}),
  response: z.object({ client_secret: z.string(), stripe_account_id: z.string() }),
  errors: ["USER_AUTHENTICATION_REQUIRED", "TEAM_PERMISSION_REQUIRED", "STRIPE_ACCOUNT_INFO_NOT_FOUND"],
});

const invoices = defineRoute({
  method: "get",
  path: "/invoices/{customer_type}/{customer_id}",
  summary: "The customer's subscription invoices, newest first",
  access: [...access],
  params,
  query: z.strictObject({ cursor: z.string().max(256).optional(), limit: z.coerce.number().int().min(1).max(100).optional() }),
  response: z.object({
    items: z.array(
      z.object({
        created_at_millis: z.number(),
        status: z.string().nullable(),
        amount_total: z.number(),
        hosted_invoice_url: z.string().nullable(),
      }),
    ),
    is_paginated: z.literal(true),
    pagination: z.object({ next_cursor: z.string().nullable() }),
  }),
  errors: ["USER_AUTHENTICATION_REQUIRED", "TEAM_PERMISSION_REQUIRED"],
});

function actorOf(auth: RequestAuth): BillingActor {
  if (auth.type !== "client") return { type: "server" };
  if (!auth.user) throw new KnownError("USER_AUTHENTICATION_REQUIRED");
  return { type: "client", userId: auth.user.user.id };
}

export const paymentsBillingRoutes = routeGroup();

addRoute(paymentsBillingRoutes, billing, async (c, { auth, params }) => {
  const deps = c.get("deps");
  const who = { projectId: auth.project.id, customerType: params.customer_type, customerId: params.customer_id };
  const status = unwrap(await readBilling(deps, stripeProviderOf(deps.config), auth.project, actorOf(auth), who));
  return c.json({ has_customer: status.hasCustomer, default_payment_method: status.defaultPaymentMethod });
});

addRoute(paymentsBillingRoutes, setupIntent, async (c, { auth, params }) => {
  const deps = c.get("deps");
  const who = { projectId: auth.project.id, customerType: params.customer_type, customerId: params.customer_id };
  const intent = unwrap(await createSetupIntent(deps, stripeProviderOf(deps.config), auth.project, actorOf(auth), who));
  return c.json({ client_secret: intent.clientSecret, stripe_account_id: intent.accountId });
});

addRoute(paymentsBillingRoutes, invoices, async (c, { auth, params, query }) => {
  const who = { projectId: auth.project.id, customerType: params.customer_type, customerId: params.customer_id };
  const page = unwrap(await listCustomerInvoices(c.get("deps"), actorOf(auth), who, { limit: query.limit ?? 10, cursor: query.cursor }));
  return c.json({ items: page.items, is_paginated: true as const, pagination: { next_cursor: page.nextCursor } });
});
