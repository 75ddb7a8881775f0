/** Test helpers for teams: a project set up for team tests, and grant/revoke/add through the server API. */
import { type CallOptions, call, createProjectWithKeys, type SignedUp, signUp } from "./api";

export type TeamProject = Awaited<ReturnType<typeof createProjectWithKeys>>;

/**
 * A project where clients may create teams and new members start with NO permissions, so each
 * test grants exactly what it checks (creators still get team_admin).
 */
export function teamProject(config: Record<string, unknown> = {}): Promise<TeamProject> {
  return createProjectWithKeys({ client_team_creation_enabled: true, team_member_default_permissions: [], ...config });
}

export const asUser = (p: TeamProject, user: SignedUp): CallOptions => ({ ...p.client, accessToken: user.accessToken });

/** A team created by `user` through the client API (the user becomes its creator). */
export async function createTeamAs(p: TeamProject, user: SignedUp, displayName = "Team"): Promise<string> {
  const res = await call("/teams", { ...asUser(p, user), body: { display_name: displayName, creator_user_id: "me" } });
  if (res.status !== 201) throw new Error(`team create failed: ${res.status} ${res.text}`);
  return res.body.id;
}

export async function addMember(p: TeamProject, teamId: string, userId: string): Promise<void> {
  const res = await call(`/team-memberships/${teamId}/${userId}`, { ...p.server, body: {} });
  if (res.status !== 201) throw new Error(`add member failed: ${res.status} ${res.text}`);
}

export async function grant(p: TeamProject, teamId: string, userId: string, permissionId: string): Promise<void> {
  const res = await call(`/team-permissions/${teamId}/${userId}/${encodeURIComponent(permissionId)}`, { ...p.server, body: {} });
  if (res.status >= 300) throw new Error(`grant failed: ${res.status} ${res.text}`);
}

export async function revoke(p: TeamProject, teamId: string, userId: string, permissionId: string): Promise<void> {
  const res = await call(`/team-permissions/${teamId}/${userId}/${encodeURIComponent(permissionId)}`, { ...p.server, method: "DELETE" });
  if (res.status >= 300) throw new Error(`revoke failed: ${res.status} ${res.text}`);
}

/** The ids of the user's (recursive) permissions in the team, as the server sees them. */
export async function permissionsOf(p: TeamProject, teamId: string, userId: string): Promise<string[]> {
  const res = await call(`/team-permissions?team_id=${teamId}&user_id=${userId}&recursive=true`, p.server);
  if (res.status !== 200) throw new Error(`list permissions failed: ${res.status} ${res.text}`);
  return (res.body.items as { id: string }[]).map((i) => i.id).sort();
}

/** A team with a creator and a plain member (no permissions). */
export async function teamWithMember(p: TeamProject) {
  const creator = await signUp(p.client);
  const member = await signUp(p.client);
  const teamId = await createTeamAs(p, creator, "Crew");
  await addMember(p, teamId, member.userId);
  return { creator, member, teamId };
}
