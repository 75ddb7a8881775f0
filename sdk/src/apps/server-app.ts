/**
 * The server app's behaviour (ServerAppBase): a back end's app (secret key) that manages any
 * user of the project. The exported `StackServerApp` (stack-apps.ts) is this class wired with
 * the owner admin app; `StackAdminApp` extends this class.
 */
import type { AccessLevel, RequestOptions } from "../interface/http";
import { KnownError } from "../shared/known-errors";
import * as activity from "./activity";
import * as emails from "./admin-emails";
import type { ProjectAdmin } from "./admin-project";
import * as apiKeys from "./api-keys";
import type { ClientAppOptions } from "./app-core";
import { ClientAppBase, type GetUserOptions } from "./client-app";
import * as connections from "./connected-accounts";
import { type ActiveSession, type CurrentUserOf, type OwnerAdminAppFactory, sessionFromJson } from "./current-user";
import { type DataVaultStore, dataVaultStore } from "./data-vault";
import * as payments from "./payments";
import type { CustomerProductsList, CustomerProductsListOptions, Purchase } from "./payments-shapes";
import * as permissions from "./permissions";
import { type ServerContactChannel, type ServerContactChannelCreateOptions, serverContactChannelMethods } from "./server-contact-channels";
import * as teams from "./teams";
import { type ServerUserUpdateOptions, type UserFields, userFieldsFromJson, userUpdateToWire } from "./users";
import type { ListJson, SessionJson, TokensJson, UserJson } from "./wire-types";

export type ServerAppOptions = ClientAppOptions & { secretServerKey: string };

export type ServerUser = UserFields & {
  readonly lastActiveAt: Date;
  readonly serverMetadata: unknown;
  readonly primaryEmailAuthEnabled: boolean;
  /** Set by an admin (`restrictedByAdmin` update); the reason is shown to the user, the details are not. */
  readonly restrictedByAdmin: boolean;
  readonly restrictedByAdminReason: string | null;
  readonly restrictedByAdminPrivateDetails: string | null;
  update(update: ServerUserUpdateOptions): Promise<void>;
  delete(): Promise<void>;
  createSession(options?: { expiresInMillis?: number; isImpersonation?: boolean }): Promise<{ accessToken: string; refreshToken: string }>;
  listSessions(): Promise<ActiveSession[]>;
  /** Ends one of this user's sessions: its refresh token stops working, and its access tokens on Doorman's API at once. */
  revokeSession(sessionId: string): Promise<void>;
  /**
   * Signs the user out everywhere: ends every session of this user (a Doorman extension).
   *
   * @example
   * await (await serverApp.getUser(userId))?.revokeAllSessions();
   */
  revokeAllSessions(): Promise<void>;
  /** This user's recent security events, newest first (a Doorman extension); see `CurrentUser.listActivity`. */
  listActivity(options?: activity.ListActivityOptions): Promise<activity.UserActivityPage>;
  // --- contact channels ---
  listContactChannels(): Promise<ServerContactChannel[]>;
  createContactChannel(options: ServerContactChannelCreateOptions): Promise<ServerContactChannel>;
  // --- connected-accounts ---
  /** The provider accounts linked to this user (with the provider's account ids). */
  listOAuthProviders(): Promise<connections.ServerOAuthProvider[]>;
  getOAuthProvider(id: string): Promise<connections.ServerOAuthProvider | null>;
  listConnectedAccounts(): Promise<connections.OAuthConnection[]>;
  getConnectedAccount: ReturnType<typeof connections.serverConnectionMethods>["getConnectedAccount"];
  // --- permissions ---
  hasPermission: permissions.UserPermissions["hasPermission"];
  getPermission: permissions.UserPermissions["getPermission"];
  listPermissions: permissions.UserPermissions["listPermissions"];
  /** Grants a team permission (`grantPermission(team, id)`) or a project permission (`grantPermission(id)`). */
  grantPermission: permissions.ServerUserPermissions["grantPermission"];
  revokePermission: permissions.ServerUserPermissions["revokePermission"];
} & payments.ServerCustomer;

