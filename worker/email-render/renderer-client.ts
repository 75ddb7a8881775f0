/**
 * The API's side of the email renderer Worker (renderer-worker.ts): sends an EmailRenderInput over the
 * EMAIL_RENDERER service binding with a wall-clock deadline and turns every way the call can fail
 * (the renderer threw or was stopped by the platform's CPU or memory limit, it timed out, it answered
 * something that is not a render result) into an `{ ok: false, error }` result with a readable message.
 * It never throws for anything the renderer or the template does.
 */
import { z } from "zod";
import type { EmailRenderInput, EmailRenderResult } from "./render";
import { RENDER_PATH } from "./render-input";

/** How long the API waits for one render, whatever the renderer does (its own CPU limit is 1 s). */
export const RENDER_DEADLINE_MS = 5_000;

/** What the API needs of the binding (a Fetcher; tests pass a fake). */
export type EmailRendererBinding = { fetch(input: string, init: RequestInit): Promise<Response> };

export const CPU_LIMIT_ERROR = "Rendering was stopped: it used more than the sandbox's CPU budget.";
export const MEMORY_LIMIT_ERROR = "Rendering was stopped: it used more than the sandbox's memory.";

const renderResultSchema = z.union([
  z.object({
    ok: z.literal(true),
    html: z.string(),
    text: z.string(),
    subject: z.string(),
    notificationCategory: z.string().optional(),
  }),
  z.object({ ok: z.literal(false), error: z.string(), line: z.number().int().optional() }),
]);

const failed = (error: string): EmailRenderResult => ({ ok: false, error });

/** A platform error (a thrown exception or an error page's text) in words an owner understands, or null. */
function platformLimit(message: string): string | null {
  // In production the platform stops the renderer and the binding answers "Worker exceeded CPU time limit."
  if (/exceeded cpu/i.test(message)) return CPU_LIMIT_ERROR;
  if (/exceeded memory|memory limit/i.test(message)) return MEMORY_LIMIT_ERROR;
  if (/exceeded resource limits/i.test(message)) return CPU_LIMIT_ERROR;
  return null;
}

/** The renderer's answer as a render result. */
async function readAnswer(response: Response): Promise<EmailRenderResult> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const limit = platformLimit(text);
    if (limit) return failed(limit);
    console.error(`email renderer answered HTTP ${response.status} with non-JSON: ${text.slice(0, 300)}`);
    return failed(`The email renderer failed: it answered HTTP ${response.status} without a render result.`);
  }
  if (response.ok) {
    const result = renderResultSchema.safeParse(body);
    if (result.success) return result.data;
    console.error("email renderer answered an unexpected body", text.slice(0, 300));
    return failed("The email renderer failed: its answer was not a render result.");
  }
  const error = typeof (body as { error?: unknown })?.error === "string" ? (body as { error: string }).error : `HTTP ${response.status}`;
  return failed(platformLimit(error) ?? `The email renderer refused the render: ${error}`);
}

/** Renders through the renderer Worker; a failure of any kind is `{ ok: false, error }`, within `deadlineMs`. */
export async function renderThroughRenderer(
  renderer: EmailRendererBinding,
  input: EmailRenderInput,
  deadlineMs: number = RENDER_DEADLINE_MS,
): Promise<EmailRenderResult> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A race as well as the abort signal: the deadline holds even if the binding ignored the signal.
  const deadline = new Promise<EmailRenderResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(failed(`Rendering was stopped: the email renderer did not answer within ${deadlineMs / 1000} s.`));
    }, deadlineMs);
  });
  const call = (async (): Promise<EmailRenderResult> => {
    try {
      const response = await renderer.fetch(`https://doorman-email-renderer${RENDER_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(input),
        signal: controller.signal,
      });
      return await readAnswer(response);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (controller.signal.aborted)
        return failed(`Rendering was stopped: the email renderer did not answer within ${deadlineMs / 1000} s.`);
      const limit = platformLimit(message);
      if (limit) return failed(limit);
      console.error("email renderer call failed", error);
      return failed(`The email renderer failed: ${message}`);
    }
  })();
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
