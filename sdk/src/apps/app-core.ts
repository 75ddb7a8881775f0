/**
 * The app core: what every app (client, server, admin) and every feature module shares — the
 * project id, the resolved handler URLs, the options, the HTTP client of the app's access
 * level, the session over the token store, and requests made as the signed-in user with the
 * cached current-user JSON. It imports nothing from the apps, so the current user, the feature
 * modules and the app classes all depend down on it.
 */
import { AsyncCache } from "../cache";
import { type AccessLevel, type FetchLike, HttpClient, type RequestOptions, type Sleep } from "../interface/http";
import { createDeviceTokenKeeper, type DeviceTokenKeeper } from "../session/device-token";
import { Session } from "../session/session";
import { type CookieJar, createTokenStore, type TokenStoreInit } from "../session/token-store";
import { DEFAULT_HANDLER_PATH, PUBLIC_CLIENT_SENTINEL } from "../shared/constants";
import { hostedHandlerPath } from "../shared/hosted-pages";
import { KnownError } from "../shared/known-errors";
import { type HandlerUrls, type RedirectMethod, resolveUrls } from "../urls";
import type { RefreshedTokensJson, UserJson } from "./wire-types";

export type ClientAppOptions = {
  projectId: string;
  publishableClientKey?: string;
  /** Origin of the Doorman API; defaults to the page's origin in a browser. */
  baseUrl?: string;
  tokenStore: TokenStoreInit;
  urls?: Partial<HandlerUrls>;
  redirectMethod?: RedirectMethod;
  /** Origins besides the page's own that redirects may go to. */
  trustedOrigins?: string[];
  /**
   * Send users to the project's hosted pages instead of handler pages of the app's own: every handler
   * URL becomes `{baseUrl}/p/{projectId}/handler/{page}` (`true`), or `{baseUrl}/handler/{page}` when
   * `baseUrl` is the project's custom domain (`"custom-domain"`). `urls` still overrides single pages
   * and the after-sign-in/up/out targets; redirects to sign-in and sign-up carry the current page's
   * full URL in `after_auth_return_to`.
   *
   * @example
   * const app = new StackClientApp({ projectId, baseUrl: "https://auth.doorman.dev", tokenStore: "cookie", hostedPages: true });
   * await app.redirectToSignIn(); // → https://auth.doorman.dev/p/{projectId}/handler/sign-in?after_auth_return_to=…
   */
  hostedPages?: boolean | "custom-domain";
  fetch?: FetchLike;
  sleep?: Sleep;
  cookieJar?: CookieJar;
};

const USER_KEY = "me";

/** `options.urls`, with the handler on the hosted pages when `hostedPages` asks for them. */
function hostedUrlOverrides(options: ClientAppOptions, baseUrl: string): Partial<HandlerUrls> | undefined {
  if (!options.hostedPages) return options.urls;
  const origin = baseUrl.replace(/\/+$/, "");
  const handler =
    options.hostedPages === "custom-domain" ? `${origin}${DEFAULT_HANDLER_PATH}` : `${origin}${hostedHandlerPath(options.projectId)}`;
  return { handler, ...options.urls };
}

/** The origin of the hosted pages an app sends users to, or null when it mounts its own handler. */
export function hostedPagesOrigin(options: ClientAppOptions): string | null {
  if (!options.hostedPages) return null;
  const baseUrl = options.baseUrl ?? (typeof window !== "undefined" ? window.location.origin : undefined);
  return baseUrl ? new URL(baseUrl).origin : null;
}

/**
 * The shared state and requests of an app. Feature modules take an `AppCore` (never an app
 * class); the app classes extend it.
 *
 * @example
 * const user = await core._userRequest<UserJson>("/users/me");
 */
export class AppCore {
  readonly projectId: string;
  readonly urls: HandlerUrls;
  /** @internal */ readonly _http: HttpClient;
  /** @internal */ readonly _session: Session;
  /** @internal The device token sent on sign-ins (new-device verification). */ readonly _device: DeviceTokenKeeper;
  /** @internal */ readonly _options: ClientAppOptions;
  private readonly userCache: AsyncCache<UserJson | null>;

  constructor(options: ClientAppOptions, access?: AccessLevel) {
    this._options = options;
    this.projectId = options.projectId;
    const baseUrl = options.baseUrl ?? (typeof window !== "undefined" ? window.location.origin : undefined);
    if (!baseUrl) throw new Error("baseUrl is required outside a browser");
    this._http = new HttpClient({
      baseUrl,
      projectId: options.projectId,
      access: access ?? { type: "client", publishableClientKey: options.publishableClientKey },
      fetch: options.fetch,
      sleep: options.sleep,
    });
    this._session = new Session(createTokenStore(options.tokenStore, options.projectId, options.cookieJar), (token) =>
      this.refreshAccessToken(token),
    );
    this._device = createDeviceTokenKeeper(options.tokenStore, options.projectId, options.cookieJar);
    this.urls = resolveUrls(hostedUrlOverrides(options, baseUrl));
    this.userCache = new AsyncCache(() => this.fetchCurrentUser());
  }

  /** POST /auth/oauth/token (refresh grant), form-encoded like the reference SDK. */
  private async refreshAccessToken(refreshToken: string): Promise<{ accessToken: string; refreshToken?: string } | null> {
    const res = await this._http.request<RefreshedTokensJson>("/auth/oauth/token", {
      bare: true,
      form: {
        grant_type: "refresh_token",
        refresh_token: refreshToken,
        client_id: this.projectId,
        client_secret: this._options.publishableClientKey ?? PUBLIC_CLIENT_SENTINEL,
      },
    });
    return { accessToken: res.access_token, refreshToken: res.refresh_token };
  }

  /** @internal A request carrying the session; an invalid access token is refreshed once. */
  async _userRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const send = async (accessToken: string | null) => {
      const { refreshToken } = this._session.tokens();
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (accessToken) headers["x-stack-access-token"] = accessToken;
      if (refreshToken) headers["x-stack-refresh-token"] = refreshToken;
      return this._http.request<T>(path, { ...options, headers });
    };
    const token = await this._session.getAccessToken();
    try {
      return await send(token);
    } catch (error) {
      if (token && error instanceof KnownError && error.is("INVALID_ACCESS_TOKEN"))
        return send(await this._session.markAccessTokenExpired());
      throw error;
    }
  }

  private async fetchCurrentUser(): Promise<UserJson | null> {
    if (this._session.isKnownInvalid()) return null;
    try {
      return await this._userRequest<UserJson>("/users/me");
    } catch (error) {
      if (error instanceof KnownError && (error.code === "CANNOT_GET_OWN_USER_WITHOUT_USER" || error.is("INVALID_ACCESS_TOKEN")))
        return null;
      throw error;
    }
  }

  /** @internal The current user's JSON (cached; null when signed out). */
  _currentUserJson(): Promise<UserJson | null> {
    return this.userCache.get(USER_KEY);
  }

  /** @internal Forgets the current user (after sign-out) and tells subscribers. */
  _forgetUser(): void {
    this.userCache.set(USER_KEY, null);
  }

  /** @internal Re-reads the current user and tells subscribers (after a mutation). */
  _refreshUser(): Promise<UserJson | null> {
    return this.userCache.refresh(USER_KEY);
  }

  /** @internal For React hooks: called whenever the cached current user changes. */
  _subscribeUser(callback: () => void): () => void {
    return this.userCache.subscribe(USER_KEY, callback);
  }
}
