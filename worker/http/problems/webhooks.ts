/** The wire errors of the webhooks problems (the /webhooks endpoint routes). */
import { KnownError } from "@doorman/shared/known-errors";
import { StatusError } from "../../lib/errors";
import type { ProblemMap } from "../../services/result";
import type { WebhooksProblemFields } from "../../services/webhooks/problems";

export const webhooksProblems = {
  webhook_url_invalid: (problem) =>
    new KnownError("SCHEMA_ERROR", { message: `Request validation failed on body.url: ${problem.message}` }),
  webhook_endpoint_not_found: () => new StatusError(404, "Webhook endpoint not found."),
  webhook_secret_unreadable: () =>
    new StatusError(
      409,
      "The signing secret cannot be opened (the server secret changed since it was sealed); rotate it to get a new one.",
    ),
} satisfies ProblemMap<keyof WebhooksProblemFields>;
