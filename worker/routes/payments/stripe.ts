/**
 * Stripe's side of payments (issue 15): the webhook endpoint Stripe calls
 * (POST /integrations/stripe/webhooks: public, verified by its Stripe-Signature header over the
 * raw body) and the embedded components' account session (POST /stripe-widgets/account-session).
 */

import { accountSessionSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";
import { problemError, unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { stripeProviderOf } from "../../services/payments/stripe-client";
import { createStripeAccountSession } from "../../services/payments/stripe-connect";
import { handleStripeWebhook } from "../../services/payments/stripe-webhooks";
import { fail } from "../../services/result";

/** Stripe's events are at most a few hundred KB; anything far larger is not one. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

const webhook = defineRoute({
  method: "post",
  path: "/webhooks",
  summary: "Stripe's webhook endpoint (Connect events): paid checkouts, renewals, cancellations and refunds",
  description:
    "Called by Stripe, not by apps. The Stripe-Signature header must sign the raw body with STRIPE_WEBHOOK_SECRET. Idempotent per event id: a redelivered event changes nothing.",
  access: "public",
  response: [
    z.object({ received: z.literal(true) }),
    { status: 400, description: "Not configured, a bad signature, or not a Stripe event", schema: z.string(), contentType: "text/plain" },
    {
      status: 500,
      description: "A signed event of a type the endpoint does not take (Stripe retries it)",
      schema: z.string(),
      contentType: "text/plain",
    },
  ],
});

const accountSession = defineRoute({
  method: "post",
  path: "/account-session",
  summary: "A client secret for Stripe's embedded components (the project's connected account)",
  access: ["admin"],
  response: accountSessionSchema,
  errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"],
});

export const stripeWebhookRoutes = routeGroup();
addRoute(stripeWebhookRoutes, webhook, async (c) => {
  const deps = c.get("deps");
  // The signature covers the exact bytes Stripe sent: read the raw body, never a re-serialised one.
  const payload = await c.req.text();
  if (payload.length > MAX_WEBHOOK_BYTES) throw problemError(fail("stripe_payload_invalid"));
  const outcome = await handleStripeWebhook(deps, stripeProviderOf(deps.config), {
    payload,
    signature: c.req.header("stripe-signature") ?? null,
  });
  unwrap(outcome);
  return c.json({ received: true as const });
});

export const stripeWidgetsRoutes = routeGroup();
addRoute(stripeWidgetsRoutes, accountSession, async (c, { auth }) => {
  const deps = c.get("deps");
  const provider = stripeProviderOf(deps.config);
  if (!provider) throw problemError(fail("stripe_not_configured"));
  const result = unwrap(await createStripeAccountSession(deps, provider, auth.project.id));
  return c.json({ client_secret: result.clientSecret });
});
