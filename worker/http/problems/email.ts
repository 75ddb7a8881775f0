/**
 * The wire errors of the email problems (themes, templates, drafts, render, send, outbox), as the
 * reference answers them: EMAIL_RENDERING_ERROR with the renderer's message, plain status errors elsewhere.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { StatusError } from "../../lib/errors";
import type { EmailProblemFields } from "../../services/email/problems";
import type { ProblemMap } from "../../services/result";

export const emailProblems = {
  render_error: (problem) => new KnownError("EMAIL_RENDERING_ERROR", { error: problem.error }),
  email_config_invalid: (problem) => new KnownError("SCHEMA_ERROR", { message: problem.message }),
  email_config_conflict: () => new StatusError(409, "The project's config changed while saving; try again."),
  theme_not_found: () => new StatusError(404, "No theme found with given id"),
  template_not_found: () => new StatusError(404, "No template found with given id"),
  draft_not_found: () => new StatusError(404, "No draft found with given id"),
  // What a render or send request names is bad input (400); a theme or template looked up by its own URL is not found (404).
  source_theme_not_found: () => new StatusError(400, "No theme found with given id"),
  source_template_not_found: () => new StatusError(400, "No template found with given id"),
  built_in_theme_undeletable: () => new StatusError(400, "Built-in email themes cannot be deleted."),
  active_theme_undeletable: () =>
    new StatusError(400, "Cannot delete the currently active email theme. Please select a different theme first."),
  requires_custom_email_server: () => new KnownError("REQUIRES_CUSTOM_EMAIL_SERVER"),
  email_category_not_found: () => new StatusError(400, "Notification category not found with given name"),
  outbox_email_not_found: () => new StatusError(404, "Email not found"),
  // The reference's status names are upper case with underscores (RENDER_ERROR).
  outbox_email_not_editable: (problem) =>
    new KnownError("EMAIL_NOT_EDITABLE", { email_id: problem.emailId, status: problem.status.toUpperCase().replace(/-/g, "_") }),
  outbox_request_invalid: (problem) => new KnownError("SCHEMA_ERROR", { message: problem.message }),
  template_rewrite_failed: (problem) => new KnownError("TEMPLATE_SOURCE_REWRITE_ERROR", { error: problem.error }),
  email_capacity_boost_active: (problem) => new KnownError("EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE", { expires_at: problem.expiresAt }),
  dev_inbox_unavailable: () => new StatusError(404, "The dev inbox exists in development only."),
  dev_inbox_message_not_found: (problem) =>
    new StatusError(404, `No message ${problem.emailId} in the dev inbox (it keeps a project's latest messages for one hour).`),
} satisfies ProblemMap<keyof EmailProblemFields>;
