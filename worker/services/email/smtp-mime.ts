/**
 * The message an SMTP client sends after DATA: RFC 5322 headers (Date, Message-ID, UTF-8 subjects
 * and names as RFC 2047 encoded-words, folded lines), a multipart/alternative text+html body in
 * quoted-printable with 76-character lines, CRLF throughout, dot-stuffed and ended by `.`. Also the
 * envelope and header checks that keep a caller's value from injecting SMTP commands or headers.
 */

export type MimeInput = {
  fromName: string;
  fromEmail: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  date: Date;
  messageId: string;
};

class MimeError extends Error {}

const encoder = new TextEncoder();
const HEX = "0123456789ABCDEF";
// Headers the MIME structure owns: a caller's copy would contradict the body.
const STRUCTURAL = new Set(["mime-version", "content-type", "content-transfer-encoding"]);

/** Printable ASCII without spaces or angle brackets, with an @: safe inside `MAIL FROM:<…>`. */
export function isSafeAddress(address: string): boolean {
  return /^[\x21-\x7e]+@[\x21-\x7e]+$/.test(address) && !/[<>]/.test(address);
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** RFC 2047 B-encoded words of at most 39 UTF-8 bytes each (no code point split), joined by folding. */
export function encodeWords(value: string): string {
  const words: string[] = [];
  let chunk = "";
  for (const ch of value) {
    if (encoder.encode(chunk + ch).length > 39) {
      words.push(chunk);
      chunk = "";
    }
    chunk += ch;
  }
  words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${base64(encoder.encode(w))}?=`).join("\r\n ");
}

/** Header text: as is when plain printable ASCII, else encoded-words. CR/LF never survive. */
function unstructured(value: string): string {
  const flat = value.replace(/[\r\n]+/g, " ");
  return /^[\x20-\x7e]*$/.test(flat) && !flat.includes("=?") ? flat : encodeWords(flat);
}

/** RFC 5322 atoms separated by single spaces: a display name that needs no quotes (`Test Project`). */
const PLAIN_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+( [A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/;

/** A display name as it is (atoms only), a quoted string (other ASCII) or encoded-words (anything else). */
function displayName(name: string): string {
  const flat = name.replace(/[\r\n]+/g, " ").trim();
  if (PLAIN_PHRASE.test(flat) && !flat.includes("=?")) return flat;
  if (/^[\x20-\x7e]*$/.test(flat) && !flat.includes("=?")) return `"${flat.replace(/(["\\])/g, "\\$1")}"`;
  return encodeWords(flat);
}

/** Folds a header line longer than 78 characters at spaces (never inside a word or an encoded-word). */
function fold(line: string): string {
  if (line.length <= 78 || line.includes("\r\n")) return line;
  const out: string[] = [];
  let rest = line;
  while (rest.length > 78) {
    // Not at the space after "Name:": that fold would leave the value as long as before.
    const floor = out.length ? 0 : line.indexOf(":") + 1;
    const at = rest.lastIndexOf(" ", 78);
    const cut = at > floor ? at : rest.indexOf(" ", 79);
    if (cut <= 0) break;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  out.push(rest);
  const folded = out.join("\r\n");
  if (out.some((l) => l.length > 998)) throw new MimeError("a header line longer than 998 characters without a space to fold at");
  return folded;
}

/** Quoted-printable (RFC 2045 §6.7): CRLF hard breaks, soft breaks keep every line at most 76 characters. */
export function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const line of text.replace(/\r\n|\r|\n/g, "\n").split("\n")) {
    const bytes = encoder.encode(line);
    let current = "";
    bytes.forEach((b, i) => {
      const last = i === bytes.length - 1;
      const literal = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last);
      const token = literal ? String.fromCharCode(b) : `=${HEX[b >> 4]}${HEX[b & 15]}`;
      // 75 leaves room for the soft break's `=`; the line's final token may use the 76th column.
      if (current.length + token.length > (last ? 76 : 75)) {
        out.push(`${current}=`);
        current = "";
      }
      current += token;
    });
    out.push(current);
  }
  return out.join("\r\n");
}

