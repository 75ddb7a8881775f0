/**
 * The logged copy of an email: the message with its marked secrets (RenderedEmail.secrets)
 * replaced, so log or database access never hands out a live code or sign-in link.
 */
import type { RenderedEmail } from "./templates";

export const REDACTED = "[redacted]";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function replaceAll(body: string, secrets: string[]): string {
  let out = body;
  for (const secret of secrets) out = out.split(secret).join(REDACTED);
  return out;
}

/** The message as stored in `sent_emails`: every marked secret (raw, URL-encoded or HTML-escaped) replaced. */
export function redactEmail(message: RenderedEmail): { subject: string; html: string; text: string } {
  // Longest first: a code contains its OTP prefix, and the whole code must go, not just its start.
  const raw = [...new Set(message.secrets ?? [])].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  const forms = [...new Set(raw.flatMap((s) => [s, encodeURIComponent(s), escapeHtml(s), escapeHtml(encodeURIComponent(s))]))].sort(
    (a, b) => b.length - a.length,
  );
  return { subject: replaceAll(message.subject, forms), html: replaceAll(message.html, forms), text: replaceAll(message.text, forms) };
}
