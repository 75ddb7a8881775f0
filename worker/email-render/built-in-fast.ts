/**
 * The built-in emails without the sandbox: every built-in template in every built-in theme was
 * rendered at build time with a placeholder for each value and each text (scripts/build-email-built-ins.mjs
 * → generated/built-in-emails.js). Here the text slots get the reader's locale's texts (English unless
 * the caller gives others, with the values in their `{ref}`s) and the value slots the values, all
 * HTML-escaped exactly as React escapes text and attributes (& < > " '); the subject gets them as they
 * are, and the plain text is written from that HTML by html-to-text with the sandbox's own options: the
 * same email the sandbox renders from that locale's sources, byte for byte
 * (test/worker/email-sandbox-limits.test.ts checks every kind, in every locale), for well under 5 ms.
 *
 * It answers null, and the caller renders in the sandbox, whenever the precompiled form might not be
 * that email: a source that is not byte-identical to a built-in one (an owner's edit, or a generated
 * file older than the sources), no theme, an unsubscribe link, preview mode, a variable that is not
 * a non-empty string, an empty project name, a text that names a value the template does not have.
 * The lookup is by the English sources (what the config holds): the caller that passes a locale's
 * texts stands for that locale's sources (services/email/built-in.ts).
 */
import { compile } from "html-to-text";
import builtIns, { type BuiltInEmailEntry } from "./generated/built-in-emails.js";
import { messageRefPath, parseMessage } from "./message-format";
import { checkEmail } from "./output";
import type { EmailRenderInput, EmailRenderResult } from "./render";
import { plainTextSelectors } from "./sandbox/plain-text-options";

let bySources: Map<string, BuiltInEmailEntry> | null = null;
let toText: ((html: string) => string) | null = null;

const sourcesKey = (themeSource: string, templateSource: string) => `${themeSource}\u0000${templateSource}`;

function entryFor(themeSource: string, templateSource: string): BuiltInEmailEntry | undefined {
  bySources ??= new Map(builtIns.entries.map((e) => [sourcesKey(e.themeSource, e.templateSource), e]));
  return bySources.get(sourcesKey(themeSource, templateSource));
}

/** React's escapeTextForBrowser, for text and attribute values alike. */
const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** A text with its `{ref}`s filled; null when it names a value the template has no slot for. */
function formatText(text: string, slots: string[], values: string[], encode: (s: string) => string): string | null {
  let out = "";
  for (const [i, part] of parseMessage(text).entries()) {
    if (i % 2 === 0) out += encode(part);
    else {
      const slot = slots.indexOf(messageRefPath(part));
      if (slot < 0) return null;
      out += encode(values[slot]!);
    }
  }
  return out;
}

function fill(
  parts: (string | number)[],
  entry: BuiltInEmailEntry,
  values: string[],
  texts: Record<string, string>,
  encode: (s: string) => string,
): string | null {
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const slot = parts[i]!;
    let value: string | null;
    if (typeof slot === "number") value = encode(values[slot]!);
    else {
      const text = Object.hasOwn(texts, slot) ? texts[slot] : undefined;
      value = text === undefined ? null : formatText(text, entry.slots, values, encode);
    }
    if (value === null) return null;
    out += value + (parts[i + 1] as string);
  }
  return out;
}

const asIs = (s: string) => s;

const nonEmptyString = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/**
 * The email of a built-in template in a built-in theme, from its precompiled form; null when there
 * is none for these inputs (render in the sandbox then). Same input and result as renderEmailSources
 * of the English sources, or with `texts` (a locale's, by slot key: services/email/defaults.ts
 * builtInTexts) as renderEmailSources of that locale's sources.
 */
export function renderBuiltInFast(input: EmailRenderInput, texts?: Record<string, string>): EmailRenderResult | null {
  if (input.previewMode === true || input.unsubscribeLink || input.themeSource === null) return null;
  const entry = entryFor(input.themeSource, input.templateSource);
  if (!entry) return null;

  const userName = input.user?.displayName;
  if (userName !== null && userName !== undefined && typeof userName !== "string") return null;
  const projectName = input.project?.displayName;
  if (!nonEmptyString(projectName)) return null;
  const values: string[] = [userName ?? "", projectName];
  for (const name of entry.variables) {
    const value = input.variables?.[name];
    if (!nonEmptyString(value)) return null;
    values.push(value);
  }
  const form = userName ? entry.named : entry.anonymous;

  const html = fill(form.html, entry, values, texts ?? entry.texts, escapeHtml);
  const subject = fill(form.subject, entry, values, texts ?? entry.texts, asIs);
  if (html === null || subject === null) return null;
  toText ??= compile({ selectors: plainTextSelectors });
  const email = checkEmail({
    ok: true,
    html,
    text: toText(html.replace(/^<!DOCTYPE.*?>/, "")),
    subject,
    ...(form.notificationCategory !== undefined ? { notificationCategory: form.notificationCategory } : {}),
  });
  return email;
}

/** Whether a precompiled form exists for a template in a theme (by their sources). */
export function hasBuiltInFastForm(themeSource: string, templateSource: string): boolean {
  return entryFor(themeSource, templateSource) !== undefined;
}
