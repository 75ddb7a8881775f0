/**
 * The webhooks feature's problem reasons, each with the fields its wire error reads: a slice of
 * ProblemFields (services/result.ts), mapped by `webhooksProblems` in worker/http/problems/webhooks.ts.
 */

type NoFields = Record<never, never>;

export type WebhooksProblemFields = {
  /** An endpoint URL the checks of services/webhooks/urls.ts refuse, with their message. */
  webhook_url_invalid: { message: string };
  webhook_endpoint_not_found: NoFields;
  /** The sealed signing secret cannot be opened (sealed under a retired server secret): rotate it. */
  webhook_secret_unreadable: NoFields;
};
