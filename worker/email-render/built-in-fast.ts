/**
 * The built-in emails without the sandbox: every built-in template in every built-in theme was
 * rendered at build time with a placeholder for each value (scripts/build-email-built-ins.mjs →
 * generated/built-in-emails.js). Here the slots get the values, HTML-escaped exactly as React escapes
 * text and attributes (& < > " '), the subject gets them as they are, and the plain text is written
 * from that HTML by html-to-text with the sandbox's own options: the same email the sandbox renders,
 * byte for byte (test/worker/email-sandbox-limits.test.ts checks every kind), for well under 5 ms.
 *
 * It answers null, and the caller renders in the sandbox, whenever the precompiled form might not be
 * that email: a source that is not byte-identical to a built-in one (an owner's edit, or a generated
 * file older than the sources), no theme, an unsubscribe link, preview mode, a variable that is not
 * a non-empty string, an empty project name.
 */
import { compile } from "html-to-text";
import builtIns, { type BuiltInEmailEntry } from "./generated/built-in-emails.js";
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

function fill(parts: (string | number)[], values: string[]): string {
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) out += values[parts[i] as number]! + (parts[i + 1] as string);
  return out;
}

const nonEmptyString = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/**
 * The email of a built-in template in a built-in theme, from its precompiled form; null when there
 * is none for these inputs (render in the sandbox then). Same input and result as renderEmailSources.
 */
export function renderBuiltInFast(input: EmailRenderInput): EmailRenderResult | null {
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

  const html = fill(form.html, values.map(escapeHtml));
  toText ??= compile({ selectors: plainTextSelectors });
  const email = checkEmail({
    ok: true,
    html,
    text: toText(html.replace(/^<!DOCTYPE.*?>/, "")),
    subject: fill(form.subject, values),
    ...(form.notificationCategory !== undefined ? { notificationCategory: form.notificationCategory } : {}),
  });
  return email;
}

/** Whether a precompiled form exists for a template in a theme (by their sources). */
export function hasBuiltInFastForm(themeSource: string, templateSource: string): boolean {
  return entryFor(themeSource, templateSource) !== undefined;
}