export type CreateUserOptions = ServerUserUpdateOptions & { primaryEmail?: string | null; isAnonymous?: boolean };
export type ListUsersOptions = {
  cursor?: string;
  limit?: number;
  /** Sign-up date (the default), or as Doorman extensions display name (ignoring case) or primary email; users without one come last. */
  orderBy?: "signedUpAt" | "displayName" | "primaryEmail";
  desc?: boolean;
  /** The user's id (exactly), or part of the display name or of an email. */
  query?: string;
  /** Also list anonymous users (and restricted ones). */
  includeAnonymous?: boolean;
  /** List anonymous users only. */
  onlyAnonymous?: boolean;
  /** Also list restricted users (restricted by an admin, or with an email still to verify where the project requires it). */
  includeRestricted?: boolean;
  teamId?: string;
};

const ORDER_BY = { signedUpAt: "signed_up_at", displayName: "display_name", primaryEmail: "primary_email" } as const;

/** The server app of a project (keep the secret key on the server); see `StackServerApp`. */
export class ServerAppBase<TAdminApp extends ProjectAdmin> extends ClientAppBase<TAdminApp> {
  constructor(options: ServerAppOptions, access: AccessLevel | undefined, ownerAdminApp: OwnerAdminAppFactory<TAdminApp>) {
    super(
      options,
      access ?? { type: "server", publishableClientKey: options.publishableClientKey, secretServerKey: options.secretServerKey },
      ownerAdminApp,
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
      restrictedByAdmin: json.restricted_by_admin ?? false,
      restrictedByAdminReason: json.restricted_by_admin_reason ?? null,
      restrictedByAdminPrivateDetails: json.restricted_by_admin_private_details ?? null,
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
      revokeSession: async (sessionId) => {
        await this._serverRequest(`/auth/sessions/${encodeURIComponent(sessionId)}?user_id=${encodeURIComponent(json.id)}`, {
          method: "DELETE",
        });
      },
      revokeAllSessions: async () => {
        await this._serverRequest(`/auth/sessions?user_id=${encodeURIComponent(json.id)}`, { method: "DELETE" });
      },
      listActivity: (options) => activity.listActivity(this._serverRequest.bind(this), json.id, options),
      ...serverContactChannelMethods(this._serverRequest.bind(this), json.id),
      // connected-accounts
      ...connections.serverConnectionMethods(this._serverRequest.bind(this), json.id),
      // permissions
      ...permissions.userPermissionMethods(this._serverRequest.bind(this), json.id),
      ...permissions.serverPermissionMethods(this._serverRequest.bind(this), json.id),
      // payments
      ...payments.serverCustomerMethods(this._payments(), { customerType: "user", customerId: json.id }),
    };
  }

  /** @internal Payments requests at this app's key level. */
  _payments(): payments.PaymentsContext {
    return payments.serverContext(this, (path, options) => this._serverRequest(path, options));
  }

  /**
   * Creates a user (POST /users). A primary email signs in unless `primaryEmailAuthEnabled: false`:
   * the API's own default is off (as the wire), so the SDK says so explicitly.
   */
  async createUser(options: CreateUserOptions): Promise<ServerUser> {
    const body = userUpdateToWire(options);
    if (options.primaryEmail && options.primaryEmailAuthEnabled === undefined) body.primary_email_auth_enabled = true;
    if (options.isAnonymous !== undefined) body.is_anonymous = options.isAnonymous;
    return this._serverUser(await this._serverRequest<UserJson>("/users", { body }));
  }

