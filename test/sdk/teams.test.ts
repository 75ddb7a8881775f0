/** The SDK's team methods (user, server, invitations) against the real worker. */

import { describe, expect, it } from "vitest";
import { StackClientApp, StackServerApp } from "../../sdk/src";
import { uniqueEmail } from "../helpers/api";
import { codeFrom, waitForOutbox } from "../helpers/mail";
import { type TeamProject, teamProject } from "../helpers/teams";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const, tokenStore: "memory" as const };
const CALLBACK = "http://localhost:3000/handler/team-invitation";

function apps(p: TeamProject) {
  const client = () => new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
  const server = new StackServerApp({ ...base, projectId: p.projectId, secretServerKey: p.server.secretServerKey });
  return { client, server };
}

async function signedIn(app: StackClientApp, email = uniqueEmail("sdk-team")) {
  const result = await app.signUpWithCredential({ email, password: "team password 1", noRedirect: true });
  if (result.status !== "ok") throw new Error("sign-up failed");
  return (await app.getUser({ or: "throw" }))!;
}

describe("user teams", () => {
  it("creates (and selects), lists, updates, and deletes a team with fresh caches", async () => {
    const p = await teamProject();
    const app = apps(p).client();
    const user = await signedIn(app);
    expect(await user.listTeams()).toEqual([]);
    const team = await user.createTeam({ displayName: "Rocket Club", clientMetadata: { color: "red" } });
    expect(team).toMatchObject({ displayName: "Rocket Club", clientMetadata: { color: "red" }, profileImageUrl: null });
    // Listed at once (the create refreshed the cached list) and selected.
    expect((await user.listTeams()).map((t) => t.id)).toEqual([team.id]);
    expect((await app.getUser())!.selectedTeam?.id).toBe(team.id);
    expect((await user.getTeam(team.id))?.displayName).toBe("Rocket Club");
    expect(await user.getTeam(crypto.randomUUID())).toBeNull();

    await team.update({ displayName: "Rocket Society" });
    expect((await user.listTeams())[0]!.displayName).toBe("Rocket Society");
    expect((await app.getUser())!.selectedTeam?.displayName).toBe("Rocket Society");
    await team.delete();
    expect(await user.listTeams()).toEqual([]);
    expect((await app.getUser())!.selectedTeamId).toBeNull();
  });

  it("selects and leaves teams; members are listed with their profiles", async () => {
    const p = await teamProject();
    const { client, server } = apps(p);
    const app = client();
    const user = await signedIn(app);
    const team = await user.createTeam({ displayName: "Crew" });
    await user.setSelectedTeam(null);
    expect((await app.getUser())!.selectedTeamId).toBeNull();
    await user.setSelectedTeam(team);
    expect((await app.getUser())!.selectedTeamId).toBe(team.id);

    const other = await signedIn(client());
    const serverTeam = await server.getTeam(team.id);
    await serverTeam!.addUser(other.id);
    const members = await team.listUsers();
    expect(members.map((m) => m.id).sort()).toEqual([user.id, other.id].sort());
    expect(members[0]!.teamProfile).toEqual({ displayName: null, profileImageUrl: null });

    await user.leaveTeam(team);
    expect(await user.listTeams()).toEqual([]);
    expect((await app.getUser())!.selectedTeamId).toBeNull();
  });

  it("permission errors surface as known errors", async () => {
    const p = await teamProject();
    const { client, server } = apps(p);
    const owner = await signedIn(client());
    const team = await owner.createTeam({ displayName: "Locked" });
    const memberApp = client();
    const member = await signedIn(memberApp);
    await (await server.getTeam(team.id))!.addUser(member.id);
    const asMember = (await member.getTeam(team.id))!;
    await expect(asMember.update({ displayName: "Mine" })).rejects.toMatchObject({ code: "TEAM_PERMISSION_REQUIRED" });
    await expect(asMember.listUsers()).rejects.toMatchObject({ code: "TEAM_PERMISSION_REQUIRED" });
  });
});

