/**
 * Turning an email template into a standalone draft (POST /internal/rewrite-template-source): a draft
 * is sent without variables, so the template's preview values become constants. Deterministic text
 * surgery, no AI (the reference asks a model): the `EmailTemplate.PreviewVariables = …` assignment is
 * removed and its value becomes `const variables = …;` at the top of `EmailTemplate`, the arktype
 * schema (`export const X = type(…)`) goes, and `variables` leaves the parameter list. A template
 * without a schema, preview values or a `variables` parameter comes back unchanged. rewriteTemplateSource
 * renders the result to check it.
 */
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { renderSources } from "./rendering";

/** Skips a string, template literal or comment starting at `i`; the index after it, or `i` when none starts there. */
function skipOpaque(src: string, i: number): number {
  const c = src[i];
  if (c === "/" && src[i + 1] === "/") {
    const end = src.indexOf("\n", i);
    return end === -1 ? src.length : end;
  }
  if (c === "/" && src[i + 1] === "*") {
    const end = src.indexOf("*/", i + 2);
    return end === -1 ? src.length : end + 2;
  }
  if (c === '"' || c === "'" || c === "`") {
    let j = i + 1;
    while (j < src.length && src[j] !== c) {
      if (src[j] === "\\") j++;
      else if (c === "`" && src[j] === "$" && src[j + 1] === "{") j = matchingClose(src, j + 1) - 1;
      j++;
    }
    return Math.min(j + 1, src.length);
  }
  return i;
}

