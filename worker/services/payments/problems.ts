/**
 * The payments feature's problem reasons (items, offers, purchases, Stripe), each with the fields
 * its wire error reads: a slice of ProblemFields (services/result.ts). Their wire errors are
 * `paymentsProblems` in worker/http/problems/payments.ts; a reason added here without one there
 * fails the typecheck.
 */

type NoFields = Record<never, never>;

export type PaymentsProblemFields = {
  // --- items and customers ---
  item_not_found: { itemId: string };
  item_customer_type_mismatch: { itemId: string; customerId: string; itemType: string; actualType: string };
  customer_not_found: { customerId: string };
  item_quantity_insufficient: { itemId: string; customerId: string; quantity: number };
  /** A decrease lost to concurrent changes too many times in a row. */
  item_quantity_busy: NoFields;
  /** A client reading or buying for a customer that is not its own user or one of its teams. */
  client_customer_forbidden: NoFields;
  /** A client creating a purchase URL for a customer that is not its own user or one of its teams. */
  client_purchase_forbidden: NoFields;
  // --- offers and purchases ---
  offer_not_found: { offerId: string; context: "server_only" | null };
  offer_choice_invalid: { message: string };
  offer_customer_type_mismatch: { offerId: string | null; customerId: string; offerType: string; actualType: string };
  offer_already_owned: { offerId: string; customerId: string };
  add_on_without_base: { offerId: string };
  offer_not_for_sale: { offerId: string | null };
  price_not_found: { priceId: string };
  /** A quantity other than 1 of an offer that is not stackable. */
  quantity_not_stackable: NoFields;
  /** The customer owns a one-time purchase in the offer's product line (it cannot be replaced, unlike a subscription). */
  one_time_in_product_line: NoFields;
  /** payments.blockNewPurchases is on. */
  new_purchases_blocked: NoFields;
  /** Stripe is configured but the project has no connected account (live purchases need one). */
  payments_not_set_up: NoFields;
  // --- canceling a subscription product ---
  /** A client canceling another user's, or a custom customer's, subscriptions. */
  client_cancel_forbidden: { customerType: "user" | "custom" };
  product_not_owned: NoFields;
  one_time_not_cancelable: NoFields;
  /** subscription_id names no active subscription of this customer. */
  subscription_not_found: NoFields;
  // --- switching plans ---
  /** A client switching another user's, or a custom customer's, plan. */
  client_switch_forbidden: NoFields;
  /** A plan switch the products or the customer's purchases do not allow (the reference's plain 400s). */
  switch_refused: { message: string };
  /** The customer has no Stripe customer with a default payment method to charge a switch to. */
  default_payment_method_required: { customerType: string; customerId: string };
  // --- the test checkout ---
  /** The console completes only its own project's purchase codes. */
  purchase_code_project_mismatch: NoFields;
  project_not_in_test_mode: NoFields;
  /** The console's test purchase in a project that is not in test mode. */
  test_mode_not_enabled: NoFields;
  test_mode_in_production: NoFields;
  test_card_declined: NoFields;
  // --- Stripe ---
  stripe_not_configured: NoFields;
  /** The project has no connected Stripe account (or Stripe no longer knows it). */
  stripe_account_missing: NoFields;
  stripe_account_project_not_found: NoFields;
  stripe_checkout_in_test_mode: NoFields;
  free_one_time_price: NoFields;
  stripe_refused: { message: string };
  /** Stripe could not be reached, failed, or did not answer within STRIPE_TIMEOUT_MS. */
  stripe_unavailable: { timedOut: boolean };
  /** The connected account has no payment method configuration (or not the one named). */
  payment_method_config_not_found: { configId: string | null };
  // --- Stripe webhook deliveries ---
  stripe_webhooks_not_configured: NoFields;
  stripe_signature_mismatch: NoFields;
  stripe_payload_invalid: NoFields;
  // --- billing ---
  /** A client asked for billing that is not its own user's (or a custom customer's). */
  client_billing_forbidden: NoFields;
  invoice_cursor_invalid: NoFields;
  // --- the ledger: transactions and refunds ---
  transaction_cursor_invalid: NoFields;
  /** A refund the purchase cannot take (the reference's SCHEMA_ERROR messages). */
  refund_invalid: { message: string };
  one_time_purchase_not_found: { id: string };
  subscription_invoice_not_found: { id: string };
  one_time_purchase_already_refunded: { id: string };
  subscription_already_refunded: { id: string };
  test_mode_purchase_non_refundable: NoFields;
  /** A signed event of a type the endpoint does not take. */
  stripe_event_type_unknown: { type: string };
};
