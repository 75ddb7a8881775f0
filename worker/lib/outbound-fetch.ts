/**
 * Outbound HTTP with bounds (DESIGN §4.10: nothing a project configures may hang or exhaust the
 * isolate others share). Every call gets a time limit until the response headers (connect and first
 * byte), one for the whole call including every byte of the body, a cap on the body bytes read (read
 * as a stream, stopped at the cap, never buffered whole), and no redirect followed. A failure is a
 * value naming what went wrong, never a hang or a throw. Infrastructure: imports no feature.
 */

export type OutboundBounds = {
  /** The whole call: connect, headers and every byte of the body. */
  timeoutMs: number;
  /** Until the response headers arrive (connect and first byte); unset or above `timeoutMs` = `timeoutMs`. */
  firstByteMs?: number;
  /** Body bytes read at most. */
  maxBodyBytes: number;
  /** Past `maxBodyBytes`: "fail" (a too_large failure, the default) or "truncate" (the first bytes, `truncated: true`). */
  overflow?: "fail" | "truncate";
};

export type OutboundFailure = {
  ok: false;
  kind: "timeout" | "network" | "too_large" | "redirect";
  /** A readable sentence for a log or an error message. */
  message: string;
  /** The HTTP status, when the headers came before the failure. */
  status: number | null;
};

export type OutboundResult = { ok: true; status: number; headers: Headers; body: string; truncated: boolean } | OutboundFailure;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;
const size = (bytes: number) =>
  bytes >= 1 << 20 && bytes % (1 << 20) === 0
    ? `${bytes / (1 << 20)} MiB`
    : bytes >= 1024 && bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;

/** The reason a call's signal aborts with when a time limit passes. */
export class OutboundTimeoutError extends Error {
  constructor(
    readonly limitMs: number,
    readonly phase: "first_byte" | "total",
  ) {
    super(phase === "first_byte" ? `No answer within ${seconds(limitMs)}.` : `The answer did not complete within ${seconds(limitMs)}.`);
    this.name = "OutboundTimeoutError";
  }
}

