/**
 * What a render may answer: the shape and the size of an email, checked on the host for everything
 * that comes out of the sandbox (whose guest may have replaced any global it liked) and for the
 * built-in emails' fast path. A bad answer is a render failure, never an exception.
 */
import { z } from "zod";

/** html + text + subject, in UTF-8 bytes. */
export const MAX_EMAIL_BYTES = 1024 * 1024;
/** RFC 5322's limit for one header line. */
export const MAX_SUBJECT_CHARS = 998;

export const OUTPUT_TOO_LARGE = "Rendering was stopped: the rendered email is larger than 1 MB.";

export type RenderedEmailParts = { ok: true; html: string; text: string; subject: string; notificationCategory?: string };
export type OutputCheck = RenderedEmailParts | { ok: false; error: string };

const sandboxAnswer = z.object({
  html: z.string(),
  text: z.string(),
  subject: z.string().optional(),
  notificationCategory: z.string().optional(),
});

/** UTF-8 length without encoding (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
export function utf8Bytes(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 4 bytes for 2 code units
      i++;
    } else n += 2;
  }
  return n;
}

/** Checks a finished email's size and subject. */
export function checkEmail(email: RenderedEmailParts): OutputCheck {
  // Cheap bound first: every UTF-16 unit is at least one byte.
  if (email.html.length + email.text.length + email.subject.length > MAX_EMAIL_BYTES) return { ok: false, error: OUTPUT_TOO_LARGE };
  if (utf8Bytes(email.html) + utf8Bytes(email.text) + utf8Bytes(email.subject) > MAX_EMAIL_BYTES)
    return { ok: false, error: OUTPUT_TOO_LARGE };
  if (email.subject.length > MAX_SUBJECT_CHARS)
    return { ok: false, error: `The email's subject is longer than ${MAX_SUBJECT_CHARS} characters (${email.subject.length}).` };
  return email;
}

/** The sandbox's JSON answer as an email, or why it is not one. */
export function parseSandboxAnswer(json: string): OutputCheck {
  // A valid answer is at most 1 MB of content; JSON escaping can at most ~6× that.
  if (json.length > 6 * MAX_EMAIL_BYTES + 1024) return { ok: false, error: OUTPUT_TOO_LARGE };
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { ok: false, error: "The email sandbox answered something that is not an email (not JSON)." };
  }
  const parsed = sandboxAnswer.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "the answer";
    return { ok: false, error: `The email sandbox answered something that is not an email (${where}: ${issue?.message ?? "invalid"}).` };
  }
  const out = parsed.data;
  const email: RenderedEmailParts = { ok: true, html: out.html, text: out.text, subject: out.subject ?? "" };
  if (out.notificationCategory !== undefined) email.notificationCategory = out.notificationCategory;
  return checkEmail(email);
}
