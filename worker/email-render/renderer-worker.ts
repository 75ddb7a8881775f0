/**
 * The email renderer Worker (`doorman-email-renderer`, worker/email-render/wrangler.toml): owners' TSX
 * themes and templates run here, in the QuickJS sandbox, not in the API's isolate. Why: a render is
 * synchronous CPU work, and workerd runs one thread per process, so a hostile template would stall
 * every tenant's requests in the isolate that rendered it (DESIGN §4 rule 10). Its own Worker has its
 * own 128 MB and its own platform-measured CPU limit ([limits] cpu_ms); it has no route and no public
 * URL, only the API's EMAIL_RENDERER service binding reaches it.
 *
 *   POST /render   EmailRenderInput as JSON (≤ 512 KB) → 200 EmailRenderResult as JSON
 *                  (a template's failure is { ok: false, error } with 200); bad input → 400 { error }
 *   GET /health    200 (local readiness checks)
 */
import { type EmailRenderResult, renderEmailSources } from "./render";
import { emailRenderInputSchema, RENDER_BODY_LIMIT_BYTES, RENDER_PATH } from "./render-input";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });

/** The body as text, or null when it passes `limit` bytes (read in chunks: a missing Content-Length cannot slip past). */
async function readCapped(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

async function handleRender(request: Request): Promise<Response> {
  const text = await readCapped(request, RENDER_BODY_LIMIT_BYTES);
  if (text === null) return json(413, { error: `The render request is larger than ${RENDER_BODY_LIMIT_BYTES / 1024} KB.` });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return json(400, { error: "The render request is not JSON." });
  }
  const parsed = emailRenderInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return json(400, { error: `Invalid render request: ${issue ? `${issue.path.join(".") || "(body)"}: ${issue.message}` : "bad input"}` });
  }
  const result: EmailRenderResult = await renderEmailSources(parsed.data);
  return json(200, result);
}

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === RENDER_PATH) {
      if (request.method !== "POST") return json(405, { error: "Use POST." });
      return handleRender(request);
    }
    if (pathname === "/health" && request.method === "GET") return json(200, { ok: true });
    return json(404, { error: "Not found." });
  },
} satisfies ExportedHandler;
