/**
 * The wire errors of the email routes (themes, templates, drafts, render, send), as the reference
 * answers them: EMAIL_RENDERING_ERROR with the renderer's message, plain status errors elsewhere.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { StatusError } from "../../../lib/errors";

export type EmailProblem =
  | { ok: false; reason: "render_error"; error: string; line?: number }
  | { ok: false; reason: "invalid"; message: string }
  | { ok: false; reason: "user_not_found"; userId: string }
  | { ok: false; reason: "not_editable"; emailId: string; status: string }
  | {
      ok: false;
      reason:
        | "conflict"
        | "theme_not_found"
        | "template_not_found"
        | "draft_not_found"
        | "built_in_theme"
        | "active_theme"
        | "requires_custom_email_server"
        | "category_not_found"
        | "outbox_email_not_found"
        | "too_large";
    };

export function emailProblemError(problem: EmailProblem): Error {
  switch (problem.reason) {
    case "render_error":
      return new KnownError("EMAIL_RENDERING_ERROR", { error: problem.error });
    case "invalid":
      return new KnownError("SCHEMA_ERROR", { message: problem.message });
    case "user_not_found":
      return new KnownError("USER_ID_DOES_NOT_EXIST", { user_id: problem.userId });
    case "not_editable":
      // The reference's status names are upper case with underscores (RENDER_ERROR).
      return new KnownError("EMAIL_NOT_EDITABLE", { email_id: problem.emailId, status: problem.status.toUpperCase().replace(/-/g, "_") });
    case "outbox_email_not_found":
      return new StatusError(404, "Email not found");
    case "conflict":
      return new StatusError(409, "The project's config changed while saving; try again.");
    case "theme_not_found":
      return new StatusError(404, "No theme found with given id");
    case "template_not_found":
      return new StatusError(404, "No template found with given id");
    case "draft_not_found":
      return new StatusError(404, "No draft found with given id");
    case "built_in_theme":
      return new StatusError(400, "Built-in email themes cannot be deleted.");
    case "active_theme":
      return new StatusError(400, "Cannot delete the currently active email theme. Please select a different theme first.");
    case "requires_custom_email_server":
      return new KnownError("REQUIRES_CUSTOM_EMAIL_SERVER");
    case "category_not_found":
      return new StatusError(400, "Notification category not found with given name");
    case "too_large":
      return new StatusError(400, "The message is too large to send through the email queue (at most about 100 KB of HTML).");
  }
}

/** The value of a successful result, or the result's wire error thrown. */
export function valueOr<T>(result: { ok: true; value: T } | EmailProblem): T {
  if (result.ok) return result.value;
  throw emailProblemError(result);
}
