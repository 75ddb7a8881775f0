/**
 * The console's payment methods (admin only, as the reference): GET /internal/payments/method-configs
 * answers which methods the project's checkouts offer (the connected Stripe account's payment method
 * configuration); PATCH turns methods on or off.
 */

import { paymentMethodConfigSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";
import { unwrap } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import { PAYMENT_METHOD_IDS, readPaymentMethods, updatePaymentMethods } from "../../../services/payments/payment-methods";
import { stripeProviderOf } from "../../../services/payments/stripe-client";

const read = defineRoute({
  method: "get",
  path: "/method-configs",
  summary: "The payment methods the project's checkouts offer (its connected Stripe account's configuration)",
  access: ["admin"],
  response: paymentMethodConfigSchema,
  errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"],
});
const update = defineRoute({
  method: "patch",
  path: "/method-configs",
  summary: "Turn payment methods of the connected Stripe account's configuration on or off",
  description:
    "`updates` maps a payment method id to `on` or `off`; methods it does not name keep their state. An empty `updates` changes nothing.",
  access: ["admin"],
  body: z.strictObject({
    config_id: z.string().min(1).max(255),
    updates: z.partialRecord(z.enum(PAYMENT_METHOD_IDS), z.enum(["on", "off"])),
  }),
  response: z.object({ success: z.literal(true) }),
  errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"],
});

export const internalPaymentMethodsRoutes = routeGroup();

addRoute(internalPaymentMethodsRoutes, read, async (c, { auth }) => {
  const deps = c.get("deps");
  const result = unwrap(await readPaymentMethods(deps, stripeProviderOf(deps.config), auth.project.id));
  return c.json({
    config_id: result.configId,
    methods: result.methods.map(({ id, name, enabled, available, overridable }) => ({ id, name, enabled, available, overridable })),
  });
});

addRoute(internalPaymentMethodsRoutes, update, async (c, { auth, body }) => {
  const deps = c.get("deps");
  unwrap(
    await updatePaymentMethods(deps, stripeProviderOf(deps.config), {
      projectId: auth.project.id,
      configId: body.config_id,
      preferences: body.updates,
    }),
  );
  return c.json({ success: true as const });
});
