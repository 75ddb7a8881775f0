/**
 * The renderer Worker's wire (renderer-worker.ts, reached through the API's EMAIL_RENDERER service
 * binding): `POST /render` with an EmailRenderInput as JSON answers its EmailRenderResult as JSON.
 * The schema checks what crosses the process boundary; the sandbox's own limits bound the render.
 */
import { z } from "zod";
import type { EmailRenderInput } from "./render";

/** Requests above this are refused before parsing: a theme plus a template are a few KB, the editor caps sources far below. */
export const RENDER_BODY_LIMIT_BYTES = 512 * 1024;

/** The path the renderer answers renders on (any origin: only the service binding reaches it). */
export const RENDER_PATH = "/render";

export const emailRenderInputSchema = z.strictObject({
  themeSource: z.string().nullable(),
  templateSource: z.string(),
  variables: z.record(z.string(), z.unknown()),
  user: z.strictObject({ displayName: z.string().nullable() }),
  project: z.strictObject({ displayName: z.string() }),
  unsubscribeLink: z.string().nullable().optional(),
  previewMode: z.boolean().optional(),
  locale: z.string().max(35).nullable().optional(),
}) satisfies z.ZodType<EmailRenderInput>;
