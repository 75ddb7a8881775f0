/**
 * The signed-in user of an app: fields plus account, session and (internal project) owner
 * methods. Depends on the app core and the feature modules only, never on an app class.
 */

import { err, ok, type Result } from "../interface/result";
import { KnownError } from "../shared/known-errors";
import * as activity from "./activity";
import { type AdminProject, adminProjectFromJson, type ProjectAdmin } from "./admin-project";
import * as apiKeys from "./api-keys";
import type { AppCore } from "./app-core";
import { snakeKeys } from "./case";
import * as connections from "./connected-accounts";
import type { ContactChannel, NotificationCategory } from "./contact-channels";
import * as channels from "./contact-channels";
import * as devInbox from "./dev-inbox";
import type { OAuthStartOptions } from "./oauth";
import * as oauthConsent from "./oauth-consent";
import * as passkeys from "./passkeys";
import * as payments from "./payments";
import * as permissions from "./permissions";
import * as teams from "./teams";
import { type UserFields, type UserUpdateOptions, userFieldsFromJson, userUpdateToWire } from "./users";
import type { ListJson, ProjectAdminJson, SessionJson, UserJson } from "./wire-types";

export type ActiveSession = {
  id: string;
  userId: string;
  createdAt: Date;
  isImpersonation: boolean;
  lastUsedAt: Date | null;
  isCurrentSession: boolean;
  geoInfo: Record<string, unknown> | null;
};

/**
 * Builds the admin app an owner uses for one of their projects, acting through the owner's
 * session. The app classes pass it in (the admin app sits above this module), which is why the
 * user types take the admin app's type as a parameter.
 */
export type OwnerAdminAppFactory<TAdminApp extends ProjectAdmin> = (owner: AppCore, projectId: string) => TAdminApp;

/** The app a current user belongs to: the core plus the client app's sign-out and OAuth start. */
export type UserApp = AppCore & {
  signOut(options?: { redirectUrl?: string }): Promise<void>;
  _startOAuth(provider: string, options: OAuthStartOptions): Promise<void>;
};

/** A project the user owns, with an admin app acting through the user's session. */
export type AdminOwnedProjectOf<TAdminApp> = AdminProject & { app: TAdminApp };