/** `src[open]` is ( [ or {: the index just after its matching close (or the end). */
function matchingClose(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; ) {
    const skipped = skipOpaque(src, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = src[i]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return src.length;
}

/** Where a statement's expression starting at `start` ends: a `;` or a line break outside brackets (not before a continuation). */
function expressionEnd(src: string, start: number): number {
  for (let i = start; i < src.length; ) {
    const skipped = skipOpaque(src, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = src[i]!;
    if (c === "(" || c === "[" || c === "{") {
      i = matchingClose(src, i);
      continue;
    }
    if (c === ";") return i;
    if (c === "\n" && src.slice(start, i).trim() !== "" && !/^\s*(satisfies\b|as\b|[.?:+\-*/&|])/.test(src.slice(i + 1))) return i;
    i++;
  }
  return src.length;
}

/** `expr` without a trailing `satisfies …` / `as …` (outside brackets and strings). */
function withoutTypeAssertion(expr: string): string {
  for (let i = 0; i < expr.length; ) {
    const skipped = skipOpaque(expr, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = expr[i]!;
    if (c === "(" || c === "[" || c === "{") {
      i = matchingClose(expr, i);
      continue;
    }
    if (/\s/.test(c) && /^\s+(satisfies|as)\b/.test(expr.slice(i))) return expr.slice(0, i).trim();
    i++;
  }
  return expr.trim();
}

/** Removes `src[from, to)` plus the `;` right after it and the rest of the line when nothing else is on it. */
function cut(src: string, from: number, to: number): string {
  let end = to;
  if (src[end] === ";") end++;
  const lineStart = src.lastIndexOf("\n", from - 1) + 1;
  const lineEnd = src.indexOf("\n", end);
  const before = src.slice(lineStart, from);
  const after = src.slice(end, lineEnd === -1 ? src.length : lineEnd);
  if (before.trim() === "" && after.trim() === "") return src.slice(0, lineStart) + src.slice(lineEnd === -1 ? src.length : lineEnd + 1);
  return src.slice(0, from) + src.slice(end);
}

/** Splits a parameter list's inside at its top-level commas. */
function splitTopLevel(inner: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < inner.length; ) {
    const skipped = skipOpaque(inner, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = inner[i]!;
    if (c === "(" || c === "[" || c === "{") {
      i = matchingClose(inner, i);
      continue;
    }
    if (c === ",") {
      parts.push(inner.slice(from, i));
      from = i + 1;
    }
    i++;
  }
  parts.push(inner.slice(from));
  return parts.map((p) => p.trim()).filter(Boolean);
}

export type RewriteResult = { ok: true; source: string } | { ok: false; error: string };

export function rewriteTemplateAsDraft(source: string): RewriteResult {
  let src = source;
  let previewExpr: string | null = null;
  const preview = /^[ \t]*EmailTemplate\.PreviewVariables\s*=/m.exec(src);
  if (preview) {
    const valueStart = preview.index + preview[0].length;
    const end = expressionEnd(src, valueStart);
    previewExpr = withoutTypeAssertion(src.slice(valueStart, end));
    src = cut(src, preview.index, end);
  }
  const schemaNames: string[] = [];
  for (
    let m = /^[ \t]*(?:export\s+)?(?:const|let|var)\s+(\w+)\s*=\s*type\s*\(/m.exec(src);
    m;
    m = /^[ \t]*(?:export\s+)?(?:const|let|var)\s+(\w+)\s*=\s*type\s*\(/m.exec(src)
  ) {
    schemaNames.push(m[1]!);
    const open = m.index + m[0].length - 1;
    src = cut(src, m.index, expressionEnd(src, open));
  }

  const fn = /export\s+function\s+EmailTemplate\s*\(/.exec(src);
  if (!fn) {
    if (previewExpr === null && schemaNames.length === 0) return { ok: true, source };
    return { ok: false, error: "The template has no `export function EmailTemplate(…)` to move its variables into." };
  }
  const paramsOpen = fn.index + fn[0].length - 1;
  const paramsClose = matchingClose(src, paramsOpen);
  const params = src.slice(paramsOpen + 1, paramsClose - 1);
  const takesVariables = /\bvariables\b/.test(params);
  if (previewExpr === null && schemaNames.length === 0 && !takesVariables) return { ok: true, source };

  let newParams = params;
  const destructure = /^\s*\{/.exec(params);
  if (destructure) {
    const braceOpen = destructure[0].length - 1;
    const braceClose = matchingClose(params, braceOpen);
    const kept = splitTopLevel(params.slice(braceOpen + 1, braceClose - 1)).filter((p) => !/^variables\b/.test(p));
    let annotation = params.slice(braceClose);
    // The annotation may name the removed schema (Props<typeof variablesSchema.infer>): drop it then.
    if (schemaNames.some((name) => new RegExp(`\\b${name}\\b`).test(annotation))) annotation = "";
    newParams = `{ ${kept.join(", ")} }${annotation}`;
  } else if (params.trim() !== "") {
    return { ok: false, error: "EmailTemplate's parameters must be destructured ({ user, variables, … }) to move its variables." };
  }
  const bodyOpen = src.indexOf("{", paramsClose);
  if (bodyOpen === -1) return { ok: false, error: "EmailTemplate has no body." };
  const constant = `\n  const variables = ${previewExpr ?? "{}"};`;
  src = `${src.slice(0, paramsOpen + 1)}${newParams}${src.slice(paramsClose - 1, bodyOpen + 1)}${constant}${src.slice(bodyOpen + 1)}`;
  return { ok: true, source: src };
}

/** The rewrite, checked by rendering it alone (no theme) as a draft is previewed; TEMPLATE_SOURCE_REWRITE_ERROR otherwise. */
export async function rewriteTemplateSource(
  deps: Pick<Deps, "env">,
  project: ProjectRow,
  source: string,
): Promise<{ ok: true; source: string } | Problem<"template_rewrite_failed">> {
  const rewritten = rewriteTemplateAsDraft(source);
  if (!rewritten.ok) return fail("template_rewrite_failed", { error: rewritten.error });
  const rendered = await renderSources(deps, {
    themeSource: null,
    templateSource: rewritten.source,
    variables: {},
    user: { displayName: "John Doe" },
    project: { displayName: project.displayName },
    previewMode: true,
  });
  if (!rendered.ok) return fail("template_rewrite_failed", { error: rendered.error });
  return { ok: true, source: rewritten.source };
}
