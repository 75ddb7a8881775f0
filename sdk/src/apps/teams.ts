/**
 * Teams in the SDK: the signed-in user's teams (create, list, select, leave; each team with
 * update, delete, invitations and members), the same with the secret key on a server app, and
 * team invitation codes. Mutations refresh the cached team list and the current user (whose
 * selected team may change), as SPEC §4 "Teams" asks.
 */
import { AsyncCache } from "../cache";
import type { RequestOptions } from "../interface/http";
import type { Result } from "../interface/result";
import { KnownError } from "../shared/known-errors";
import { type TeamApiKeyMethods, teamApiKeyMethods } from "./api-keys";
import type { AppCore } from "./app-core";
import { defined } from "./case";
import { absoluteUrl, asResult } from "./email-auth";
import * as payments from "./payments";
import { type TeamSsoManagement, teamSsoManagement } from "./sso-management";
import { type Team, teamFromJson } from "./users";
import type {
  InvitationCodeDetailsJson,
  TeamInvitationJson as InvitationJson,
  ListJson,
  TeamMemberProfileJson as ProfileJson,
  TeamJson,
} from "./wire-types";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

export type TeamUpdateOptions = { displayName?: string; profileImageUrl?: string | null; clientMetadata?: unknown };
export type TeamCreateOptions = TeamUpdateOptions & { displayName: string };
export type ServerTeamUpdateOptions = TeamUpdateOptions & { clientReadOnlyMetadata?: unknown; serverMetadata?: unknown };
export type ServerTeamCreateOptions = ServerTeamUpdateOptions & { displayName: string; creatorUserId?: string };

/** A pending invitation (its code is only in the email). */
export type TeamInvitation = {
  readonly id: string;
  readonly teamId: string;
  readonly teamDisplayName: string;
  readonly recipientEmail: string;
  readonly expiresAt: Date;
  revoke(): Promise<void>;
};

/** A member of a team, with its per-team profile. */
export type TeamUser = { readonly id: string; readonly teamProfile: { displayName: string | null; profileImageUrl: string | null } };

/** Operations every team object has, for the user (client) and for a server app alike. */
type TeamOperations<Update> = {
  update(update: Update): Promise<void>;
  delete(): Promise<void>;
  /** Emails an invitation link (default callback: the app's team-invitation page). */
  inviteUser(options: { email: string; callbackUrl?: string }): Promise<void>;
  listInvitations(): Promise<TeamInvitation[]>;
  listUsers(): Promise<TeamUser[]>;
  /** Removes a member (a client needs $remove_members for anyone but itself). */
  removeUser(userId: string): Promise<void>;
  /**
   * The team's enterprise SSO (issue 31): connections, domains, SCIM token, setup links, events. A
   * client needs `$update_team` in the team.
   *
   * @example
   * const sso = team.getSso();
   * const domain = await sso.claimDomain("acme.com"); // publish domain.txtRecord, then sso.verifyDomain(domain.id)
   */
  getSso(): TeamSsoManagement;
};

export type UserTeam = Team & TeamOperations<TeamUpdateOptions> & TeamApiKeyMethods & payments.ClientCustomer;

/** A member as a server app sees it: the team profile plus the user's own name and primary email. */
export type ServerTeamUser = TeamUser & { readonly displayName: string | null; readonly primaryEmail: string | null };

/** One team permission a member holds (directly, or through containment when listed recursively). */
export type TeamMemberPermission = { readonly userId: string; readonly id: string };

export type ServerTeam = Team &
  Omit<TeamOperations<ServerTeamUpdateOptions>, "listUsers"> &
  TeamApiKeyMethods &
  payments.ServerCustomer & {
    readonly createdAt: Date;
    readonly serverMetadata: unknown;
    /** The members, each with the user's display name and primary email. */
    listUsers(): Promise<ServerTeamUser[]>;
    addUser(userId: string): Promise<void>;
    /**
     * The team permissions of every member (or of one, with `userId`); recursive (permissions
     * held through containment included) unless `recursive: false`, which lists direct grants only.
     */
    listMemberPermissions(options?: { userId?: string; recursive?: boolean }): Promise<TeamMemberPermission[]>;
    /** Grants a member a team permission (a definition of the team scope, `$…` system ones included). */
    grantMemberPermission(userId: string, permissionId: string): Promise<void>;
    /** Revokes a member's direct grant of a team permission. */
    revokeMemberPermission(userId: string, permissionId: string): Promise<void>;
  };

const enc = encodeURIComponent;

export function teamBodyOf(options: ServerTeamUpdateOptions): Record<string, unknown> {
  return defined({
    display_name: options.displayName,
    profile_image_url: options.profileImageUrl,
    client_metadata: options.clientMetadata,
    client_read_only_metadata: options.clientReadOnlyMetadata,
    server_metadata: options.serverMetadata,
  });
}

