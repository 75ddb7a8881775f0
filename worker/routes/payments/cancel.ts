/**
 * POST /payments/products/{customer_type}/{customer_id}/switch: switch a customer's plan within its
 * product line (services/payments/switch.ts).
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
import { switchSubscriptionProduct } from "../../services/payments/switch";

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

const switchProduct = defineRoute({
  method: "post",
  path: "/products/{customer_type}/{customer_id}/switch",
  summary: "Switch a customer's subscription to another product of its product line",
  description:
    "Charged at once to the customer's default payment method on the project's connected account (DEFAULT_PAYMENT_METHOD_REQUIRED without one). The Stripe subscription moves to the new product's price (its first recurring price, or `price_id`) and the purchase follows it; from the line's include-by-default product a Stripe subscription starts. Subscriptions Stripe does not bill (test mode, grants) cannot be switched. Clients switch their own user's and the teams they administer.",
  access: ["client", "server", "admin"],
  params: z.strictObject({ customer_type: z.enum(["user", "team"]), customer_id: z.string().min(1).max(256) }),
  body: z.strictObject({
    from_product_id: z.string().min(1).max(128),
    to_product_id: z.string().min(1).max(128),
    price_id: z.string().min(1).max(128).optional(),
    quantity: z.number().int().min(1).max(1000).optional(),
  }),
  response: z.object({ success: z.literal(true) }),
  errors: [
    "USER_AUTHENTICATION_REQUIRED",
    "TEAM_PERMISSION_REQUIRED",
    "USER_NOT_FOUND",
    "TEAM_NOT_FOUND",
    "NEW_PURCHASES_BLOCKED",
    "DEFAULT_PAYMENT_METHOD_REQUIRED",
  ],
});

export const paymentsCancelRoutes = routeGroup();

addRoute(paymentsCancelRoutes, switchProduct, async (c, { auth, params, body }) => {
  if (auth.type === "client" && !auth.user) throw new KnownError("USER_AUTHENTICATION_REQUIRED");
  const actor = auth.type === "client" ? { type: "client" as const, userId: auth.user!.user.id } : { type: "server" as const };
  const deps = c.get("deps");
  const result = await switchSubscriptionProduct(
    deps,
    stripeProviderOf(deps.config),
    auth.project,
    actor,
    { projectId: auth.project.id, customerType: params.customer_type, customerId: params.customer_id },
    { fromProductId: body.from_product_id, toProductId: body.to_product_id, priceId: body.price_id, quantity: body.quantity },
  );
  unwrap(result);
  return c.json({ success: true as const });
});
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
