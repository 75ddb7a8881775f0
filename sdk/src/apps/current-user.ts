/** The signed-in user of a client app: fields plus account, session and (internal project) owner methods. */

import { err, ok, type Result } from "../interface/result";
import { KnownError } from "../shared/known-errors";
import type { StackAdminApp } from "./admin-app";
import { type AdminProject, adminProjectFromJson } from "./admin-project";
import { snakeKeys } from "./case";
import type { StackClientApp } from "./client-app";
import type { ContactChannel, NotificationCategory } from "./contact-channels";
import * as channels from "./contact-channels";
import { makeOwnerAdminApp } from "./registry";
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

/** A project the user owns, with an admin app acting through the user's session. */
export type AdminOwnedProject = AdminProject & { app: StackAdminApp };

export type CurrentUser = UserFields & {
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
  listOwnedProjects(): Promise<AdminOwnedProject[]>;
  createProject(options: { displayName: string; description?: string; config?: Record<string, unknown> }): Promise<AdminOwnedProject>;
};

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

function ownedProject(app: StackClientApp, json: ProjectAdminJson): AdminOwnedProject {
  const admin = makeOwnerAdminApp(app, json.id, app._session) as StackAdminApp;
  return Object.assign(adminProjectFromJson(admin, json), { app: admin });
}

async function passwordCall(app: StackClientApp, path: string, body: Record<string, string>): Promise<Result<undefined>> {
  try {
    await app._userRequest(path, { body });
  } catch (error) {
    if (error instanceof KnownError) return err(error);
    throw error;
  }
  await app._refreshUser();
  return ok(undefined);
}

export function makeCurrentUser(app: StackClientApp, json: UserJson): CurrentUser {
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
    async listOwnedProjects() {
      const list = await app._userRequest<ListJson<ProjectAdminJson>>("/internal/projects");
      return list.items.map((p) => ownedProject(app, p));
    },
    async createProject(options) {
      const body: Record<string, unknown> = { display_name: options.displayName };
      if (options.description !== undefined) body.description = options.description;
      if (json.selected_team_id) body.owner_team_id = json.selected_team_id;
      if (options.config) body.config = snakeKeys(options.config);
      const created = await app._userRequest<ProjectAdminJson>("/internal/projects", { body });
      return ownedProject(app, created);
    },
  };
}