  /** One page of users; `nextCursor` continues the list (null at the end). */
  async listUsers(options: ListUsersOptions = {}): Promise<ServerUser[] & { nextCursor: string | null }> {
    const q = new URLSearchParams();
    if (options.cursor) q.set("cursor", options.cursor);
    if (options.limit !== undefined) q.set("limit", String(options.limit));
    if (options.orderBy) q.set("order_by", ORDER_BY[options.orderBy]);
    if (options.desc !== undefined) q.set("desc", String(options.desc));
    if (options.query) q.set("query", options.query);
    if (options.includeAnonymous !== undefined) q.set("include_anonymous", String(options.includeAnonymous));
    if (options.onlyAnonymous !== undefined) q.set("only_anonymous", String(options.onlyAnonymous));
    // The API asks for include_anonymous=true beside only_anonymous=true.
    if (options.onlyAnonymous) q.set("include_anonymous", "true");
    if (options.includeRestricted !== undefined) q.set("include_restricted", String(options.includeRestricted));
    if (options.teamId) q.set("team_id", options.teamId);
    const list = await this._serverRequest<ListJson<UserJson>>(`/users${q.size ? `?${q}` : ""}`);
    return Object.assign(
      list.items.map((u) => this._serverUser(u)),
      { nextCursor: list.pagination?.next_cursor ?? null },
    );
  }

  /** A user by id (null when there is none), or with options: the session's user. */
  override getUser(options?: GetUserOptions): Promise<CurrentUserOf<TAdminApp> | null>;
  override getUser(userId: string): Promise<ServerUser | null>;
  override async getUser(arg?: string | GetUserOptions): Promise<CurrentUserOf<TAdminApp> | ServerUser | null> {
    if (typeof arg !== "string") return super.getUser(arg);
    try {
      return this._serverUser(await this._serverRequest<UserJson>(`/users/${encodeURIComponent(arg)}`));
    } catch (error) {
      if (error instanceof KnownError && error.code === "USER_NOT_FOUND") return null;
      throw error;
    }
  }
  // --- connected-accounts ---
  /**
   * Links a provider account to a user (no provider tokens come with it: use the OAuth link flow
   * for an account the app can act through). Expected failure: the account already signs in to
   * another user (OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN).
   *
   * @example
   * const result = await server.createOAuthProvider({ userId, providerConfigId: "github", accountId: "12345", allowSignIn: true, allowConnectedAccounts: true });
   * if (result.status === "ok") console.log(result.data.id);
   */
  createOAuthProvider(options: connections.CreateOAuthProviderOptions) {
    return connections.createOAuthProvider(this._serverRequest.bind(this), options);
  }
  // --- teams ---
  private teamMethods() {
    return teams.serverTeamMethods((path, options) => this._serverRequest(path, options), this.urls.teamInvitation, this._payments());
  }
  /**
   * Creates a team; with `creatorUserId` that user joins it with the creator defaults.
   *
   * @example
   * const team = await server.createTeam({ displayName: "Acme", creatorUserId: user.id });
   * await team.addUser(otherUser.id);
   */
  createTeam(options: teams.ServerTeamCreateOptions): Promise<teams.ServerTeam> {
    return this.teamMethods().createTeam(options);
  }
  /** Every team of the project, or those `userId` belongs to. */
  listTeams(options?: { userId?: string }): Promise<teams.ServerTeam[]> {
    return this.teamMethods().listTeams(options);
  }
  /** A team by id, or null when there is none. */
  getTeam(teamId: string): Promise<teams.ServerTeam | null> {
    return this.teamMethods().getTeam(teamId);
  }
  // --- api-keys ---
  /**
   * Validates a user API key presented to your back end: the key, or null when it is unknown,
   * expired, revoked or a team key.
   *
   * @example
   * const key = await server.validateUserApiKey(request.headers.get("x-api-key") ?? "");
   * if (!key) return new Response("Unauthorized", { status: 401 });
   * const user = await server.getUser(key.userId);
   */
  validateUserApiKey(apiKey: string): Promise<apiKeys.ApiKey<"user"> | null> {
    return apiKeys.validateApiKey(this._serverRequest.bind(this), "user", apiKey);
  }

  /**
   * Validates a team API key: the key (with `teamId`), or null when it is not a valid team key.
   *
   * @example
   * const key = await server.validateTeamApiKey(apiKey);
   */
  validateTeamApiKey(apiKey: string): Promise<apiKeys.ApiKey<"team"> | null> {
    return apiKeys.validateApiKey(this._serverRequest.bind(this), "team", apiKey);
  }

