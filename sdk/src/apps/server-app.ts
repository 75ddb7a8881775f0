/** StackServerApp: a back end's app (secret key) that manages any user of the project. */
import type { AccessLevel, RequestOptions } from "../interface/http";
import { KnownError } from "../shared/known-errors";
import { type ClientAppOptions, type GetUserOptions, StackClientApp } from "./client-app";
import type { CurrentUser } from "./current-user";
import { type ActiveSession, sessionFromJson } from "./current-user";
import { type ServerUserUpdateOptions, type UserFields, userFieldsFromJson, userUpdateToWire } from "./users";
import type { ListJson, SessionJson, TokensJson, UserJson } from "./wire-types";

export type ServerAppOptions = ClientAppOptions & { secretServerKey: string };

export type ServerUser = UserFields & {
  readonly lastActiveAt: Date;
  readonly serverMetadata: unknown;
  readonly primaryEmailAuthEnabled: boolean;
  update(update: ServerUserUpdateOptions): Promise<void>;
  delete(): Promise<void>;
  createSession(options?: { expiresInMillis?: number; isImpersonation?: boolean }): Promise<{ accessToken: string; refreshToken: string }>;
  listSessions(): Promise<ActiveSession[]>;
};

export type CreateUserOptions = ServerUserUpdateOptions & { primaryEmail?: string | null; isAnonymous?: boolean };
export type ListUsersOptions = {
  cursor?: string;
  limit?: number;
  orderBy?: "signedUpAt";
  desc?: boolean;
  query?: string;
  includeAnonymous?: boolean;
  teamId?: string;
};

/**
 * The server app of a project (keep the secret key on the server).
 *
 * @example
 * const server = new StackServerApp({ projectId, secretServerKey, tokenStore: "memory", baseUrl });
 * const user = await server.createUser({ primaryEmail: "ada@example.com", password: "a long password" });
 * await user.update({ serverMetadata: { plan: "pro" } });
 */
export class StackServerApp extends StackClientApp {
  constructor(options: ServerAppOptions, access?: AccessLevel) {
    super(
      options,
      access ?? { type: "server", publishableClientKey: options.publishableClientKey, secretServerKey: options.secretServerKey },
    );
  }

  /** @internal Requests at this app's key level (admin apps add owner-session retries). */
  _serverRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this._http.request<T>(path, options);
  }

  /** @internal */
  _serverUser(json: UserJson): ServerUser {
    const path = `/users/${encodeURIComponent(json.id)}`;
    return {
      ...userFieldsFromJson(json),
      lastActiveAt: new Date(json.last_active_at_millis ?? json.signed_up_at_millis),
      serverMetadata: json.server_metadata ?? null,
      primaryEmailAuthEnabled: json.primary_email_auth_enabled ?? false,
      update: async (update) => {
        await this._serverRequest(path, { method: "PATCH", body: userUpdateToWire(update) });
      },
      delete: async () => {
        await this._serverRequest(path, { method: "DELETE" });
      },
      createSession: async (options = {}) => {
        const body: Record<string, unknown> = { user_id: json.id };
        if (options.expiresInMillis !== undefined) body.expires_in_millis = options.expiresInMillis;
        if (options.isImpersonation !== undefined) body.is_impersonation = options.isImpersonation;
        const tokens = await this._serverRequest<TokensJson>("/auth/sessions", { body });
        return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
      },
      listSessions: async () => {
        const list = await this._serverRequest<ListJson<SessionJson>>(`/auth/sessions?user_id=${encodeURIComponent(json.id)}`);
        return list.items.map(sessionFromJson);
      },
    };
  }

  /** Creates a user (POST /users). */
  async createUser(options: CreateUserOptions): Promise<ServerUser> {
    const body = userUpdateToWire(options);
    if (options.isAnonymous !== undefined) body.is_anonymous = options.isAnonymous;
    return this._serverUser(await this._serverRequest<UserJson>("/users", { body }));
  }

  /** One page of users; `nextCursor` continues the list (null at the end). */
  async listUsers(options: ListUsersOptions = {}): Promise<ServerUser[] & { nextCursor: string | null }> {
    const q = new URLSearchParams();
    if (options.cursor) q.set("cursor", options.cursor);
    if (options.limit !== undefined) q.set("limit", String(options.limit));
    if (options.orderBy) q.set("order_by", "signed_up_at");
    if (options.desc !== undefined) q.set("desc", String(options.desc));
    if (options.query) q.set("query", options.query);
    if (options.includeAnonymous !== undefined) q.set("include_anonymous", String(options.includeAnonymous));
    if (options.teamId) q.set("team_id", options.teamId);
    const list = await this._serverRequest<ListJson<UserJson>>(`/users${q.size ? `?${q}` : ""}`);
    return Object.assign(
      list.items.map((u) => this._serverUser(u)),
      { nextCursor: list.pagination?.next_cursor ?? null },
    );
  }

  /** A user by id (null when there is none), or with options: the session's user. */
  override getUser(options?: GetUserOptions): Promise<CurrentUser | null>;
  override getUser(userId: string): Promise<ServerUser | null>;
  override async getUser(arg?: string | GetUserOptions): Promise<CurrentUser | ServerUser | null> {
    if (typeof arg !== "string") return super.getUser(arg);
    try {
      return this._serverUser(await this._serverRequest<UserJson>(`/users/${encodeURIComponent(arg)}`));
    } catch (error) {
      if (error instanceof KnownError && error.code === "USER_NOT_FOUND") return null;
      throw error;
    }
  }
}
