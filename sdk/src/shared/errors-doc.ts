/**
 * Renders docs/errors.md from the known-error catalogue. Pure and deterministic, so the
 * generator (`npm run docs:errors`) and the staleness test (test/worker/errors-doc.test.ts)
 * produce byte-identical output.
 */
import { type CatalogueEntry, catalogue, type ErrorDetails } from "./known-errors";

/** Renders one entry's message with `{key}` placeholders for its details. */
export function placeholderMessage(entry: CatalogueEntry): string {
  // First try every key as the string "{key}". A message that needs another shape
  // (an array to .map, a number for a date) gets, key by key, an array placeholder
  // or no value, whichever first renders without throwing.
  const details: ErrorDetails = {};
  for (const key of entry.details) details[key] = `{${key}}`;
  const attempt = (): string | undefined => {
    try {
      return entry.message(details);
    } catch {
      return undefined;
    }
  };
  let rendered = attempt();
  for (const key of entry.details) {
    if (rendered !== undefined) break;
    details[key] = [`{${key}}`];
    rendered = attempt();
    if (rendered !== undefined) break;
    delete details[key];
    rendered = attempt();
    if (rendered === undefined) details[key] = `{${key}}`;
  }
  return rendered ?? entry.message({});
}

const cell = (text: string) => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
const code = (text: string) => `\`${text}\``;

export function renderErrorsDoc(): string {
  const entries = Object.entries(catalogue) as [string, CatalogueEntry][];
  const families = new Map<string, string[]>();
  for (const [name, entry] of entries) {
    for (const family of entry.families ?? []) {
      const list = families.get(family) ?? [];
      list.push(name);
      families.set(family, list);
    }
  }
  const lines: string[] = [
    "# Known errors",
    "",
    "<!-- Generated from sdk/src/shared/known-errors.ts by `npm run docs:errors`. Do not edit by hand. -->",
    "",
    'Every error the v1 API can answer with a code. The body is `{ "code", "error", "details"? }` and the',
    "response carries the `x-stack-known-error` and `x-hexclave-known-error` headers with the code. When the",
    "request has an `x-stack-override-error-status` header (or the `x-hexclave-` form), a 4xx status becomes 200",
    "and the real one is in `x-stack-actual-status` / `x-hexclave-actual-status` (5xx is left as is).",
    "",
    "Messages are shown with `{key}` where the text reads a `details` value. Families are the abstract codes an",
    'SDK can catch by (`error.is("REFRESH_TOKEN_ERROR")`).',
    "",
    `${entries.length} codes.`,
    "",
    "| code | HTTP | details | families | message |",
    "|---|---|---|---|---|",
  ];
  for (const [name, entry] of entries) {
    const details = entry.details.length ? entry.details.map(code).join(", ") : "";
    const fams = (entry.families ?? []).map(code).join(", ");
    lines.push(`| ${code(name)} | ${entry.status} | ${details} | ${fams} | ${cell(placeholderMessage(entry))} |`);
  }
  lines.push("", "## Families", "", "| family | codes |", "|---|---|");
  for (const [family, codes] of [...families.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(`| ${code(family)} | ${codes.map(code).join(", ")} |`);
  }
  lines.push("");
  return lines.join("\n");
}
