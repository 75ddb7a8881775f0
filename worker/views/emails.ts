/** Wire views of the project's email log (/internal/emails). */
import type { EmailJson, EmailLogEntryJson } from "@doorman/shared/wire-misc";
import type { SentEmailRow } from "../db/queries/sent-emails";

export function emailLogEntryView(row: SentEmailRow): EmailLogEntryJson {
  return {
    id: row.id,
    subject: row.subject,
    to: row.to,
    status: row.status,
    error: row.error,
    sent_at_millis: row.sentAt ?? row.createdAt,
  };
}

/** One email with its bodies, as logged: codes and secret links redacted (the dev inbox has the real ones). */
export function emailView(row: SentEmailRow): EmailJson {
  return { ...emailLogEntryView(row), html: row.html, text: row.text };
}
