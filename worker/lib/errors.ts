/** Error types the worker throws besides KnownError, and the one place that renders errors. */
import { ACTUAL_STATUS_HEADERS, KNOWN_ERROR_HEADERS, KnownError } from "@doorman/shared/known-errors";

/** A plain status error: text/plain body, no known-error header (as the wire does for a few cases). */
export class StatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "StatusError";
  }
}

export function renderKnownError(err: KnownError): Response {
  const headers = new Headers({ "content-type": "application/json; charset=utf-8" });
  for (const name of KNOWN_ERROR_HEADERS) headers.set(name, err.code);
  return new Response(JSON.stringify(err.toJSON()), { status: err.status, headers });
}

export function renderStatusError(err: StatusError): Response {
  const headers = new Headers({ "content-type": "text/plain; charset=utf-8" });
  const retryAfter = (err as StatusError & { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter !== undefined) headers.set("retry-after", String(retryAfter));
  return new Response(err.message, { status: err.status, headers });
}

/** x-stack-override-error-status: any 4xx becomes 200 with the real status in a header. */
export function applyOverrideErrorStatus(res: Response, requested: boolean): Response {
  if (!requested || res.status < 400 || res.status >= 500) return res;
  const headers = new Headers(res.headers);
  for (const name of ACTUAL_STATUS_HEADERS) headers.set(name, String(res.status));
  return new Response(res.body, { status: 200, headers });
}

export { KnownError };
