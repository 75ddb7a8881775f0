/**
 * Live-mode payments of a purchase code (issue 15, issue 27). Public, as the reference: the purchase
 * code is the credential.
 * - POST /payments/purchases/purchase-session (the reference's wire): a subscription or payment
 *   intent on the project's connected account; answers its client secret for Stripe Elements.
 * - POST /payments/purchases/checkout-session (Doorman extension, what Doorman's purchase page uses):
 *   a hosted Stripe Checkout; answers its URL.
 * Either way the items are granted when Stripe reports the payment (the webhook), not here.
 */
import { checkoutSessionSchema, purchaseSessionBodySchema, purchaseSessionSchema } from "@doorman/shared/wire-payments";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { startPurchaseSession } from "../../services/payments/purchase-session";
import { startStripeCheckout } from "../../services/payments/stripe-checkout";
import { stripeProviderOf } from "../../services/payments/stripe-client";

const purchaseSession = defineRoute({
  method: "post",
  path: "/purchases/purchase-session",
  summary: "Start the payment of a purchase code: answers the client secret Stripe Elements confirms",
  description:
    "A recurring price starts an incomplete subscription, a one-time price a payment intent, on the project's connected account; switching within a product line moves the customer's Stripe subscription to the new price. The code is spent. Test mode does not matter here (the console's test purchase is /internal/payments/test-mode-purchase-session).",
  access: "public",
  body: purchaseSessionBodySchema,
  response: purchaseSessionSchema,
  errors: [
    "VERIFICATION_CODE_NOT_FOUND",
    "VERIFICATION_CODE_EXPIRED",
    "VERIFICATION_CODE_ALREADY_USED",
    "PRODUCT_ALREADY_GRANTED",
    "NEW_PURCHASES_BLOCKED",
  ],
});

const checkoutSession = defineRoute({
  method: "post",
  path: "/purchases/checkout-session",
  summary: "Start a hosted Stripe Checkout for a purchase code (live mode; Doorman extension): answers the checkout URL",
  description:
    "What Doorman's purchase page uses. A project in test mode answers SCHEMA_ERROR: use /payments/purchases/test-mode-purchase.",
  access: "public",
  body: purchaseSessionBodySchema,
  response: checkoutSessionSchema,
  errors: [
    "VERIFICATION_CODE_NOT_FOUND",
    "VERIFICATION_CODE_EXPIRED",
    "VERIFICATION_CODE_ALREADY_USED",
    "PRODUCT_ALREADY_GRANTED",
    "STRIPE_ACCOUNT_INFO_NOT_FOUND",
    "NEW_PURCHASES_BLOCKED",
    "SCHEMA_ERROR",
  ],
});

export const paymentsCheckoutRoutes = routeGroup();
addRoute(paymentsCheckoutRoutes, purchaseSession, async (c, { body }) => {
  const deps = c.get("deps");
  const result = await startPurchaseSession(deps, stripeProviderOf(deps.config), {
    fullCode: body.full_code,
    priceId: body.price_id,
    quantity: body.quantity ?? 1,
  });
  return c.json({ client_secret: unwrap(result).clientSecret });
});
addRoute(paymentsCheckoutRoutes, checkoutSession, async (c, { body }) => {
  const deps = c.get("deps");
  const result = await startStripeCheckout(deps, stripeProviderOf(deps.config), {
    fullCode: body.full_code,
    priceId: body.price_id,
    quantity: body.quantity,
    // The purchase page is served on the web app's origin (as create-purchase-url builds it).
    webOrigin: deps.config.webAppUrl ?? deps.apiUrl,
  });
  const { url, clientSecret } = unwrap(result);
  return c.json({ url, client_secret: clientSecret });
});
