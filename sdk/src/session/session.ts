/**
 * A client session over a token store: hands out an access token with at least 20 s of
 * validity, refreshing on demand through `/auth/oauth/token`; one refresh in flight at a
 * time; a refresh-token error clears both tokens (the session is invalid).
 */
import { ACCESS_TOKEN_FRESHNESS_MS } from "../shared/constants";
import { KnownError } from "../shared/known-errors";
import type { TokenStore, Tokens } from "./token-store";

/** Expiry (ms) of a JWT, read without verifying (the server verifies). */
export function accessTokenExpiry(token: string): number | null {
  const part = token.split(".")[1];
  if (!part) return null;
  try {
    const json = JSON.parse(
      atob(
        part
          .replace(/-/g, "+")
          .replace(/_/g, "/")
          .padEnd(Math.ceil(part.length / 4) * 4, "="),
      ),
    );
    return typeof json.exp === "number" ? json.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Exchanges a refresh token for `{accessToken, refreshToken?}`, or null when the session is dead. */
export type Refresher = (refreshToken: string) => Promise<{ accessToken: string; refreshToken?: string } | null>;

export class Session {
  private inFlight: Promise<string | null> | null = null;

  constructor(
    readonly store: TokenStore,
    private readonly refresher: Refresher,
    private readonly now: () => number = Date.now,
  ) {}

  tokens(): Tokens {
    return this.store.get();
  }

  /** True when no token is known: signed out for sure. */
  isKnownInvalid(): boolean {
    const t = this.store.get();
    return !t.accessToken && !t.refreshToken;
  }

  setTokens(tokens: Tokens): void {
    this.store.set(tokens);
  }

  clear(): void {
    this.store.set({ accessToken: null, refreshToken: null });
  }

  /** An access token valid for at least `minValidityMs`, refreshing if needed; null if signed out. */
  async getAccessToken(minValidityMs = ACCESS_TOKEN_FRESHNESS_MS): Promise<string | null> {
    const { accessToken } = this.store.get();
    if (accessToken) {
      const exp = accessTokenExpiry(accessToken);
      if (exp !== null && exp - this.now() > minValidityMs) return accessToken;
    }
    return this.refresh();
  }

  /** Drops the access token (the server said it is invalid) and refreshes. */
  markAccessTokenExpired(): Promise<string | null> {
    const { refreshToken } = this.store.get();
    this.store.set({ accessToken: null, refreshToken });
    return this.refresh();
  }

  refresh(): Promise<string | null> {
    this.inFlight ??= this.doRefresh().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async doRefresh(): Promise<string | null> {
    const { refreshToken } = this.store.get();
    if (!refreshToken) return null;
    try {
      const result = await this.refresher(refreshToken);
      if (!result) {
        this.clear();
        return null;
      }
      this.store.set({ accessToken: result.accessToken, refreshToken: result.refreshToken ?? refreshToken });
      return result.accessToken;
    } catch (error) {
      if (error instanceof KnownError && error.is("REFRESH_TOKEN_ERROR")) {
        this.clear();
        return null;
      }
      throw error;
    }
  }
}
