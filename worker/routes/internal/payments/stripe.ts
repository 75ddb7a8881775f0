/**
 * The console's Stripe routes (issue 15, admin only): POST /internal/payments/setup starts
 * Connect onboarding (creating the project's connected account once) and answers Stripe's
 * onboarding URL; GET /internal/payments/stripe/account-info answers the account's state;
 * POST /internal/payments/stripe-widgets/account-session answers an embedded-components secret.
 */

import { accountSessionSchema, setupUrlSchema, stripeAccountInfoSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";
import { problemError, unwrap } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import { stripeProviderOf } from "../../../services/payments/stripe-client";
import { createStripeAccountSession, readStripeAccountInfo, startStripeOnboarding } from "../../../services/payments/stripe-connect";
import { fail } from "../../../services/result";

const setupBody = z.strictObject({
  /** Where Stripe sends the owner back after onboarding (the console's payments page). */
  return_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
});

const setup = defineRoute({
  method: "post",
  path: "/setup",
  summary: "Start Stripe Connect onboarding for the project: answers Stripe's onboarding URL",
  description:
    "Creates the project's connected Stripe account on first use (one per project), then a one-time onboarding link. `return_url` (optional) is where Stripe sends the owner back; by default the console's payments page on this origin.",
  access: ["admin"],
  body: setupBody,
  response: setupUrlSchema,
});
const accountInfo = defineRoute({
  method: "get",
  path: "/stripe/account-info",
  summary: "The project's connected Stripe account: charges, payouts and details state",
  access: ["admin"],
  response: stripeAccountInfoSchema,
  errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"],
});
const accountSession = defineRoute({
  method: "post",
  path: "/stripe-widgets/account-session",
  summary: "A client secret for Stripe's embedded components (the project's connected account)",
  access: ["admin"],
  response: accountSessionSchema,
  errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"],
});

export const internalPaymentsStripeRoutes = routeGroup();

addRoute(internalPaymentsStripeRoutes, setup, async (c, { auth, body }) => {
  const deps = c.get("deps");
  const provider = stripeProviderOf(deps.config);
  if (!provider) throw problemError(fail("stripe_not_configured"));
  // Only the project's admins reach this, and Stripe only redirects the owner there: any http(s) URL is theirs to choose.
  const returnUrl = body?.return_url ?? new URL(`/projects/${encodeURIComponent(auth.project.id)}/payments`, deps.apiUrl).toString();
  const result = unwrap(await startStripeOnboarding(deps, provider, { projectId: auth.project.id, returnUrl }));
  return c.json({ url: result.url });
});

addRoute(internalPaymentsStripeRoutes, accountInfo, async (c, { auth }) => {
  const deps = c.get("deps");
  const { account } = unwrap(await readStripeAccountInfo(deps, stripeProviderOf(deps.config), auth.project.id));
  return c.json({
    account_id: account.id,
    charges_enabled: account.chargesEnabled,
    details_submitted: account.detailsSubmitted,
    payouts_enabled: account.payoutsEnabled,
  });
});

addRoute(internalPaymentsStripeRoutes, accountSession, async (c, { auth }) => {
  const deps = c.get("deps");
  const provider = stripeProviderOf(deps.config);
  if (!provider) throw problemError(fail("stripe_not_configured"));
  const result = unwrap(await createStripeAccountSession(deps, provider, auth.project.id));
  return c.json({ client_secret: result.clientSecret });
});
