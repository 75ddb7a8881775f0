/**
 * /internal/payments (admin, issue 15): the console's view of one customer (its items with
 * quantities, purchases and recent ledger changes), and the reference's test-mode purchase.
 */

import { customerTypeSchema, customerViewSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";
import { listLedgerChanges, listPurchasesOf } from "../../../db/queries/payments";
import { problemError, unwrap } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import { type Customer, customerSince, readPaymentsConfig } from "../../../services/payments/customers";
import { itemQuantity } from "../../../services/payments/quantities";
import { completeTestModePurchase } from "../../../services/payments/test-mode";
import { fail } from "../../../services/result";
import { ledgerChangeView, purchaseView } from "../../../views/payments";

const customer = defineRoute({
  method: "get",
  path: "/customers/{customer_type}/{customer_id}",
  summary: "A customer's items with quantities, purchases and recent quantity changes (Doorman extension)",
  access: ["admin"],
  params: z.strictObject({ customer_type: customerTypeSchema, customer_id: z.string().min(1).max(256) }),
  response: customerViewSchema,
  errors: ["CUSTOMER_DOES_NOT_EXIST"],
});
const testModeSession = defineRoute({
  method: "post",
  path: "/test-mode-purchase-session",
  summary: "Complete a purchase code's purchase in test mode (the reference's dashboard call)",
  access: ["admin"],
  body: z.strictObject({
    full_code: z.string().min(1).max(512),
    price_id: z.string().min(1).max(63),
    quantity: z.number().int().min(1).max(1000).optional(),
  }),
  response: z.object({ success: z.literal(true) }),
  errors: [
    "VERIFICATION_CODE_NOT_FOUND",
    "VERIFICATION_CODE_EXPIRED",
    "VERIFICATION_CODE_ALREADY_USED",
    "PRODUCT_ALREADY_GRANTED",
    "TEST_MODE_NOT_ALLOWED_IN_PRODUCTION",
    "NEW_PURCHASES_BLOCKED",
  ],
});

export const internalPaymentsRoutes = routeGroup();

addRoute(internalPaymentsRoutes, customer, async (c, { auth, params }) => {
  const deps = c.get("deps");
  const who: Customer = { projectId: auth.project.id, customerType: params.customer_type, customerId: params.customer_id };
  if ((await customerSince(deps, auth.project, who)) === null)
    throw problemError(fail("customer_not_found", { customerId: params.customer_id }));
  const payments = readPaymentsConfig(auth.project);
  const itemIds = Object.keys(payments.items).filter((id) => payments.items[id]!.customerType === params.customer_type);
  const [quantities, purchaseRows, changes] = await Promise.all([
    Promise.all(itemIds.map((id) => itemQuantity(deps, auth.project, who, { itemId: id, item: payments.items[id]!, payments }))),
    listPurchasesOf(deps.db, who),
    listLedgerChanges(deps.db, who, 50),
  ]);
  return c.json({
    customer_type: params.customer_type,
    customer_id: params.customer_id,
    items: itemIds.map((id, i) => ({ id, display_name: payments.items[id]!.displayName, quantity: quantities[i] ?? 0 })),
    purchases: purchaseRows.map((p) => purchaseView(p)),
    changes: changes.map(ledgerChangeView),
  });
});

addRoute(internalPaymentsRoutes, testModeSession, async (c, { auth, body }) => {
  const result = await completeTestModePurchase(c.get("deps"), {
    fullCode: body.full_code,
    priceId: body.price_id,
    quantity: body.quantity ?? 1,
    payer: { type: "admin", projectId: auth.project.id },
  });
  unwrap(result);
  return c.json({ success: true as const });
});
