/**
 * Token stores: where a client keeps its access and refresh tokens. "memory", "cookie"
 * (browser cookies, or an injected jar), a request-like object carrying the `x-stack-auth`
 * header (server-side rendering), a plain `{accessToken, refreshToken}` object, or null.
 */
import { ACCESS_COOKIE_MAX_AGE_S, REFRESH_COOKIE_MAX_AGE_S } from "../shared/constants";

export type Tokens = { accessToken: string | null; refreshToken: string | null };

export interface TokenStore {
  get(): Tokens;
  set(tokens: Tokens): void;
  /** False for stores that cannot keep a sign-in (null store). */
  readonly persistent: boolean;
}

/** A cookie jar; the default reads and writes `document.cookie`. */
export interface CookieJar {
  get(name: string): string | null;
  set(name: string, value: string, maxAgeSeconds: number): void;
  remove(name: string): void;
}

export type RequestLike = { headers: { get(name: string): string | null } | Record<string, string | string[] | undefined> };

export type TokenStoreInit = "memory" | "cookie" | null | RequestLike | { accessToken?: string | null; refreshToken?: string | null };

/** Tokens may never be the literal text "undefined" (a classic serialisation bug). */
function clean(value: string | null | undefined): string | null {
  return value && value !== "undefined" ? value : null;
}

export class MemoryTokenStore implements TokenStore {
  readonly persistent = true;
  private tokens: Tokens;
  constructor(initial: Partial<Tokens> = {}) {
    this.tokens = { accessToken: clean(initial.accessToken), refreshToken: clean(initial.refreshToken) };
  }
  get(): Tokens {
    return { ...this.tokens };
  }
  set(tokens: Tokens): void {
    this.tokens = { accessToken: clean(tokens.accessToken), refreshToken: clean(tokens.refreshToken) };
  }
}

export const documentCookieJar: CookieJar = {
  get(name) {
    const match = document.cookie.split("; ").find((c) => c.startsWith(`${encodeURIComponent(name)}=`));
    return match ? decodeURIComponent(match.slice(match.indexOf("=") + 1)) : null;
  },
  set(name, value, maxAgeSeconds) {
    const secure = typeof location !== "undefined" && location.protocol === "https:" ? "; Secure" : "";
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser; values are encoded here.
    document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`;
  },
  remove(name) {
    // biome-ignore lint/suspicious/noDocumentCookie: see above.
    document.cookie = `${encodeURIComponent(name)}=; Path=/; Max-Age=0; SameSite=Lax`;
  },
};

export function refreshCookieName(projectId: string): string {
  return `stack-refresh-${projectId}`;
}
export const ACCESS_COOKIE_NAME = "stack-access";

export class CookieTokenStore implements TokenStore {
  readonly persistent = true;
  constructor(
    private readonly projectId: string,
    private readonly jar: CookieJar = documentCookieJar,
  ) {}
  get(): Tokens {
    return { accessToken: clean(this.jar.get(ACCESS_COOKIE_NAME)), refreshToken: clean(this.jar.get(refreshCookieName(this.projectId))) };
  }
  set(tokens: Tokens): void {
    const write = (name: string, value: string | null, maxAge: number) =>
      value && value !== "undefined" ? this.jar.set(name, value, maxAge) : this.jar.remove(name);
    write(refreshCookieName(this.projectId), tokens.refreshToken, REFRESH_COOKIE_MAX_AGE_S);
    write(ACCESS_COOKIE_NAME, tokens.accessToken, ACCESS_COOKIE_MAX_AGE_S);
  }
}

/** Reads `x-stack-auth: {"accessToken":…,"refreshToken":…}` from a request; later writes stay in memory. */
export function tokensFromRequest(request: RequestLike): Tokens {
  const h = request.headers as { get?: (name: string) => string | null } & Record<string, unknown>;
  const raw = typeof h.get === "function" ? h.get("x-stack-auth") : (h["x-stack-auth"] as string | string[] | undefined);
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return { accessToken: null, refreshToken: null };
  try {
    const parsed = JSON.parse(value) as Partial<Tokens>;
    return { accessToken: clean(parsed.accessToken), refreshToken: clean(parsed.refreshToken) };
  } catch {
    return { accessToken: null, refreshToken: null };
  }
}

class NullTokenStore implements TokenStore {
  readonly persistent = false;
  get(): Tokens {
    return { accessToken: null, refreshToken: null };
  }
  set(): void {}
}

function isRequestLike(init: object): init is RequestLike {
  return "headers" in init;
}

export function createTokenStore(init: TokenStoreInit, projectId: string, jar?: CookieJar): TokenStore {
  if (init === null) return new NullTokenStore();
  if (init === "memory") return new MemoryTokenStore();
  if (init === "cookie") return new CookieTokenStore(projectId, jar);
  if (isRequestLike(init)) return new MemoryTokenStore(tokensFromRequest(init));
  return new MemoryTokenStore(init);
}
