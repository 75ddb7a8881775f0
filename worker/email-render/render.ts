/**
 * Renders an owner's TSX theme and template to an email (HTML, plain text, subject, notification
 * category), the way the reference's renderer does, inside the QuickJS sandbox (sandbox.ts), whose
 * answer is checked here like any untrusted input (output.ts: its shape, a subject of at most 998
 * characters, at most 1 MB in all). Callers map `{ ok: false }` to the known error
 * EMAIL_RENDERING_ERROR (400, detail `error`). Successful renders are cached per isolate for 60 s,
 * in at most 4 MB (an email above 256 KB is not kept).
 */
import { LruCache } from "./cache";
import { compileTsx } from "./compile";
import { parseSandboxAnswer } from "./output";
import {
  DEFAULT_LIMITS,
  runInSandbox,
  SANDBOX_MEMORY_MAX_BYTES,
  type SandboxLimits,
  type SandboxModule,
  type SandboxOutcome,
} from "./sandbox";

export type EmailRenderInput = {
  /** TSX module exporting EmailTheme({ children, unsubscribeLink }); null = no theme (the reference's theme_id: false). */
  themeSource: string | null;
  /** TSX module exporting EmailTemplate({ user, project, variables }), variablesSchema (arktype) and a <Subject value=…/>. */
  templateSource: string;
  variables: Record<string, unknown>;
  user: { displayName: string | null };
  project: { displayName: string };
  unsubscribeLink?: string | null;
  /** Fills missing variables from EmailTemplate.PreviewVariables and theme props from EmailTheme.PreviewProps. */
  previewMode?: boolean;
  /** The reader's locale (a built-in email's), given to the template and the theme as the prop `locale`. */
  locale?: string | null;
};

export type EmailRenderResult =
  | { ok: true; html: string; text: string; subject: string; notificationCategory?: string }
  | { ok: false; error: string; line?: number };

type Rendered = Extract<EmailRenderResult, { ok: true }>;

/** Successful renders by the hash of every input; entries live at most CACHE_TTL_MS (a template may print the date). */
const CACHE_TTL_MS = 60_000;
const cache = new LruCache<{ at: number; result: Rendered }>({ maxEntries: 64, maxBytes: 4 * 1024 * 1024, maxEntryBytes: 256 * 1024 });

/** What an entry costs the isolate: its strings at two bytes a unit (the worst case of V8's strings), plus the key and the record. */
const entryBytes = (r: Rendered) => 2 * (r.html.length + r.text.length + r.subject.length + (r.notificationCategory?.length ?? 0)) + 256;

const THEME_FILE = "theme.tsx";
const TEMPLATE_FILE = "template.tsx";

async function cacheKey(input: EmailRenderInput): Promise<string> {
  const canonical = JSON.stringify([
    input.themeSource,
    input.templateSource,
    input.variables,
    input.user,
    input.project,
    input.unsubscribeLink ?? null,
    input.previewMode === true,
    input.locale ?? null,
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The first line of the owner's files that a guest stack trace names, e.g. "at EmailTemplate (template.tsx:12:9)". */
function guestLine(stack: string | undefined): { file: string; line: number } | undefined {
  const m = stack?.match(/\b(theme\.tsx|template\.tsx):(\d+)/);
  return m ? { file: m[1]!, line: Number(m[2]) } : undefined;
}

function failure(outcome: Extract<SandboxOutcome, { ok: false }>): EmailRenderResult {
  if (outcome.kind === "interrupted")
    return { ok: false, error: "Rendering was stopped: it ran past the sandbox's CPU budget (about 1 s). Is there an endless loop?" };
  if (outcome.kind === "out-of-memory")
    return {
      ok: false,
      error: `Rendering was stopped: it used more than the sandbox's ${SANDBOX_MEMORY_MAX_BYTES / 1048576} MB of memory.`,
    };
  const where = guestLine(outcome.stack);
  if (!where) return { ok: false, error: outcome.message };
  return { ok: false, error: `${outcome.message} (${where.file} line ${where.line})`, line: where.line };
}

export async function renderEmailSources(input: EmailRenderInput, limits: SandboxLimits = DEFAULT_LIMITS): Promise<EmailRenderResult> {
  const key = await cacheKey(input);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_TTL_MS) return { ...hit.result };

  const modules: SandboxModule[] = [];
  if (input.themeSource !== null) {
    const theme = compileTsx(input.themeSource, THEME_FILE);
    if (!theme.ok) return theme;
    modules.push({ name: "theme", file: THEME_FILE, code: theme.code });
  }
  const template = compileTsx(input.templateSource, TEMPLATE_FILE);
  if (!template.ok) return template;
  modules.push({ name: "template", file: TEMPLATE_FILE, code: template.code });

  const preview = input.previewMode === true;
  const outcome = await runInSandbox(
    modules,
    JSON.stringify({
      hasTheme: input.themeSource !== null,
      variables: input.variables ?? {},
      user: input.user ?? (preview ? { displayName: "John Doe" } : { displayName: null }),
      project: input.project ?? (preview ? { displayName: "My Project" } : { displayName: "" }),
      unsubscribeLink: input.unsubscribeLink ?? null,
      previewMode: preview,
      locale: input.locale ?? null,
    }),
    limits,
  );
  if (!outcome.ok) return failure(outcome);

  const result = parseSandboxAnswer(outcome.json);
  if (!result.ok) return result;
  cache.set(key, { at: Date.now(), result }, entryBytes(result));
  return { ...result };
}

/** Empties the render cache (tests and the bench measure uncached renders). */
export function clearEmailRenderCache(): void {
  cache.clear();
}

/** The render cache's entries and their estimated bytes (for the tests). */
export function emailRenderCacheStats(): { entries: number; bytes: number } {
  return { entries: cache.size, bytes: cache.bytes };
}