describe("server teams", () => {
  it("creates with a creator, lists by user, adds and removes users, updates server fields", async () => {
    const p = await teamProject();
    const { client, server } = apps(p);
    const user = await signedIn(client());
    const team = await server.createTeam({ displayName: "Ops", creatorUserId: user.id, serverMetadata: { tier: 2 } });
    expect(team.serverMetadata).toEqual({ tier: 2 });
    expect(team.createdAt.getTime()).toBeGreaterThan(0);
    expect((await server.listTeams({ userId: user.id })).map((t) => t.id)).toEqual([team.id]);
    const other = await server.createUser({ primaryEmail: uniqueEmail("srv") });
    await team.addUser(other.id);
    await expect(team.addUser(other.id)).rejects.toMatchObject({ code: "TEAM_MEMBERSHIP_ALREADY_EXISTS" });
    expect((await team.listUsers()).map((u) => u.id)).toContain(other.id);
    await team.removeUser(other.id);
    expect((await team.listUsers()).map((u) => u.id)).toEqual([user.id]);
    await team.update({ serverMetadata: { tier: 3 }, clientReadOnlyMetadata: { badge: true } });
    const read = await server.getTeam(team.id);
    expect(read).toMatchObject({ serverMetadata: { tier: 3 }, clientReadOnlyMetadata: { badge: true } });
    await read!.delete();
    expect(await server.getTeam(team.id)).toBeNull();
  });
});

describe("server team members and their permissions", () => {
  it("lists members with name and email; grants, lists (direct and recursive) and revokes team permissions", async () => {
    const p = await teamProject();
    const { server } = apps(p);
    const email = uniqueEmail("member");
    const user = await server.createUser({ primaryEmail: email, displayName: "Mia Member" });
    const team = await server.createTeam({ displayName: "Desk" });
    await team.addUser(user.id);
    expect(await team.listUsers()).toEqual([
      { id: user.id, displayName: "Mia Member", primaryEmail: email, teamProfile: { displayName: "Mia Member", profileImageUrl: null } },
    ]);

    expect(await team.listMemberPermissions({ recursive: false })).toEqual([]);
    await team.grantMemberPermission(user.id, "$update_team");
    await team.grantMemberPermission(user.id, "team_admin");
    const direct = await team.listMemberPermissions({ userId: user.id, recursive: false });
    expect(direct.map((g) => g.id).sort()).toEqual(["$update_team", "team_admin"]);
    expect(direct.every((g) => g.userId === user.id)).toBe(true);
    // team_admin contains the other system permissions: listed only when recursive.
    const all = await team.listMemberPermissions();
    expect(all.map((g) => g.id)).toContain("$delete_team");

    await team.revokeMemberPermission(user.id, "team_admin");
    expect((await team.listMemberPermissions({ recursive: false })).map((g) => g.id)).toEqual(["$update_team"]);
    await expect(team.revokeMemberPermission(user.id, "team_admin")).rejects.toMatchObject({ code: "TEAM_PERMISSION_NOT_FOUND" });
    await expect(team.grantMemberPermission(user.id, "no_such_permission")).rejects.toMatchObject({ code: "PERMISSION_NOT_FOUND" });
  });
});

describe("invitations", () => {
  it("invite, list, details, accept; revoke", async () => {
    const p = await teamProject();
    const { client } = apps(p);
    const owner = await signedIn(client());
    const team = await owner.createTeam({ displayName: "Guild" });
    const email = uniqueEmail("guest");
    await team.inviteUser({ email, callbackUrl: CALLBACK });
    const [pending] = await team.listInvitations();
    expect(pending).toMatchObject({ recipientEmail: email, teamId: team.id, teamDisplayName: "Guild" });
    expect(pending!.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const code = codeFrom((await waitForOutbox(email))[0]!);

    const guestApp = client();
    await signedIn(guestApp, email);
    expect(await guestApp.verifyTeamInvitationCode(code)).toEqual({ status: "ok", data: undefined });
    expect(await guestApp.getTeamInvitationDetails(code)).toEqual({ status: "ok", data: { teamId: team.id, teamDisplayName: "Guild" } });
    expect((await guestApp.acceptTeamInvitation(code)).status).toBe("ok");
    const guest = await guestApp.getUser();
    expect((await guest!.listTeams()).map((t) => t.id)).toEqual([team.id]);
    const again = await guestApp.acceptTeamInvitation(code);
    expect(again.status === "error" && again.error.code).toBe("VERIFICATION_CODE_ALREADY_USED");

    await team.inviteUser({ email: uniqueEmail("late"), callbackUrl: CALLBACK });
    const [late] = await team.listInvitations();
    await late!.revoke();
    expect(await team.listInvitations()).toEqual([]);
  });
});
