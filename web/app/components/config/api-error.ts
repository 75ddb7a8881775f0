/**
 * The readable message of an error from a config change. Config rule errors (e.g. a production
 * check) come as a plain-text 400, which the SDK wraps as "Doorman API answered 400: …": the
 * owner should read only the rule.
 */
import { HttpError, RateLimitedError } from "@doorman/sdk";
import { errorMessage } from "../../lib/project-context";

export function configErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof HttpError && !(error instanceof RateLimitedError) && error.status < 500 && error.body.trim())
    return error.body.trim();
  return errorMessage(error, fallback);
}
