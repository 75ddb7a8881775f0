/**
 * The wire errors of the payments routes (issue 15), as the reference answers them: the catalogue's
 * item, customer and product errors, plain status errors where the reference has no known error.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { StatusError } from "../../lib/errors";
import type { CodeProblem, CreateUrlProblem } from "../../services/payments/codes";
import type { PurchaseProblem } from "../../services/payments/purchases";

export type PaymentsProblem =
  | CreateUrlProblem
  | PurchaseProblem
  | CodeProblem
  | { ok: false; reason: "item_not_found"; itemId: string }
  | { ok: false; reason: "item_type_mismatch"; itemId: string; customerId: string; itemType: string; actualType: string }
  | { ok: false; reason: "insufficient"; itemId: string; customerId: string; quantity: number }
  | { ok: false; reason: "client_forbidden" }
  | { ok: false; reason: "not_test_mode" }
  | { ok: false; reason: "test_mode_in_production" }
  | { ok: false; reason: "card_declined" }
  | { ok: false; reason: "busy" };

export function paymentsProblemError(problem: PaymentsProblem): Error {
  switch (problem.reason) {
    case "item_not_found":
      return new KnownError("ITEM_NOT_FOUND", { item_id: problem.itemId });
    case "item_type_mismatch":
      return new KnownError("ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", {
        item_id: problem.itemId,
        customer_id: problem.customerId,
        item_customer_type: problem.itemType,
        actual_customer_type: problem.actualType,
      });
    case "customer_not_found":
      return new KnownError("CUSTOMER_DOES_NOT_EXIST", { customer_id: problem.customerId });
    case "insufficient":
      return new KnownError("ITEM_QUANTITY_INSUFFICIENT_AMOUNT", {
        item_id: problem.itemId,
        customer_id: problem.customerId,
        quantity: problem.quantity,
      });
    case "offer_not_found":
      return new KnownError("PRODUCT_DOES_NOT_EXIST", { product_id: problem.offerId, context: problem.context });
    case "offer_choice":
      return new KnownError("SCHEMA_ERROR", { message: problem.message });
    case "customer_type_mismatch":
      return new KnownError("PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", {
        product_id: problem.offerId,
        customer_id: problem.customerId,
        product_customer_type: problem.offerType,
        actual_customer_type: problem.actualType,
      });
    case "already_owned":
      return new KnownError("PRODUCT_ALREADY_GRANTED", { product_id: problem.offerId, customer_id: problem.customerId });
    case "add_on_without_base":
      return new StatusError(400, `The offer "${problem.offerId}" is an add-on: the customer needs one of the offers it adds on to first.`);
    case "not_for_sale":
      return new StatusError(400, "This offer is included by default or has no prices; it cannot be bought.");
    case "price_not_found":
      return new StatusError(400, `Price "${problem.priceId}" not found on the offer of this purchase code.`);
    case "untrusted_url":
      return new KnownError("REDIRECT_URL_NOT_WHITELISTED");
    case "code_not_found":
      return new KnownError("VERIFICATION_CODE_NOT_FOUND");
    case "code_expired":
      return new KnownError("VERIFICATION_CODE_EXPIRED");
    case "code_used":
      return new KnownError("VERIFICATION_CODE_ALREADY_USED");
    case "client_forbidden":
      return new StatusError(403, "Clients can only access their own user or team items.");
    case "not_test_mode":
      return new StatusError(400, "This project is in live mode: purchases go through Stripe Checkout (purchase-session).");
    case "test_mode_in_production":
      return new KnownError("TEST_MODE_NOT_ALLOWED_IN_PRODUCTION");
    case "card_declined":
      return new StatusError(400, "Your card was declined. In test mode, use the test card 4242 4242 4242 4242.");
    case "busy":
      return new StatusError(409, "The item is changing too often right now; try again.");
  }
}
