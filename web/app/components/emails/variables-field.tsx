/**
 * The variables of a preview or a send, as a JSON object in a labelled text box; an invalid one
 * is marked and not used. `previewVariablesOf` reads a template's `EmailTemplate.PreviewVariables`
 * literal from its source (without running it), to start the box with them.
 */
export type Variables = Record<string, unknown>;

export function parseVariables(text: string): { ok: true; value: Variables } | { ok: false; message: string } {
  if (!text.trim()) return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return { ok: true, value: value as Variables };
    return { ok: false, message: 'Write a JSON object, e.g. { "name": "Ada" }.' };
  } catch (e) {
    return { ok: false, message: `Not valid JSON: ${e instanceof Error ? e.message : "check the quotes and commas"}.` };
  }
}

/** The object literal after `EmailTemplate.PreviewVariables =`, as JSON text; "{}" when there is none or it is not plain data. */
export function previewVariablesOf(source: string): string {
  const at = source.indexOf("EmailTemplate.PreviewVariables");
  const start = at < 0 ? -1 : source.indexOf("{", at);
  if (start < 0) return "{}";
  let depth = 0;
  let quote: string | null = null;
  let end = -1;
  for (let i = start; i < source.length && end < 0; i++) {
    const c = source[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) end = i;
  }
  if (end < 0) return "{}";
  // Quote bare keys and turn single-quoted strings into JSON strings; anything else (expressions) is not data.
  const json = source
    .slice(start, end + 1)
    .replace(/'((?:[^'\\]|\\.)*)'/g, (_m, s: string) => JSON.stringify(s.replace(/\\'/g, "'")))
    .replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":')
    .replace(/,(\s*[}\]])/g, "$1");
  const parsed = parseVariables(json);
  return parsed.ok ? JSON.stringify(parsed.value, null, 2) : "{}";
}

export function VariablesField(props: { id: string; value: string; onChange: (text: string) => void; label?: string; hint?: string }) {
  const parsed = parseVariables(props.value);
  const error = parsed.ok ? null : parsed.message;
  const describedBy = [`${props.id}-hint`, error ? `${props.id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label ?? "Variables (JSON)"}</label>
      <textarea
        id={props.id}
        className="input code-textarea"
        rows={5}
        spellCheck={false}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <p className="muted" id={`${props.id}-hint`}>
        {props.hint ?? "Variables the template is rendered with; missing ones come from the template's preview variables."}
      </p>
      {error ? (
        <p className="field-error" id={`${props.id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