/** The parts of a team object that only need a requester and the app's invitation page. */
function teamOperations(request: Request, team: TeamJson, invitationUrl: string, after: () => Promise<unknown>) {
  const path = `/teams/${enc(team.id)}`;
  return {
    async update(update: ServerTeamUpdateOptions) {
      await request(path, { method: "PATCH", body: teamBodyOf(update) });
      await after();
    },
    async delete() {
      await request(path, { method: "DELETE" });
      await after();
    },
    async inviteUser(options: { email: string; callbackUrl?: string }) {
      const body = { team_id: team.id, email: options.email, callback_url: absoluteUrl(options.callbackUrl ?? invitationUrl) };
      await request("/team-invitations/send-code", { body });
    },
    async listInvitations(): Promise<TeamInvitation[]> {
      const list = await request<ListJson<InvitationJson>>(`/team-invitations?team_id=${enc(team.id)}`);
      return list.items.map((i) => invitationFromJson(request, i));
    },
    async listUsers(): Promise<TeamUser[]> {
      const list = await request<ListJson<ProfileJson>>(`/team-member-profiles?team_id=${enc(team.id)}`);
      return list.items.map((p) => ({ id: p.user_id, teamProfile: { displayName: p.display_name, profileImageUrl: p.profile_image_url } }));
    },
    async removeUser(userId: string) {
      await request(`/team-memberships/${enc(team.id)}/${enc(userId)}`, { method: "DELETE" });
      await after();
    },
    getSso: () => teamSsoManagement(request, team.id),
  };
}

export function invitationFromJson(request: Request, json: InvitationJson): TeamInvitation {
  return {
    id: json.id,
    teamId: json.team_id,
    teamDisplayName: json.team_display_name,
    recipientEmail: json.recipient_email,
    expiresAt: new Date(json.expires_at_millis),
    async revoke() {
      await request(`/team-invitations/${enc(json.id)}?team_id=${enc(json.team_id)}`, { method: "DELETE" });
    },
  };
}

// ---- the signed-in user's teams (client) -----------------------------------------------------

const caches = new WeakMap<AppCore, AsyncCache<TeamJson[]>>();

function teamsCache(app: AppCore): AsyncCache<TeamJson[]> {
  let cache = caches.get(app);
  if (!cache) {
    cache = new AsyncCache(async () => (await app._userRequest<ListJson<TeamJson>>("/teams?user_id=me")).items);
    caches.set(app, cache);
  }
  return cache;
}

/** @internal After a team mutation: the list and the current user (selected team) are re-read. */
export async function refreshTeams(app: AppCore): Promise<void> {
  teamsCache(app).invalidate("me");
  await app._refreshUser();
}

/** @internal For React: called whenever the cached team list changes. */
export function subscribeTeams(app: AppCore, callback: () => void): () => void {
  return teamsCache(app).subscribe("me", callback);
}

export function userTeamFromJson(app: AppCore, json: TeamJson): UserTeam {
  const request: Request = (path, options) => app._userRequest(path, options);
  return {
    ...teamFromJson(json),
    ...teamOperations(request, json, app.urls.teamInvitation, () => refreshTeams(app)),
    // --- api-keys ---
    ...teamApiKeyMethods(request, json.id),
    // --- payments ---
    ...payments.clientCustomerMethods(payments.clientContext(app), { customerType: "team", customerId: json.id }),
  };
}

/** The user-side team methods, spread into the current user object. */
export function userTeamMethods(app: AppCore) {
  return {
    /** Creates a team with the user as its creator; it becomes the selected team. */
    async createTeam(options: TeamCreateOptions): Promise<UserTeam> {
      const json = await app._userRequest<TeamJson>("/teams", { body: { ...teamBodyOf(options), creator_user_id: "me" } });
      await refreshTeams(app);
      return userTeamFromJson(app, json);
    },
    async listTeams(): Promise<UserTeam[]> {
      return (await teamsCache(app).get("me")).map((t) => userTeamFromJson(app, t));
    },
    /** One of the user's teams, or null when the user is not a member. */
    async getTeam(teamId: string): Promise<UserTeam | null> {
      const json = (await teamsCache(app).get("me")).find((t) => t.id === teamId);
      return json ? userTeamFromJson(app, json) : null;
    },
    async setSelectedTeam(team: { id: string } | string | null): Promise<void> {
      const id = team === null ? null : typeof team === "string" ? team : team.id;
      await app._userRequest("/users/me", { method: "PATCH", body: { selected_team_id: id } });
      await app._refreshUser();
    },
    async leaveTeam(team: { id: string } | string): Promise<void> {
      const id = typeof team === "string" ? team : team.id;
      await app._userRequest(`/team-memberships/${enc(id)}/me`, { method: "DELETE" });
      await refreshTeams(app);
    },
    /** Open invitations sent to the user's verified emails. */
    async listTeamInvitations(): Promise<TeamInvitation[]> {
      const list = await app._userRequest<ListJson<InvitationJson>>("/team-invitations?user_id=me");
      return list.items.map((i) => invitationFromJson((path, options) => app._userRequest(path, options), i));
    },
  };
}

