/**
 * The wire errors of the Stripe routes (issue 15). Where the catalogue has a code it is used
 * (STRIPE_ACCOUNT_INFO_NOT_FOUND, the purchase-code errors); otherwise a plain status error that
 * says what to do. A worker without Stripe keys answers 400 naming the setting, never a 500.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { StatusError } from "../../lib/errors";
import type { StripeWebhookOutcome } from "../../services/payments/stripe-webhooks";

export const STRIPE_NOT_CONFIGURED =
  "Stripe is not configured on this Doorman server (STRIPE_SECRET_KEY is unset), so live-mode payments are unavailable; projects can use test mode. See docs/payments.md.";

export type StripeRouteProblem =
  | { ok: false; reason: "stripe_not_configured" | "no_stripe_account" | "project_not_found" | "no_account" }
  | { ok: false; reason: "test_mode" | "free_one_time_price" }
  | { ok: false; reason: "stripe_refused"; message: string };

export function stripeProblemError(problem: StripeRouteProblem): Error {
  switch (problem.reason) {
    case "stripe_not_configured":
      return new StatusError(400, STRIPE_NOT_CONFIGURED);
    case "no_stripe_account":
    case "no_account":
    case "project_not_found":
      return new KnownError("STRIPE_ACCOUNT_INFO_NOT_FOUND");
    case "test_mode":
      return new KnownError("SCHEMA_ERROR", {
        message: "This project is in test mode: pay with the test checkout (POST /payments/purchases/test-mode-purchase), not Stripe.",
      });
    case "free_one_time_price":
      return new StatusError(
        400,
        "This price is free: Stripe Checkout cannot take a zero payment. Grant the offer from the server instead.",
      );
    case "stripe_refused":
      // Why: Stripe's own message may describe the seller's account; the customer gets a generic one (it is logged).
      return new StatusError(400, "The seller's Stripe account cannot take this payment right now. Try again later.");
  }
}

/** A refused webhook delivery: 400, so Stripe shows the failure and retries. */
export function webhookProblemError(outcome: Extract<StripeWebhookOutcome, { ok: false }>): Error {
  switch (outcome.reason) {
    case "not_configured":
      return new StatusError(400, "Stripe webhooks are not configured on this Doorman server (STRIPE_WEBHOOK_SECRET is unset).");
    case "bad_signature":
      return new StatusError(400, "The Stripe-Signature header does not match this payload.");
    case "bad_payload":
      return new StatusError(400, "The payload is not a Stripe event.");
  }
}
