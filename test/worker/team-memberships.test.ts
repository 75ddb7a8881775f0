/** /team-memberships and /team-member-profiles: add, leave, remove, profiles, and their permission checks. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, signUp } from "../helpers/api";
import { addMember, asUser, createTeamAs, grant, permissionsOf, revoke, teamProject, teamWithMember } from "../helpers/teams";

describe("adding members (server)", () => {
  it("adds with the member defaults; a second add is 409; bad ids are clean errors", async () => {
    const p = await teamProject({ team_member_default_permissions: [{ id: "team_member" }] });
    const creator = await signUp(p.client);
    const user = await signUp(p.client);
    const teamId = await createTeamAs(p, creator);
    const added = await call(`/team-memberships/${teamId}/${user.userId}`, { ...p.server, body: {} });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ team_id: teamId, user_id: user.userId });
    expect(await permissionsOf(p, teamId, user.userId)).toEqual(["$invite_members", "$read_members", "team_member"]);

    const again = await call(`/team-memberships/${teamId}/${user.userId}`, { ...p.server, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("TEAM_MEMBERSHIP_ALREADY_EXISTS");
    const ghost = crypto.randomUUID();
    expect((await call(`/team-memberships/${teamId}/${ghost}`, { ...p.server, body: {} })).body.code).toBe("USER_NOT_FOUND");
    expect((await call(`/team-memberships/${ghost}/${user.userId}`, { ...p.server, body: {} })).body.code).toBe("TEAM_NOT_FOUND");
    expect((await call(`/team-memberships/${teamId}/${user.userId}`, { ...p.server, body: { role: "x" } })).body.code).toBe("SCHEMA_ERROR");
    const asClient = await call(`/team-memberships/${teamId}/me`, { ...asUser(p, user), body: {} });
    expect(asClient.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });

  it("two concurrent adds: exactly one wins, one membership row", async () => {
    const p = await teamProject({ team_member_default_permissions: [{ id: "team_member" }] });
    const creator = await signUp(p.client);
    const user = await signUp(p.client);
    const teamId = await createTeamAs(p, creator);
    const results = await Promise.all([1, 2, 3].map(() => call(`/team-memberships/${teamId}/${user.userId}`, { ...p.server, body: {} })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const rows = await env.DB.prepare("SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?").bind(teamId, user.userId).all();
    expect(rows.results).toHaveLength(1);
    expect(await permissionsOf(p, teamId, user.userId)).toContain("team_member");
  });

  it("users and teams of another project cannot be joined", async () => {
    const a = await teamProject();
    const b = await teamProject();
    const userB = await signUp(b.client);
    const teamA = await createTeamAs(a, await signUp(a.client));
    expect((await call(`/team-memberships/${teamA}/${userB.userId}`, { ...a.server, body: {} })).body.code).toBe("USER_NOT_FOUND");
    expect((await call(`/team-memberships/${teamA}/${userB.userId}`, { ...b.server, body: {} })).body.code).toBe("TEAM_NOT_FOUND");
  });
});

describe("leaving and removing", () => {
  it("leaving revokes the member's grants and clears the selection", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    await grant(p, teamId, member.userId, "$read_members");
    await call("/users/me", { ...asUser(p, member), method: "PATCH", body: { selected_team_id: teamId } });
    const left = await call(`/team-memberships/${teamId}/me`, { ...asUser(p, member), method: "DELETE" });
    expect(left.body).toEqual({ success: true });
    expect((await call("/users/me", asUser(p, member))).body.selected_team_id).toBeNull();
    expect(await permissionsOf(p, teamId, member.userId)).toEqual([]);
    const twice = await call(`/team-memberships/${teamId}/me`, { ...asUser(p, member), method: "DELETE" });
    expect(twice.status).toBe(404);
    expect(twice.body).toMatchObject({ code: "TEAM_MEMBERSHIP_NOT_FOUND", details: { team_id: teamId, user_id: member.userId } });
    // Re-joining starts from the defaults, not from the old grants.
    await addMember(p, teamId, member.userId);
    expect(await permissionsOf(p, teamId, member.userId)).toEqual([]);
  });

  it("removing someone else needs $remove_members", async () => {
    const p = await teamProject();
    const { creator, member, teamId } = await teamWithMember(p);
    const third = await signUp(p.client);
    await addMember(p, teamId, third.userId);
    const kick = () => call(`/team-memberships/${teamId}/${third.userId}`, { ...asUser(p, member), method: "DELETE" });
    expect((await kick()).body).toMatchObject({
      code: "TEAM_PERMISSION_REQUIRED",
      details: { team_id: teamId, user_id: member.userId, permission_id: "$remove_members" },
    });
    await grant(p, teamId, member.userId, "$remove_members");
    expect((await kick()).body).toEqual({ success: true });
    expect((await kick()).body.code).toBe("TEAM_MEMBERSHIP_NOT_FOUND");
    // The creator's own selection is untouched by removing someone else.
    expect((await call("/users/me", asUser(p, creator))).body.selected_team_id).toBe(teamId);
    // Server removes anyone.
    expect((await call(`/team-memberships/${teamId}/${member.userId}`, { ...p.server, method: "DELETE" })).body).toEqual({ success: true });
  });

  it("an outsider cannot remove members of a team it is not in", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const outsider = await signUp(p.client);
    const otherTeam = await createTeamAs(p, outsider, "Outsiders");
    await grant(p, otherTeam, outsider.userId, "$remove_members");
    const res = await call(`/team-memberships/${teamId}/${member.userId}`, { ...asUser(p, outsider), method: "DELETE" });
    expect(res.body.code).toBe("TEAM_MEMBERSHIP_NOT_FOUND");
    expect((await call(`/teams/${teamId}`, asUser(p, member))).status).toBe(200);
  });
});

describe("member profiles", () => {
  it("listing others needs $read_members; one's own profile never does", async () => {
    const p = await teamProject();
    const { creator, member, teamId } = await teamWithMember(p);
    const own = await call(`/team-member-profiles?team_id=${teamId}&user_id=me`, asUser(p, member));
    expect(own.body).toEqual({
      items: [{ team_id: teamId, user_id: member.userId, display_name: null, profile_image_url: null }],
      is_paginated: false,
    });
    const all = () => call(`/team-member-profiles?team_id=${teamId}`, asUser(p, member));
    expect((await all()).body).toMatchObject({ code: "TEAM_PERMISSION_REQUIRED", details: { permission_id: "$read_members" } });
    expect((await call(`/team-member-profiles/${teamId}/${creator.userId}`, asUser(p, member))).body.code).toBe("TEAM_PERMISSION_REQUIRED");
    await grant(p, teamId, member.userId, "$read_members");
    expect((await all()).body.items.map((i: { user_id: string }) => i.user_id)).toEqual([creator.userId, member.userId]);
    expect((await call(`/team-member-profiles/${teamId}/${creator.userId}`, asUser(p, member))).body.user_id).toBe(creator.userId);
    await revoke(p, teamId, member.userId, "$read_members");
    expect((await all()).body.code).toBe("TEAM_PERMISSION_REQUIRED");
    // A client must name a team.
    const noTeam = await call("/team-member-profiles?user_id=me", asUser(p, member));
    expect(noTeam.status).toBe(400);
  });

  it("a member edits only its own profile, which falls back to the user's fields", async () => {
    const p = await teamProject();
    const { creator, member, teamId } = await teamWithMember(p);
    await call(`/users/${member.userId}`, {
      ...p.server,
      method: "PATCH",
      body: { display_name: "Ada", profile_image_url: "https://img/a.png" },
    });
    const before = await call(`/team-member-profiles/${teamId}/me`, asUser(p, member));
    expect(before.body).toMatchObject({ display_name: "Ada", profile_image_url: "https://img/a.png" });
    const patched = await call(`/team-member-profiles/${teamId}/me`, {
      ...asUser(p, member),
      method: "PATCH",
      body: { display_name: "Ada at Crew" },
    });
    expect(patched.body).toEqual({
      team_id: teamId,
      user_id: member.userId,
      display_name: "Ada at Crew",
      profile_image_url: "https://img/a.png",
    });
    const other = await call(`/team-member-profiles/${teamId}/${creator.userId}`, {
      ...asUser(p, member),
      method: "PATCH",
      body: { display_name: "Hacked" },
    });
    expect(other.status).toBe(403);
    const bad = await call(`/team-member-profiles/${teamId}/me`, { ...asUser(p, member), method: "PATCH", body: { nickname: "x" } });
    expect(bad.body.code).toBe("SCHEMA_ERROR");
  });

  it("the server view carries the full user; unknown ids are clean errors", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const res = await call(`/team-member-profiles/${teamId}/${member.userId}`, p.server);
    expect(res.body.user).toMatchObject({ id: member.userId, primary_email: member.email, server_metadata: null });
    const list = await call(`/team-member-profiles?user_id=${member.userId}`, p.server);
    expect(list.body.items).toHaveLength(1);
    const stranger = await signUp(p.client);
    expect((await call(`/team-member-profiles/${teamId}/${stranger.userId}`, p.server)).body.code).toBe("TEAM_MEMBERSHIP_NOT_FOUND");
    expect((await call(`/team-member-profiles?team_id=${crypto.randomUUID()}`, p.server)).body.code).toBe("TEAM_NOT_FOUND");
    const patched = await call(`/team-member-profiles/${teamId}/${member.userId}`, {
      ...p.server,
      method: "PATCH",
      body: { display_name: "Set by server" },
    });
    expect(patched.body.display_name).toBe("Set by server");
  });

  it("profiles of another team or project stay hidden", async () => {
    const p = await teamProject();
    const { member } = await teamWithMember(p);
    const otherTeam = await createTeamAs(p, await signUp(p.client), "Other");
    expect((await call(`/team-member-profiles?team_id=${otherTeam}`, asUser(p, member))).body.code).toBe("TEAM_MEMBERSHIP_NOT_FOUND");
    const q = await teamProject();
    expect((await call(`/team-member-profiles?team_id=${otherTeam}`, q.server)).body.code).toBe("TEAM_NOT_FOUND");
  });
});
