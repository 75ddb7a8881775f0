/**
 * DELETE /payments/products/{customer_type}/{customer_id}/{product_id}: cancel a customer's
 * subscription product, as the reference. Clients cancel their own user's and the teams they
 * administer; servers anyone's. A subscription Stripe bills is canceled at Stripe. `?subscription_id=` names one subscription (inline offers).
 */
import { KnownError } from "@doorman/shared/known-errors";
import { customerTypeSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { cancelSubscriptionProduct } from "../../services/payments/cancel";
import { stripeProviderOf } from "../../services/payments/stripe-client";

const cancelProduct = defineRoute({
  method: "delete",
  path: "/products/{customer_type}/{customer_id}/{product_id}",
  summary: "Cancel a customer's subscription product",
  description:
    "Every active subscription of the product is canceled (all stackable quantities); each stays owned until its current period ends. A one-time purchase cannot be canceled (400). With `subscription_id` (a purchase id; inline offers have no product id, pass any product_id such as `_inline`) only that subscription is canceled.",
  access: ["client", "server", "admin"],
  params: z.strictObject({
    customer_type: customerTypeSchema,
    customer_id: z.string().min(1).max(256),
    product_id: z.string().min(1).max(128),
  }),
  query: z.strictObject({ subscription_id: z.string().min(1).max(128).optional() }),
  response: z.object({ success: z.literal(true) }),
  errors: [
    "USER_AUTHENTICATION_REQUIRED",
    "TEAM_PERMISSION_REQUIRED",
    "CUSTOMER_DOES_NOT_EXIST",
    "PRODUCT_DOES_NOT_EXIST",
    "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
    "STRIPE_ACCOUNT_INFO_NOT_FOUND",
    "SCHEMA_ERROR",
  ],
});

export const paymentsCancelRoutes = routeGroup();
addRoute(paymentsCancelRoutes, cancelProduct, async (c, { auth, params, query }) => {
  if (auth.type === "client" && !auth.user) throw new KnownError("USER_AUTHENTICATION_REQUIRED");
  const actor = auth.type === "client" ? { type: "client" as const, userId: auth.user!.user.id } : { type: "server" as const };
  const deps = c.get("deps");
  const result = await cancelSubscriptionProduct(
    deps,
    stripeProviderOf(deps.config),
    auth.project,
    actor,
    { projectId: auth.project.id, customerType: params.customer_type, customerId: params.customer_id },
    { productId: params.product_id, subscriptionId: query.subscription_id },
  );
  unwrap(result);
  return c.json({ success: true as const });
});