// ---- invitation codes (client app) ------------------------------------------------------------

/** Joins the team of an invitation code (single use); the user must be signed in and unrestricted. */
export async function acceptTeamInvitation(app: AppCore, code: string): Promise<Result<undefined>> {
  const result = await asResult(async () => {
    await app._userRequest("/team-invitations/accept", { body: { code } });
    return undefined;
  });
  if (result.status === "ok") await refreshTeams(app);
  return result;
}

export function getTeamInvitationDetails(app: AppCore, code: string): Promise<Result<{ teamId: string; teamDisplayName: string }>> {
  return asResult(async () => {
    const json = await app._userRequest<InvitationCodeDetailsJson>("/team-invitations/accept/details", {
      body: { code },
    });
    return { teamId: json.team_id, teamDisplayName: json.team_display_name };
  });
}

export function verifyTeamInvitationCode(app: AppCore, code: string): Promise<Result<undefined>> {
  return asResult(async () => {
    await app._userRequest("/team-invitations/accept/check-code", { body: { code } });
    return undefined;
  });
}

// ---- teams with the secret key (server app) ---------------------------------------------------

export function serverTeamFromJson(
  request: Request,
  json: TeamJson,
  invitationUrl: string,
  paymentsContext: payments.PaymentsContext,
): ServerTeam {
  const grantPath = (userId: string, permissionId: string) => `/team-permissions/${enc(json.id)}/${enc(userId)}/${enc(permissionId)}`;
  return {
    ...teamFromJson(json),
    createdAt: new Date(json.created_at_millis ?? 0),
    serverMetadata: json.server_metadata ?? null,
    ...teamOperations(request, json, invitationUrl, async () => undefined),
    async listUsers(): Promise<ServerTeamUser[]> {
      const list = await request<ListJson<ProfileJson>>(`/team-member-profiles?team_id=${enc(json.id)}`);
      return list.items.map((p) => ({
        id: p.user_id,
        teamProfile: { displayName: p.display_name, profileImageUrl: p.profile_image_url },
        displayName: p.user?.display_name ?? null,
        primaryEmail: p.user?.primary_email ?? null,
      }));
    },
    async addUser(userId: string) {
      await request(`/team-memberships/${enc(json.id)}/${enc(userId)}`, { body: {} });
    },
    async listMemberPermissions(options = {}) {
      const q = new URLSearchParams({ team_id: json.id, recursive: String(options.recursive ?? true) });
      if (options.userId) q.set("user_id", options.userId);
      const list = await request<ListJson<{ id: string; user_id: string }>>(`/team-permissions?${q}`);
      return list.items.map((p) => ({ userId: p.user_id, id: p.id }));
    },
    async grantMemberPermission(userId: string, permissionId: string) {
      await request(grantPath(userId, permissionId), { method: "POST", body: {} });
    },
    async revokeMemberPermission(userId: string, permissionId: string) {
      await request(grantPath(userId, permissionId), { method: "DELETE" });
    },
    // --- api-keys ---
    ...teamApiKeyMethods(request, json.id),
    // --- payments ---
    ...payments.serverCustomerMethods(paymentsContext, { customerType: "team", customerId: json.id }),
  };
}

/** The server-side team methods of a server app. */
export function serverTeamMethods(request: Request, invitationUrl: string, paymentsContext: payments.PaymentsContext) {
  return {
    async createTeam(options: ServerTeamCreateOptions): Promise<ServerTeam> {
      const body = teamBodyOf(options);
      if (options.creatorUserId) body.creator_user_id = options.creatorUserId;
      return serverTeamFromJson(request, await request<TeamJson>("/teams", { body }), invitationUrl, paymentsContext);
    },
    /** Every team of the project, or those of one user. */
    async listTeams(options: { userId?: string } = {}): Promise<ServerTeam[]> {
      const list = await request<ListJson<TeamJson>>(options.userId ? `/teams?user_id=${enc(options.userId)}` : "/teams");
      return list.items.map((t) => serverTeamFromJson(request, t, invitationUrl, paymentsContext));
    },
    /** A team by id, or null. */
    async getTeam(teamId: string): Promise<ServerTeam | null> {
      try {
        return serverTeamFromJson(request, await request<TeamJson>(`/teams/${enc(teamId)}`), invitationUrl, paymentsContext);
      } catch (error) {
        if (error instanceof KnownError && error.code === "TEAM_NOT_FOUND") return null;
        throw error;
      }
    },
  };
}
