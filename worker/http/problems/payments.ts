/**
 * The wire errors of the payments problems (issue 15), as the reference answers them: the
 * catalogue's item, customer, product and Stripe errors, plain status errors where the reference
 * has no known error. A refused Stripe webhook delivery is a 400, so Stripe shows it and retries.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { StatusError } from "../../lib/errors";
import type { PaymentsProblemFields } from "../../services/payments/problems";
import type { ProblemMap } from "../../services/result";

export const STRIPE_NOT_CONFIGURED =
  "Stripe is not configured on this Doorman server (STRIPE_SECRET_KEY is unset), so live-mode payments are unavailable; projects can use test mode. See docs/payments.md.";

export const paymentsProblems = {
  item_not_found: (problem) => new KnownError("ITEM_NOT_FOUND", { item_id: problem.itemId }),
  item_customer_type_mismatch: (problem) =>
    new KnownError("ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", {
      item_id: problem.itemId,
      customer_id: problem.customerId,
      item_customer_type: problem.itemType,
      actual_customer_type: problem.actualType,
    }),
  customer_not_found: (problem) => new KnownError("CUSTOMER_DOES_NOT_EXIST", { customer_id: problem.customerId }),
  item_quantity_insufficient: (problem) =>
    new KnownError("ITEM_QUANTITY_INSUFFICIENT_AMOUNT", {
      item_id: problem.itemId,
      customer_id: problem.customerId,
      quantity: problem.quantity,
    }),
  item_quantity_busy: () => new StatusError(409, "The item is changing too often right now; try again."),
  client_customer_forbidden: () => new StatusError(403, "Clients can only access their own user or team items."),
  client_purchase_forbidden: () =>
    new StatusError(403, "Clients can only create purchase URLs for their own user or teams they have admin access to."),
  offer_not_found: (problem) => new KnownError("PRODUCT_DOES_NOT_EXIST", { product_id: problem.offerId, context: problem.context }),
  offer_choice_invalid: (problem) => new StatusError(400, problem.message),
  offer_customer_type_mismatch: (problem) =>
    new KnownError("PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", {
      product_id: problem.offerId,
      customer_id: problem.customerId,
      product_customer_type: problem.offerType,
      actual_customer_type: problem.actualType,
    }),
  offer_already_owned: (problem) =>
    new KnownError("PRODUCT_ALREADY_GRANTED", { product_id: problem.offerId, customer_id: problem.customerId }),
  add_on_without_base: (problem) =>
    new StatusError(400, `The offer "${problem.offerId}" is an add-on: the customer needs one of the offers it adds on to first.`),
  offer_not_for_sale: () => new StatusError(400, "This offer is included by default or has no prices; it cannot be bought."),
  price_not_found: () => new StatusError(400, "Price not found on product associated with this purchase code"),
  quantity_not_stackable: () => new StatusError(400, "This product is not stackable; quantity must be 1"),
  one_time_in_product_line: () => new StatusError(400, "Customer already has a one-time purchase in this product line"),
  new_purchases_blocked: () => new KnownError("NEW_PURCHASES_BLOCKED"),
  payments_not_set_up: () =>
    new StatusError(400, "Payments are not set up in this project. Connect a Stripe account on the Payments page of the console first."),
  client_cancel_forbidden: (problem) =>
    new StatusError(
      403,
      problem.customerType === "user"
        ? "Clients can only cancel their own subscriptions."
        : "Clients can only cancel user or team subscriptions they control.",
    ),
  product_not_owned: () => new StatusError(400, "Customer does not have this product."),
  one_time_not_cancelable: () => new StatusError(400, "This product is a one time purchase and cannot be canceled."),
  subscription_not_found: () => new StatusError(400, "No active subscription found with this ID for the given customer."),
  client_switch_forbidden: () => new StatusError(403, "Clients can only manage their own subscriptions."),
  switch_refused: (problem) => new StatusError(400, problem.message),
  default_payment_method_required: (problem) =>
    new KnownError("DEFAULT_PAYMENT_METHOD_REQUIRED", { customer_type: problem.customerType, customer_id: problem.customerId }),
  purchase_code_project_mismatch: () => new StatusError(400, "Project id does not match value from code data"),
  project_not_in_test_mode: () =>
    new StatusError(400, "This project is in live mode: purchases go through Stripe Checkout (purchase-session)."),
  test_mode_not_enabled: () => new StatusError(403, "Test mode is not enabled for this project"),
  test_mode_in_production: () => new KnownError("TEST_MODE_NOT_ALLOWED_IN_PRODUCTION"),
  test_card_declined: () => new StatusError(400, "Your card was declined. In test mode, use the test card 4242 4242 4242 4242."),
  // --- Stripe: the catalogue's code where it has one, otherwise a status error that says what to do ---
  stripe_not_configured: () => new StatusError(400, STRIPE_NOT_CONFIGURED),
  stripe_account_missing: () => new KnownError("STRIPE_ACCOUNT_INFO_NOT_FOUND"),
  stripe_account_project_not_found: () => new KnownError("STRIPE_ACCOUNT_INFO_NOT_FOUND"),
  stripe_checkout_in_test_mode: () =>
    new KnownError("SCHEMA_ERROR", {
      message: "This project is in test mode: pay with the test checkout (POST /payments/purchases/test-mode-purchase), not Stripe.",
    }),
  free_one_time_price: () =>
    new StatusError(400, "This price is free: Stripe Checkout cannot take a zero payment. Grant the offer from the server instead."),
  // Why: Stripe's own message may describe the seller's account; the customer gets a generic one (it is logged).
  stripe_refused: () => new StatusError(400, "The seller's Stripe account cannot take this payment right now. Try again later."),
  // Why 503/504 and not a 500: Stripe being down or slow is no bug of Doorman's, and the caller may simply retry.
  stripe_unavailable: (problem) =>
    problem.timedOut
      ? new StatusError(504, "Stripe did not answer in time (STRIPE_TIMEOUT_MS). Try again later.")
      : new StatusError(503, "Stripe could not be reached or failed to answer. Try again later."),
  payment_method_config_not_found: (problem) =>
    new StatusError(
      404,
      problem.configId
        ? `Payment method configuration "${problem.configId}" not found on the project's Stripe account.`
        : "The project's Stripe account has no payment method configuration.",
    ),
  client_billing_forbidden: () => new StatusError(403, "Clients can only manage their own billing."),
  invoice_cursor_invalid: () => new StatusError(400, "Invalid cursor"),
  transaction_cursor_invalid: () => new StatusError(400, "Invalid cursor"),
  refund_invalid: (problem) => new KnownError("SCHEMA_ERROR", { message: problem.message }),
  one_time_purchase_not_found: (problem) => new KnownError("ONE_TIME_PURCHASE_NOT_FOUND", { one_time_purchase_id: problem.id }),
  subscription_invoice_not_found: (problem) => new KnownError("SUBSCRIPTION_INVOICE_NOT_FOUND", { subscription_invoice_id: problem.id }),
  one_time_purchase_already_refunded: (problem) =>
    new KnownError("ONE_TIME_PURCHASE_ALREADY_REFUNDED", { one_time_purchase_id: problem.id }),
  subscription_already_refunded: (problem) => new KnownError("SUBSCRIPTION_ALREADY_REFUNDED", { subscription_id: problem.id }),
  test_mode_purchase_non_refundable: () => new KnownError("TEST_MODE_PURCHASE_NON_REFUNDABLE"),
  stripe_webhooks_not_configured: () =>
    new StatusError(400, "Stripe webhooks are not configured on this Doorman server (STRIPE_WEBHOOK_SECRET is unset)."),
  stripe_signature_mismatch: () => new StatusError(400, "The Stripe-Signature header does not match this payload."),
  stripe_payload_invalid: () => new StatusError(400, "The payload is not a Stripe event."),
  // As the reference: a 500 makes Stripe retry and mark the endpoint failing, so the owner sees events it should not be sent.
  stripe_event_type_unknown: (problem) => new StatusError(500, `Unknown stripe webhook type received: ${problem.type}`),
} satisfies ProblemMap<keyof PaymentsProblemFields>;
