/**
 * The stripe package's errors in Doorman's words: Stripe down, slow (past STRIPE_TIMEOUT_MS), failing
 * or refusing the platform's key becomes ProviderUnavailableError (the services' `stripe_unavailable`,
 * a 503/504), and "no such object" is told apart so callers can answer "not found".
 */
import Stripe from "stripe";
import { OutboundTimeoutError } from "../../lib/outbound-fetch";
import { ProviderUnavailableError } from "./stripe-provider";

/** An error and what it wraps (the stripe package's `detail` and `exception`, `cause`), outermost first. */
function causes(err: unknown, depth = 0): Error[] {
  if (!(err instanceof Error) || depth > 4) return [];
  const inner = err as { detail?: unknown; exception?: unknown };
  return [err, ...causes(inner.detail, depth + 1), ...causes(inner.exception, depth + 1), ...causes(err.cause, depth + 1)];
}

/** Stripe down, slow, failing or refusing the platform's key, as ProviderUnavailableError; any other error as it was. */
export function unavailableOr(err: unknown): unknown {
  const { errors } = Stripe;
  if (err instanceof errors.StripeConnectionError) {
    const wrapped = causes(err);
    const timedOut = wrapped.some((e) => e instanceof OutboundTimeoutError || (e as { code?: unknown }).code === "ETIMEDOUT");
    const why = wrapped.find((e) => e instanceof OutboundTimeoutError)?.message ?? wrapped[1]?.message ?? err.message;
    return new ProviderUnavailableError(`Stripe: ${why}`, timedOut, err);
  }
  if (err instanceof errors.StripeAPIError || err instanceof errors.StripeRateLimitError || err instanceof errors.StripeAuthenticationError)
    return new ProviderUnavailableError(`Stripe: ${err.message}`, false, err);
  return err;
}

/** A Stripe call whose unavailability is a ProviderUnavailableError. */
export function guard<T>(call: Promise<T>): Promise<T> {
  return call.catch((err: unknown) => {
    throw unavailableOr(err);
  });
}

/** Stripe does not know the object (404, resource_missing). */
export const isMissing = (err: unknown) =>
  err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === "resource_missing");