/** A body that passed its cap (the reading stopped there). */
export class OutboundTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The answer is larger than ${size(maxBytes)}; reading stopped there.`);
    this.name = "OutboundTooLargeError";
  }
}

type Timers = { signal: AbortSignal; headersArrived(): void; done(): void };

/** The two timers of one call; each aborts `signal` with an OutboundTimeoutError. */
function armTimers(bounds: OutboundBounds): Timers {
  const controller = new AbortController();
  const abortAfter = (ms: number, phase: "first_byte" | "total") =>
    setTimeout(() => controller.abort(new OutboundTimeoutError(ms, phase)), ms);
  const total = abortAfter(bounds.timeoutMs, "total");
  const firstByte =
    bounds.firstByteMs !== undefined && bounds.firstByteMs < bounds.timeoutMs ? abortAfter(bounds.firstByteMs, "first_byte") : undefined;
  return {
    signal: controller.signal,
    headersArrived: () => clearTimeout(firstByte),
    done: () => {
      clearTimeout(total);
      clearTimeout(firstByte);
    },
  };
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts (a read that never settles still ends). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Reads a body up to `maxBytes` bytes, then cancels the rest; rejects with `signal`'s reason when it
 * aborts first. Holds at most the cap: a 50 MB answer costs the cap, not 50 MB.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await untilAborted(reader.read(), signal);
      if (done) break;
      if (length + value.byteLength > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - length));
        length = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(value);
      length += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, truncated };
}

function failureOf(error: unknown, signal: AbortSignal, status: number | null): OutboundFailure {
  const reason = signal.aborted ? signal.reason : error;
  if (reason instanceof OutboundTimeoutError) return { ok: false, kind: "timeout", message: reason.message, status };
  if (reason instanceof OutboundTooLargeError) return { ok: false, kind: "too_large", message: reason.message, status };
  return { ok: false, kind: "network", message: `Request failed: ${reason instanceof Error ? reason.message : String(reason)}`, status };
}

/** A 3xx with a Location: the failure that names it. */
function redirectFailure(res: Response): OutboundFailure | null {
  const location = res.headers.get("location");
  if (res.status < 300 || res.status > 399 || location === null) return null;
  return {
    ok: false,
    kind: "redirect",
    message: `Redirected (HTTP ${res.status}) to ${location.slice(0, 500)}; redirects are not followed.`,
    status: res.status,
  };
}

/**
 * One bounded request; the whole body comes back as text.
 * @example
 * const r = await boundedFetch(url, { method: "POST", body }, { timeoutMs: 15_000, firstByteMs: 10_000, maxBodyBytes: 256 * 1024 });
 * if (!r.ok) log(r.kind, r.message); // "timeout" | "network" | "too_large" | "redirect"
 */
export async function boundedFetch(
  url: string | URL,
  init: Omit<RequestInit, "signal" | "redirect">,
  bounds: OutboundBounds,
): Promise<OutboundResult> {
  const timers = armTimers(bounds);
  let status: number | null = null;
  try {
    // Why "manual": the destination is often a project's; a redirect could lead past its SSRF check to
    // an internal address, so it is a failure naming the Location (the owner fixes the URL), never followed.
    const res = await fetch(url, { ...init, redirect: "manual", signal: timers.signal });
    timers.headersArrived();
    status = res.status;
    const redirect = redirectFailure(res);
    const declared = Number(res.headers.get("content-length") ?? "0");
    const fail = (bounds.overflow ?? "fail") === "fail";
    if (redirect || (fail && declared > bounds.maxBodyBytes)) {
      res.body?.cancel().catch(() => {});
      return redirect ?? failureOf(new OutboundTooLargeError(bounds.maxBodyBytes), timers.signal, status);
    }
    const { bytes, truncated } = await readCapped(res.body, bounds.maxBodyBytes, timers.signal);
    if (truncated && fail) return failureOf(new OutboundTooLargeError(bounds.maxBodyBytes), timers.signal, status);
    return { ok: true, status: res.status, headers: res.headers, body: new TextDecoder().decode(bytes), truncated };
  } catch (error) {
    return failureOf(error, timers.signal, status);
  } finally {
    timers.done();
  }
}

/** A body that errors past `maxBytes` or when `signal` aborts; `onEnd` runs once it is over, whichever way. */
function cappedStream(body: ReadableStream<Uint8Array>, maxBytes: number, signal: AbortSignal, onEnd: () => void) {
  const reader = body.getReader();
  let length = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await untilAborted(reader.read(), signal);
        if (done) {
          onEnd();
          controller.close();
          return;
        }
        length += value.byteLength;
        if (length > maxBytes) throw new OutboundTooLargeError(maxBytes);
        controller.enqueue(value);
      } catch (error) {
        onEnd();
        reader.cancel().catch(() => {});
        controller.error(signal.aborted ? signal.reason : error);
      }
    },
    cancel(reason) {
      onEnd();
      return reader.cancel(reason);
    },
  });
}

/**
 * A `fetch` with the same bounds, for libraries that take one (the stripe package): the timers stay
 * armed while the library reads the body, the body errors past its cap, and a 3xx comes back as it is
 * (not followed). Failures throw the library's way, with an OutboundTimeoutError / OutboundTooLargeError.
 */
export function boundedFetchFn(bounds: OutboundBounds, fetchFn: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return async (input, init) => {
    const timers = armTimers(bounds);
    const signal = init?.signal ? AbortSignal.any([init.signal, timers.signal]) : timers.signal;
    let res: Response;
    try {
      res = await fetchFn(input, { ...init, redirect: "manual", signal });
    } catch (error) {
      timers.done();
      throw timers.signal.aborted ? timers.signal.reason : error;
    }
    timers.headersArrived();
    if (!res.body) {
      timers.done();
      return res;
    }
    const body = cappedStream(res.body, bounds.maxBodyBytes, timers.signal, timers.done);
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/**
 * `promise`, or `onTimeout()` thrown after `ms`. For calls that take no signal (arctic's token
 * requests use the global fetch): the caller is freed on time; the abandoned request ends with the
 * request's I/O context.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