/** The signed-in user of a client app; `CurrentUser` (the SDK entry point) fixes `TAdminApp` to `StackAdminApp`. */
export type CurrentUserOf<TAdminApp> = UserFields & {
  update(update: UserUpdateOptions): Promise<void>;
  /** Changes the password; other sessions end. Expected failures (wrong old password, too short…) are values. */
  updatePassword(options: { oldPassword: string; newPassword: string }): Promise<Result<undefined>>;
  /** Sets a first password for a user without one. */
  setPassword(options: { password: string }): Promise<Result<undefined>>;
  delete(): Promise<void>;
  signOut(options?: { redirectUrl?: string }): Promise<void>;
  listContactChannels(): Promise<ContactChannel[]>;
  createContactChannel(options: { value: string; type?: "email"; usedForAuth: boolean; isPrimary?: boolean }): Promise<ContactChannel>;
  /** Emails a verification link to the primary email. */
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<Result<undefined>>;
  listNotificationCategories(): Promise<NotificationCategory[]>;
  getAuthJson(): Promise<{ accessToken: string | null; refreshToken: string | null }>;
  getAuthHeaders(): Promise<{ "x-stack-auth": string }>;
  listSessions(): Promise<ActiveSession[]>;
  revokeSession(sessionId: string): Promise<void>;
  /**
   * Signs out of all other devices: ends every session of this user except the current one, and
   * their access tokens stop working at once on Doorman's API (a Doorman extension).
   *
   * @example
   * await user.revokeOtherSessions();
   */
  revokeOtherSessions(): Promise<void>;
  /**
   * The user's recent security events, newest first (sign-ins with device and place, password
   * changes, passkeys, revoked sessions…); a Doorman extension.
   *
   * @example
   * const { items, nextCursor } = await user.listActivity({ limit: 20 });
   */
  listActivity(options?: activity.ListActivityOptions): Promise<activity.UserActivityPage>;
  /**
   * Development only: the mail this project sent to the user's primary email through the dev
   * outbox (codes, links, bodies), newest first; null when the worker is not in development.
   *
   * @example
   * const [latest] = (await user.listDevInbox()) ?? [];
   */
  listDevInbox(): Promise<devInbox.DevInboxMessage[] | null>;
  listOwnedProjects(): Promise<AdminOwnedProjectOf<TAdminApp>[]>;
  createProject(options: {
    displayName: string;
    description?: string;
    config?: Record<string, unknown>;
  }): Promise<AdminOwnedProjectOf<TAdminApp>>;
  /** Moves one of the user's projects to another of the user's teams (the owner team administers it). */
  transferProject(projectId: string, newTeamId: string): Promise<void>;
  // --- oauth ---
  /** Links a provider account to this user: the browser goes to the provider and back to the oauth-callback page. */
  linkOAuthAccount(provider: string, options?: { providerScope?: string[]; afterCallbackRedirectUrl?: string }): Promise<void>;
  // --- oauth-consent ---
  /**
   * Doorman: the third-party apps this user authorized (through the project's OpenID provider), oldest first.
   *
   * @example
   * for (const a of await user.listAuthorizedApps()) console.log(a.client.name, a.scopes);
   */
  listAuthorizedApps(): Promise<oauthConsent.AuthorizedApp[]>;
  /**
   * Doorman: takes an app's access away: the consent is forgotten and its tokens stop working.
   *
   * @example
   * await user.revokeAuthorizedApp(app.client.clientId);
   */
  revokeAuthorizedApp(clientId: string): Promise<void>;
  // --- connected-accounts ---
  /** The provider accounts linked to this user. */
  listOAuthProviders(): Promise<connections.OAuthProvider[]>;
  /** One linked provider account by its id, or null. */
  getOAuthProvider(id: string): Promise<connections.OAuthProvider | null>;
  /** The accounts the app may act through (provider access tokens). */
  listConnectedAccounts(): Promise<connections.OAuthConnection[]>;
  /** A connected account by provider (with a usable token for `scopes`) or by provider account; null when there is none. */
  getConnectedAccount: ReturnType<typeof connections.clientConnectionMethods>["getConnectedAccount"];
  // --- passkeys ---
  /** Registers a passkey (replacing any previous one) and turns on passkey sign-in. */
  registerPasskey(): Promise<Result<undefined>>;
  // --- mfa ---
  /**
   * Doorman: ten new TOTP recovery codes (the old set stops working); shown once. Needs TOTP on.
   *
   * @example
   * const codes = await user.generateRecoveryCodes();
   */
  generateRecoveryCodes(): Promise<string[]>;
  // --- teams ---
  /** Creates a team with this user as creator; it becomes the selected team. */
  createTeam(options: teams.TeamCreateOptions): Promise<teams.UserTeam>;
  listTeams(): Promise<teams.UserTeam[]>;
  /** One of the user's teams, or null when the user is not a member. */
  getTeam(teamId: string): Promise<teams.UserTeam | null>;
  setSelectedTeam(team: { id: string } | string | null): Promise<void>;
  leaveTeam(team: { id: string } | string): Promise<void>;
  /** Open invitations sent to the user's verified emails. */
  listTeamInvitations(): Promise<teams.TeamInvitation[]>;
  // --- permissions ---
  /** Team permissions with a team (`user.hasPermission(team, "read")`), project permissions without. */
  hasPermission: permissions.UserPermissions["hasPermission"];
  getPermission: permissions.UserPermissions["getPermission"];
  /** Recursive by default: includes permissions held through containment. */
  listPermissions: permissions.UserPermissions["listPermissions"];
  // --- api-keys ---
  /** Creates an API key for this user; the returned first view is the only one with the full `value`. */
  createApiKey(options: apiKeys.CreateApiKeyOptions): Promise<apiKeys.ApiKeyFirstView<"user">>;
  /** This user's API keys, newest first (last four characters only). */
  listApiKeys(): Promise<apiKeys.ApiKey<"user">[]>;
} & payments.ClientCustomer;

export function sessionFromJson(json: SessionJson): ActiveSession {
  return {
    id: json.id,
    userId: json.user_id,
    createdAt: new Date(json.created_at),
    isImpersonation: json.is_impersonation,
    lastUsedAt: json.last_used_at ? new Date(json.last_used_at) : null,
    isCurrentSession: json.is_current_session ?? false,
    geoInfo: json.last_used_at_end_user_ip_info ?? null,
  };
}

function ownedProject<TAdminApp extends ProjectAdmin>(
  app: AppCore,
  json: ProjectAdminJson,
  ownerAdminApp: OwnerAdminAppFactory<TAdminApp>,
): AdminOwnedProjectOf<TAdminApp> {
  const admin = ownerAdminApp(app, json.id);
  return Object.assign(adminProjectFromJson(admin, json), { app: admin });
}

async function passwordCall(app: AppCore, path: string, body: Record<string, string>): Promise<Result<undefined>> {
  try {
    await app._userRequest(path, { body });
  } catch (error) {
    if (error instanceof KnownError) return err(error);
    throw error;
  }
  await app._refreshUser();
  return ok(undefined);
}

