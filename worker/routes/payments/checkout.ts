/**
 * POST /payments/purchases/purchase-session (issue 15): live mode's checkout. The purchase page
 * sends the purchase code and a price; the answer is the Stripe Checkout URL to send the customer
 * to. Public, as the reference: the purchase code is the credential. In test mode it answers
 * SCHEMA_ERROR pointing at the test checkout.
 */
import { purchaseSessionBodySchema, purchaseSessionSchema } from "@doorman/shared/wire-payments";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { startStripeCheckout } from "../../services/payments/stripe-checkout";
import { stripeProviderOf } from "../../services/payments/stripe-client";

const purchaseSession = defineRoute({
  method: "post",
  path: "/purchases/purchase-session",
  summary: "Start a Stripe Checkout for a purchase code (live mode): answers the checkout URL",
  description:
    "The items are granted when Stripe reports the payment (the webhook), not here. A project in test mode answers SCHEMA_ERROR: use /payments/purchases/test-mode-purchase.",
  access: "public",
  body: purchaseSessionBodySchema,
  response: purchaseSessionSchema,
  errors: [
    "VERIFICATION_CODE_NOT_FOUND",
    "VERIFICATION_CODE_EXPIRED",
    "VERIFICATION_CODE_ALREADY_USED",
    "PRODUCT_ALREADY_GRANTED",
    "STRIPE_ACCOUNT_INFO_NOT_FOUND",
    "SCHEMA_ERROR",
  ],
});

export const paymentsCheckoutRoutes = routeGroup();
addRoute(paymentsCheckoutRoutes, purchaseSession, async (c, { body }) => {
  const deps = c.get("deps");
  const result = await startStripeCheckout(deps, stripeProviderOf(deps.config), {
    fullCode: body.full_code,
    priceId: body.price_id,
    quantity: body.quantity,
    // The purchase page is served on the API's public origin (as create-purchase-url builds it).
    webOrigin: deps.apiUrl,
  });
  const { url, clientSecret } = unwrap(result);
  return c.json({ url, client_secret: clientSecret });
});
