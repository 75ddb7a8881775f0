/**
 * The HTTP layer: `{baseUrl}/api/v1{path}` with the wire headers of an access level, retries
 * (network errors on idempotent methods, 429 with Retry-After, 508), and known errors rebuilt
 * from `x-stack-known-error` + `{code, details}`.
 */
import { NETWORK_RETRY_ATTEMPTS, NETWORK_RETRY_BASE_MS } from "../shared/constants";
import { ACTUAL_STATUS_HEADERS, isKnownErrorCode, KNOWN_ERROR_HEADERS, KnownError } from "../shared/known-errors";

export const SDK_VERSION = "js doorman-sdk@0.1.0";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
export type Sleep = (ms: number) => Promise<void>;

export type AccessLevel =
  | { type: "client"; publishableClientKey?: string }
  | { type: "server"; publishableClientKey?: string; secretServerKey: string }
  | { type: "admin"; publishableClientKey?: string; superSecretAdminKey?: string; getAdminAccessToken?: () => Promise<string | null> };

export type HttpOptions = {
  baseUrl: string;
  projectId: string;
  access: AccessLevel;
  fetch?: FetchLike;
  sleep?: Sleep;
  random?: () => number;
};

export type RequestOptions = {
  method?: string;
  body?: unknown;
  /** Extra headers (e.g. x-stack-access-token), sent last. */
  headers?: Record<string, string>;
  /** Send no wire auth headers at all (e.g. /auth/oauth/token). */
  bare?: boolean;
  form?: Record<string, string>;
  /**
   * Ask for server-sent events (`accept: text/event-stream`): a 2xx event-stream answer is returned
   * as the raw Response (its body unread) instead of parsed; an error answer still throws.
   */
  stream?: boolean;
  /** Aborts the request (and, for a stream, the reading of it). */
  signal?: AbortSignal;
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`Doorman API answered ${status}: ${body.slice(0, 500)}`);
    this.name = "HttpError";
  }
}

/**
 * The server refused with 429 after the retries, or asked for a longer wait than the SDK blocks a
 * call for (RATE_LIMIT_MAX_WAIT_MS): the caller shows "try again in N s" instead of hanging.
 */
export class RateLimitedError extends HttpError {
  constructor(
    body: string,
    readonly retryAfterSeconds: number | null,
  ) {
    super(429, body);
    this.name = "RateLimitedError";
    this.message = retryAfterSeconds ? `Too many attempts, try again in ${retryAfterSeconds} s.` : "Too many attempts, try again later.";
  }
}

/** The longest Retry-After the SDK waits out before retrying (a sign-in lockout is minutes long). */
export const RATE_LIMIT_MAX_WAIT_MS = 10_000;

/** Failed to reach the server after every retry. */
export class ConnectionError extends Error {
  constructor(
    message: string,
    readonly cause: unknown,
  ) {
    super(message);
    this.name = "ConnectionError";
  }
}