export function makeCurrentUser<TAdminApp extends ProjectAdmin>(
  app: UserApp,
  json: UserJson,
  ownerAdminApp: OwnerAdminAppFactory<TAdminApp>,
): CurrentUserOf<TAdminApp> {
  return {
    ...userFieldsFromJson(json),
    async update(update) {
      await app._userRequest("/users/me", { method: "PATCH", body: userUpdateToWire(update) });
      await app._refreshUser();
    },
    async delete() {
      await app._userRequest("/users/me", { method: "DELETE" });
      app._session.clear();
      await app._refreshUser();
    },
    async updatePassword({ oldPassword, newPassword }) {
      return passwordCall(app, "/auth/password/update", { old_password: oldPassword, new_password: newPassword });
    },
    async setPassword({ password }) {
      return passwordCall(app, "/auth/password/set", { password });
    },
    signOut: (options) => app.signOut(options),
    listContactChannels: () => channels.listContactChannels(app),
    createContactChannel: (options) => channels.createContactChannel(app, options),
    async sendVerificationEmail(options = {}) {
      if (!json.primary_email) throw new Error("User does not have a primary email");
      return channels.sendPrimaryVerificationEmail(app, json.primary_email, options.callbackUrl);
    },
    listNotificationCategories: () => channels.listNotificationCategories(app),
    async getAuthJson() {
      const accessToken = await app._session.getAccessToken();
      return { accessToken, refreshToken: app._session.tokens().refreshToken };
    },
    async getAuthHeaders() {
      return { "x-stack-auth": JSON.stringify(await this.getAuthJson()) };
    },
    async listSessions() {
      const list = await app._userRequest<ListJson<SessionJson>>("/auth/sessions?user_id=me");
      return list.items.map(sessionFromJson);
    },
    async revokeSession(sessionId) {
      await app._userRequest(`/auth/sessions/${encodeURIComponent(sessionId)}?user_id=me`, { method: "DELETE" });
    },
    async revokeOtherSessions() {
      await app._userRequest("/auth/sessions?user_id=me", { method: "DELETE" });
    },
    listActivity: (options) => activity.listActivity(app._userRequest.bind(app), "me", options),
    listDevInbox: () => devInbox.listOwnDevInbox(app._userRequest.bind(app)),
    async listOwnedProjects() {
      const list = await app._userRequest<ListJson<ProjectAdminJson>>("/internal/projects");
      return list.items.map((p) => ownedProject(app, p, ownerAdminApp));
    },
    async createProject(options) {
      const body: Record<string, unknown> = { display_name: options.displayName };
      if (options.description !== undefined) body.description = options.description;
      if (json.selected_team_id) body.owner_team_id = json.selected_team_id;
      if (options.config) body.config = snakeKeys(options.config);
      const created = await app._userRequest<ProjectAdminJson>("/internal/projects", { body });
      return ownedProject(app, created, ownerAdminApp);
    },
    async transferProject(projectId, newTeamId) {
      await app._userRequest("/internal/projects/transfer", { body: { project_id: projectId, new_team_id: newTeamId } });
    },
    // --- oauth ---
    linkOAuthAccount: (provider, options = {}) => app._startOAuth(provider, { ...options, type: "link" }),
    // --- oauth-consent ---
    listAuthorizedApps: () => oauthConsent.listAuthorizedApps(app._userRequest.bind(app)),
    revokeAuthorizedApp: (clientId) => oauthConsent.revokeAuthorizedApp(app._userRequest.bind(app), clientId),
    // --- connected-accounts ---
    ...connections.clientConnectionMethods(app._userRequest.bind(app), "me", {
      onChange: () => app._refreshUser(),
      // or: "redirect": link the provider again, asking for the scopes, and come back to this page.
      connectAgain: (provider, scopes) =>
        app._startOAuth(provider, {
          type: "link",
          providerScope: scopes,
          afterCallbackRedirectUrl: typeof window !== "undefined" ? window.location.href : undefined,
        }),
    }),
    // --- passkeys ---
    registerPasskey: () => passkeys.registerPasskey(app),
    // --- mfa ---
    generateRecoveryCodes: () =>
      app._userRequest<{ recovery_codes: string[] }>("/auth/mfa/recovery-codes", { body: {} }).then((r) => r.recovery_codes),
    // --- teams ---
    ...teams.userTeamMethods(app),
    // --- permissions ---
    ...permissions.userPermissionMethods(app._userRequest.bind(app), "me"),
    // --- api-keys ---
    createApiKey: (options) => apiKeys.createApiKey<"user">(app._userRequest.bind(app), { userId: json.id }, options),
    listApiKeys: () => apiKeys.listApiKeys<"user">(app._userRequest.bind(app), { userId: json.id }),
    // --- payments ---
    ...payments.clientCustomerMethods(payments.clientContext(app), { customerType: "user", customerId: json.id }),
  };
}
