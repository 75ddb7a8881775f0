/**
 * The email feature's problem reasons (themes, templates, drafts, rendering, sending, the outbox),
 * each with the fields its wire error reads: a slice of ProblemFields (services/result.ts). Their
 * wire errors are `emailProblems` in worker/http/problems/email.ts; a reason added here without
 * one there fails the typecheck.
 */

type NoFields = Record<never, never>;

export type EmailProblemFields = {
  /** The template or theme did not render (or rendered without a subject or notification category). */
  render_error: { error: string; line?: number };
  email_config_invalid: { message: string };
  email_config_conflict: NoFields;
  theme_not_found: NoFields;
  template_not_found: NoFields;
  draft_not_found: NoFields;
  built_in_theme_undeletable: NoFields;
  active_theme_undeletable: NoFields;
  requires_custom_email_server: NoFields;
  /** A send names a notification category that does not exist. */
  email_category_not_found: NoFields;
  /** A render or send request names a theme or template that does not exist (400, as the reference; a library route answers 404). */
  source_theme_not_found: NoFields;
  source_template_not_found: NoFields;
  outbox_email_not_found: NoFields;
  outbox_email_not_editable: { emailId: string; status: string };
  /** A list cursor or a change the outbox cannot take. */
  outbox_request_invalid: { message: string };
  /** A capacity boost is already running, until `expiresAt` (ISO). */
  email_capacity_boost_active: { expiresAt: string };
  /** A template could not be turned into a standalone draft (or the result does not render). */
  template_rewrite_failed: { error: string };
  /** The dev inbox exists in development only (a production worker answers 404, as for a route it lacks). */
  dev_inbox_unavailable: NoFields;
  dev_inbox_message_not_found: { emailId: string };
};
