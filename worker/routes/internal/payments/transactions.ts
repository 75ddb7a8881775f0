/**
 * /internal/payments/transactions (admin): the project's payments ledger as the reference's
 * transactions (purchases, manual quantity changes, renewals; newest first, cursor-paged) and
 * refunds of purchases paid through Stripe.
 */
import { moneyAmountSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";
import { unwrap } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import { refundTransaction } from "../../../services/payments/refunds";
import { stripeProviderOf } from "../../../services/payments/stripe-client";
import { listTransactions, TRANSACTION_TYPES } from "../../../services/payments/transactions";

const list = defineRoute({
  method: "get",
  path: "/transactions",
  summary: "The project's payments transactions, newest first (purchases, manual item quantity changes, renewals)",
  access: ["admin"],
  query: z.strictObject({
    cursor: z.string().max(2048).optional(),
    limit: z.string().max(12).optional(),
    type: z.enum(TRANSACTION_TYPES).optional(),
    customer_type: z.enum(["user", "team", "custom"]).optional(),
  }),
  response: z.object({ transactions: z.array(z.record(z.string(), z.unknown())), next_cursor: z.string().nullable() }),
});

const refund = defineRoute({
  method: "post",
  path: "/transactions/refund",
  summary: "Refund a purchase paid through Stripe (money back, and what it granted taken back)",
  access: ["admin"],
  body: z.strictObject({
    type: z.enum(["subscription", "one-time-purchase"]),
    id: z.string().min(1).max(256),
    refund_entries: z
      .array(
        z.strictObject({
          entry_index: z.number().int(),
          quantity: z.number().int(),
          amount_usd: moneyAmountSchema,
        }),
      )
      .max(100),
  }),
  response: z.object({ success: z.literal(true) }),
  errors: [
    "SCHEMA_ERROR",
    "ONE_TIME_PURCHASE_NOT_FOUND",
    "SUBSCRIPTION_INVOICE_NOT_FOUND",
    "ONE_TIME_PURCHASE_ALREADY_REFUNDED",
    "SUBSCRIPTION_ALREADY_REFUNDED",
    "TEST_MODE_PURCHASE_NON_REFUNDABLE",
    "STRIPE_ACCOUNT_INFO_NOT_FOUND",
  ],
});

export const internalTransactionsRoutes = routeGroup();

addRoute(internalTransactionsRoutes, list, async (c, { auth, query }) => {
  // As the reference: 50 by default, 1 to 200, and a limit that is not a number is the default.
  const parsed = Number.parseInt(query.limit ?? "50", 10);
  const limit = Math.max(1, Math.min(200, Number.isFinite(parsed) ? parsed : 50));
  const result = unwrap(
    await listTransactions(c.get("deps"), auth.project.id, {
      limit,
      cursor: query.cursor,
      type: query.type,
      customerType: query.customer_type,
    }),
  );
  return c.json({ transactions: result.transactions, next_cursor: result.nextCursor });
});

addRoute(internalTransactionsRoutes, refund, async (c, { auth, body }) => {
  const deps = c.get("deps");
  unwrap(
    await refundTransaction(deps, stripeProviderOf(deps.config), auth.project, {
      type: body.type,
      id: body.id,
      entries: body.refund_entries.map((e) => ({ entryIndex: e.entry_index, quantity: e.quantity, amountUsd: e.amount_usd })),
    }),
  );
  return c.json({ success: true as const });
});