  /**
   * Sends an email to users (the reference's sendEmail): `userIds` or `allUsers`; `html` (with a
   * `subject`), a `templateId` with `variables`, or a `draftId`. Needs the project's own email
   * server. Answers each user's outcome; users without a primary email, or who unsubscribed from
   * `notificationCategoryName`, are skipped.
   *
   * @example
   * const results = await server.sendEmail({ userIds: [user.id], html: "<p>Welcome!</p>", subject: "Hello" });
   */
  sendEmail(options: emails.SendEmailOptions): Promise<emails.SendEmailResult[]> {
    return emails.sendEmail(this._serverRequest.bind(this), options);
  }

  /**
   * The user a valid user API key belongs to, or null (Stack's `getUser({ apiKey })`).
   *
   * @example
   * const user = await server.getUserByApiKey(apiKey);
   */
  async getUserByApiKey(apiKey: string): Promise<ServerUser | null> {
    const key = await this.validateUserApiKey(apiKey);
    return key ? this.getUser(key.userId) : null;
  }
  // --- data-vault ---
  /**
   * A data vault store of the project's config (`dataVault.stores.<id>`): values by key, encrypted
   * with your secret before they leave this server, sealed again at rest by Doorman.
   *
   * @example
   * const store = await server.getDataVaultStore("api-keys");
   * await store.setValue(userId, token, { secret: process.env.VAULT_SECRET! });
   * const token = await store.getValue(userId, { secret: process.env.VAULT_SECRET! }); // string | null
   */
  async getDataVaultStore(id: string): Promise<DataVaultStore> {
    return dataVaultStore(this._serverRequest.bind(this), id);
  }
  // --- payments ---
  private customer(selector: payments.CustomerSelector): payments.ServerCustomer {
    return payments.serverCustomerMethods(this._payments(), payments.targetOf(selector));
  }
  /**
   * An item of any customer (user, team or custom id), with quantity changes.
   *
   * @example
   * const credits = await server.getItem({ userId, itemId: "credits" });
   * if (!(await credits.tryDecreaseQuantity(1))) return new Response("Out of credits", { status: 402 });
   */
  override getItem(options: payments.CustomerSelector & { itemId: string }): Promise<payments.ServerItem> {
    return this.customer(options).getItem(options.itemId);
  }
  /** React: an item of any customer, kept up to date (needs the SDK's React entry). */
  override useItem(options: payments.CustomerSelector & { itemId: string }): payments.ServerItem {
    return this.customer(options).useItem(options.itemId);
  }
  /**
   * A purchase page URL for a customer and a configured or inline offer.
   *
   * @example
   * const url = await server.createCheckoutUrl({ teamId, offerId: "team-plan", returnUrl: "https://app.example.com/billing" });
   */
  createCheckoutUrl(options: payments.CustomerSelector & payments.CheckoutOptions): Promise<string> {
    const { target, rest } = payments.splitCustomer<payments.CheckoutOptions>(options);
    return payments.serverCustomerMethods(this._payments(), target).createCheckoutUrl(rest);
  }
  /**
   * Gives a customer an offer without payment (its items included).
   *
   * @example
   * await server.grantProduct({ userId, offerId: "starter", quantity: 1 });
   */
  grantProduct(options: payments.CustomerSelector & payments.GrantProductOptions): Promise<void> {
    const { target, rest } = payments.splitCustomer<payments.GrantProductOptions>(options);
    return payments.serverCustomerMethods(this._payments(), target).grantProduct(rest);
  }
  /** The products (offers) a customer owns. */
  listProducts(options: payments.CustomerSelector & CustomerProductsListOptions): Promise<CustomerProductsList> {
    return this.customer(options).listProducts({ cursor: options.cursor, limit: options.limit });
  }
  /** A customer's purchases and subscriptions, newest first. */
  listPurchases(options: payments.CustomerSelector): Promise<Purchase[]> {
    return this.customer(options).listPurchases();
  }
}