const PART_TYPE = { plain: "text/plain; charset=utf-8", html: "text/html; charset=utf-8" };

function part(type: "plain" | "html", body: string): string {
  return `Content-Type: ${PART_TYPE[type]}\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${quotedPrintable(body)}`;
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** RFC 5322 date-time in UTC: `Tue, 01 Jul 2025 12:00:00 +0000`. */
function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, "+0000");
}

/** The whole DATA payload: headers, body, dot-stuffing and the final `.` line. Throws MimeError. */
export function buildMimeMessage(input: MimeInput): string {
  const headers = new Map<string, [string, string]>();
  const set = (name: string, value: string) => headers.set(name.toLowerCase(), [name, value]);
  set("From", `${input.fromName.trim() ? `${displayName(input.fromName)} ` : ""}<${input.fromEmail}>`);
  set("To", input.to.map((address) => `<${address}>`).join(", "));
  set("Subject", unstructured(input.subject));
  set("Date", rfc5322Date(input.date));
  set("Message-ID", input.messageId);
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name)) throw new MimeError(`the header name "${name.slice(0, 40)}" is not valid`);
    if (STRUCTURAL.has(name.toLowerCase())) throw new MimeError(`the header ${name} is set by the MIME structure`);
    if (/[\r\n]/.test(value)) throw new MimeError(`the header ${name} contains a line break`);
    set(name, unstructured(value));
  }
  set("MIME-Version", "1.0");
  // "=_" cannot occur in quoted-printable output, so the boundary never collides with a body.
  const boundary = `=_doorman_${randomHex(12)}`;
  let body: string;
  if (input.text && input.html) {
    set("Content-Type", `multipart/alternative; boundary="${boundary}"`);
    body = `--${boundary}\r\n${part("plain", input.text)}\r\n--${boundary}\r\n${part("html", input.html)}\r\n--${boundary}--`;
  } else {
    set("Content-Type", PART_TYPE[input.html ? "html" : "plain"]);
    set("Content-Transfer-Encoding", "quoted-printable");
    body = quotedPrintable(input.html || input.text);
  }
  const head = [...headers.values()].map(([name, value]) => fold(`${name}: ${value}`)).join("\r\n");
  // Dot-stuffing (RFC 5321 §4.5.2): a line that starts with "." gets a second one.
  const stuffed = `${head}\r\n\r\n${body}`.replace(/(^|\r\n)\./g, "$1..");
  return `${stuffed}\r\n.\r\n`;
}

/** Checks the envelope and builds the message: the DATA payload, or what is wrong and at which stage. */
export function prepareMessage(
  sender: { name: string; email: string },
  to: string[],
  message: Pick<MimeInput, "subject" | "html" | "text" | "headers">,
): { ok: true; data: string } | { ok: false; stage: "mail" | "rcpt" | "message"; message: string } {
  if (!isSafeAddress(sender.email))
    return { ok: false, stage: "mail", message: `The sender address "${sender.email.slice(0, 100)}" is not a valid SMTP address.` };
  if (!to.length) return { ok: false, stage: "rcpt", message: "There is no recipient to send to." };
  const bad = to.find((r) => !isSafeAddress(r));
  if (bad !== undefined) return { ok: false, stage: "rcpt", message: `The recipient "${bad.slice(0, 100)}" is not a valid SMTP address.` };
  try {
    const messageId = `<${crypto.randomUUID()}@${sender.email.split("@").pop()}>`;
    const data = buildMimeMessage({ ...message, fromName: sender.name, fromEmail: sender.email, to, date: new Date(), messageId });
    return { ok: true, data };
  } catch (err) {
    if (err instanceof MimeError) return { ok: false, stage: "message", message: `The message could not be built: ${err.message}.` };
    throw err;
  }
}