/** The status the server meant: x-stack-actual-status (override-error-status) wins over the HTTP one. */
function actualStatus(res: Response): number {
  let status = res.status;
  for (const name of ACTUAL_STATUS_HEADERS) {
    const actual = res.headers.get(name);
    if (actual) status = Number(actual);
  }
  return status;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(28));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class HttpClient {
  readonly baseUrl: string;
  readonly projectId: string;
  readonly access: AccessLevel;
  private readonly fetchImpl: FetchLike;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  /** The newest D1 bookmark an answer carried (a deployment with read replicas): sent back so this client reads what it wrote. */
  private d1Bookmark: string | null = null;

  constructor(options: HttpOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.projectId = options.projectId;
    this.access = options.access;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = options.random ?? Math.random;
  }

  private async authHeaders(): Promise<Record<string, string>> {
    const a = this.access;
    const h: Record<string, string> = {
      "x-stack-project-id": this.projectId,
      "x-stack-access-type": a.type,
      "x-stack-client-version": SDK_VERSION,
      "x-stack-allow-anonymous-user": "true",
      "x-stack-override-error-status": "true",
    };
    if (a.publishableClientKey) h["x-stack-publishable-client-key"] = a.publishableClientKey;
    if (a.type === "server") h["x-stack-secret-server-key"] = a.secretServerKey;
    if (a.type === "admin") {
      if (a.superSecretAdminKey) h["x-stack-super-secret-admin-key"] = a.superSecretAdminKey;
      const token = await a.getAdminAccessToken?.();
      if (token) h["x-stack-admin-access-token"] = token;
    }
    return h;
  }

  /** Sends a request and returns the parsed JSON (or text) body; throws KnownError/HttpError. */
  async request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    const method = options.method ?? (options.body !== undefined || options.form ? "POST" : "GET");
    const url = `${this.baseUrl}/api/v1${path}`;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = options.bare ? {} : await this.authHeaders();
      headers["x-stack-random-nonce"] = randomNonce();
      let body: string | undefined;
      if (options.form) {
        headers["content-type"] = "application/x-www-form-urlencoded";
        body = new URLSearchParams(options.form).toString();
      } else if (options.body !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(options.body);
      }
      if (options.stream) headers.accept = "text/event-stream";
      if (this.d1Bookmark && !options.bare) headers["x-doorman-d1-bookmark"] = this.d1Bookmark;
      Object.assign(headers, options.headers ?? {});
      let res: Response;
      try {
        res = await this.fetchImpl(url, { method, headers, body, credentials: "omit", cache: "no-store", signal: options.signal });
      } catch (error) {
        // The caller stopped it: its own abort reason, not a connection failure to retry.
        if (options.signal?.aborted) throw error;
        if (IDEMPOTENT.has(method) && attempt < NETWORK_RETRY_ATTEMPTS) {
          await this.sleep(this.backoff(attempt));
          continue;
        }
        throw new ConnectionError(
          `Could not reach ${this.baseUrl} (${method} ${path}) after ${attempt} attempt(s): ${String(error)}`,
          error,
        );
      }
      const bookmark = res.headers.get("x-doorman-d1-bookmark");
      // Bookmarks only move forward (they compare as strings): an older answer arriving late must not win.
      if (bookmark && (this.d1Bookmark === null || bookmark > this.d1Bookmark)) this.d1Bookmark = bookmark;
      // The SDK asks for x-stack-override-error-status, so a 429 usually arrives as 200 + x-stack-actual-status.
      const status = actualStatus(res);
      if (status === 429 || status === 508) {
        const header = Number(res.headers.get("retry-after"));
        const retryAfter = Number.isFinite(header) && header > 0 ? Math.ceil(header) : null;
        const wait = retryAfter !== null ? retryAfter * 1000 : this.backoff(attempt);
        if (attempt < NETWORK_RETRY_ATTEMPTS && wait <= RATE_LIMIT_MAX_WAIT_MS) {
          await this.sleep(wait);
          continue;
        }
        if (status === 429) throw new RateLimitedError(await res.text(), retryAfter);
      }
      if (options.stream && status >= 200 && status < 300 && (res.headers.get("content-type") ?? "").startsWith("text/event-stream"))
        return res as T;
      return this.parse<T>(res);
    }
  }

  /** 1 s × 2^(n-1) × a random factor in [0.5, 1.5). */
  backoff(attempt: number): number {
    return NETWORK_RETRY_BASE_MS * 2 ** (attempt - 1) * (0.5 + this.random());
  }

  private async parse<T>(res: Response): Promise<T> {
    const status = actualStatus(res);
    const text = await res.text();
    const isJson = (res.headers.get("content-type") ?? "").includes("application/json");
    const parsed = isJson && text ? (JSON.parse(text) as unknown) : text;
    if (status >= 200 && status < 300) return parsed as T;
    const code = KNOWN_ERROR_HEADERS.map((h) => res.headers.get(h)).find(Boolean);
    if (code && typeof parsed === "object" && parsed !== null && (parsed as { code?: string }).code === code) {
      const { details, error } = parsed as { details?: Record<string, unknown>; error?: string };
      if (!isKnownErrorCode(code)) throw new KnownError("UNSUPPORTED_ERROR", { originalErrorCode: code });
      throw new KnownError(code, details, error);
    }
    throw new HttpError(status, typeof parsed === "string" ? parsed : JSON.stringify(parsed));
  }
}
