/** /teams: creation gate, creator defaults, client/server views, the permission matrix, deletion cascade, isolation. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp } from "../helpers/api";
import { addMember, asUser, createTeamAs, grant, permissionsOf, revoke, teamProject, teamWithMember } from "../helpers/teams";

const CALLBACK = "http://localhost:3000/handler/team-invitation";

describe("team creation", () => {
  it("clients create teams only when the project allows it", async () => {
    const closed = await createProjectWithKeys();
    const user = await signUp(closed.client);
    const refused = await call("/teams", { ...closed.client, accessToken: user.accessToken, body: { display_name: "Nope" } });
    expect(refused.status).toBe(403);
    expect(refused.text).toBe("Client team creation is disabled for this project");
    // A back end may always create teams.
    expect((await call("/teams", { ...closed.server, body: { display_name: "Server team" } })).status).toBe(201);
  });

  it("a client without a session is USER_AUTHENTICATION_REQUIRED; an empty display name is allowed, as the wire", async () => {
    const p = await teamProject();
    const user = await signUp(p.client);
    const anonymous = await call("/teams", { ...p.client, body: { display_name: "Nope", creator_user_id: user.userId } });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "USER_AUTHENTICATION_REQUIRED"]);
    const team = await call("/teams", { ...asUser(p, user), body: { display_name: "Named" } });
    const renamed = await call(`/teams/${team.body.id}`, { ...p.server, method: "PATCH", body: { display_name: "" } });
    expect([renamed.status, renamed.body.display_name]).toEqual([200, ""]);
  });

  it("the creator joins with the creator defaults and the team becomes their selected team", async () => {
    const p = await teamProject();
    const user = await signUp(p.client);
    const res = await call("/teams", {
      ...asUser(p, user),
      body: { display_name: "Rockets", creator_user_id: "me", client_metadata: { a: 1 } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      display_name: "Rockets",
      profile_image_url: null,
      client_metadata: { a: 1 },
      client_read_only_metadata: null,
    });
    const me = await call("/users/me", asUser(p, user));
    expect(me.body.selected_team_id).toBe(res.body.id);
    expect(me.body.selected_team).toMatchObject({ id: res.body.id, display_name: "Rockets" });
    expect(await permissionsOf(p, res.body.id, user.userId)).toEqual(
      expect.arrayContaining(["$delete_team", "$invite_members", "$read_members", "$remove_members", "$update_team", "team_admin"]),
    );
  });

  it("clients cannot create teams for someone else or set server-only fields", async () => {
    const p = await teamProject();
    const user = await signUp(p.client);
    const other = await signUp(p.client);
    const forOther = await call("/teams", { ...asUser(p, user), body: { display_name: "X", creator_user_id: other.userId } });
    expect(forOther.status).toBe(403);
    const serverField = await call("/teams", { ...asUser(p, user), body: { display_name: "X", server_metadata: { x: 1 } } });
    expect(serverField.status).toBe(400);
    expect(serverField.body.code).toBe("SCHEMA_ERROR");
    const noName = await call("/teams", { ...asUser(p, user), body: {} });
    expect(noName.body.code).toBe("SCHEMA_ERROR");
  });

  it("server creates with any creator (or none) and sees server fields", async () => {
    const p = await teamProject();
    const user = await signUp(p.client);
    const res = await call("/teams", {
      ...p.server,
      body: { display_name: "Ops", creator_user_id: user.userId, server_metadata: { plan: "pro" }, client_read_only_metadata: { r: true } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ display_name: "Ops", server_metadata: { plan: "pro" }, client_read_only_metadata: { r: true } });
    expect(res.body.created_at_millis).toEqual(expect.any(Number));
    expect((await permissionsOf(p, res.body.id, user.userId)).includes("$update_team")).toBe(true);
    // A server-created team does not change the creator's selection.
    expect((await call("/users/me", asUser(p, user))).body.selected_team_id).toBeNull();

    const unknown = await call("/teams", { ...p.server, body: { display_name: "Ghost", creator_user_id: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("USER_NOT_FOUND");
    const empty = await call("/teams", { ...p.server, body: { display_name: "Empty" } });
    expect((await call(`/team-member-profiles?team_id=${empty.body.id}`, p.server)).body.items).toEqual([]);
  });

  it("create_team_on_sign_up gives every new user a personal team with creator permissions", async () => {
    const p = await createProjectWithKeys({ create_team_on_sign_up: true });
    const user = await signUp(p.client);
    const me = await call("/users/me", { ...p.client, accessToken: user.accessToken });
    expect(me.body.selected_team).toMatchObject({ display_name: `${user.email}'s Team` });
    expect(await permissionsOf(p, me.body.selected_team_id, user.userId)).toContain("$delete_team");
  });

  it("an anonymous user gets a 'Personal Team', named after them when they sign up unless they renamed it", async () => {
    const p = await createProjectWithKeys({ create_team_on_sign_up: true });
    const anonymous = async () => {
      const res = await call("/auth/anonymous/sign-up", { ...p.client, method: "POST" });
      expect(res.status, res.text).toBe(200);
      const me = await call("/users/me", { ...p.client, accessToken: res.body.access_token, allowAnonymous: true });
      expect(me.body.selected_team).toMatchObject({ display_name: "Personal Team" });
      return { ...(res.body as { access_token: string; user_id: string }), teamId: me.body.selected_team_id as string };
    };

    const first = await anonymous();
    expect(await permissionsOf(p, first.teamId, first.user_id)).toContain("$delete_team");
    const email = `upgraded-${first.user_id}@example.com`;
    const upgraded = await call("/auth/password/sign-up", {
      ...p.client,
      accessToken: first.access_token,
      allowAnonymous: true,
      body: { email, password: "correct horse battery" },
    });
    expect(upgraded.status, upgraded.text).toBe(200);
    expect(upgraded.body.user_id).toBe(first.user_id);
    const me = await call("/users/me", { ...p.client, accessToken: upgraded.body.access_token });
    // The same team, now with the owner's name.
    expect(me.body.selected_team).toMatchObject({ id: first.teamId, display_name: `${email}'s Team` });

    const second = await anonymous();
    const patched = await call(`/users/${second.user_id}`, {
      ...p.server,
      method: "PATCH",
      body: { is_anonymous: false, display_name: "Grace" },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.selected_team).toMatchObject({ id: second.teamId, display_name: "Grace's Team" });

    // A team the anonymous user renamed keeps its name.
    const third = await anonymous();
    await call(`/teams/${third.teamId}`, { ...p.server, method: "PATCH", body: { display_name: "Our Lab" } });
    const renamed = await call(`/users/${third.user_id}`, {
      ...p.server,
      method: "PATCH",
      body: { is_anonymous: false, display_name: "Ada" },
    });
    expect(renamed.body.selected_team).toMatchObject({ id: third.teamId, display_name: "Our Lab" });
  });
});

describe("reading and listing teams", () => {
  it("a client lists only its own teams (user_id=me required)", async () => {
    const p = await teamProject();
    const { creator, member, teamId } = await teamWithMember(p);
    const otherTeam = await createTeamAs(p, await signUp(p.client), "Elsewhere");
    const mine = await call("/teams?user_id=me", asUser(p, member));
    expect(mine.body).toEqual({ items: [expect.objectContaining({ id: teamId, display_name: "Crew" })], is_paginated: false });
    expect(mine.body.items[0].server_metadata).toBeUndefined();
    expect((await call("/teams", asUser(p, member))).status).toBe(403);
    expect((await call(`/teams?user_id=${creator.userId}`, asUser(p, member))).status).toBe(403);
    expect((await call(`/teams?user_id=${member.userId}`, asUser(p, member))).status).toBe(200);

    const all = await call("/teams", p.server);
    expect(all.body.items.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([teamId, otherTeam]));
    const ofMember = await call(`/teams?user_id=${member.userId}`, p.server);
    expect(ofMember.body.items.map((t: { id: string }) => t.id)).toEqual([teamId]);
  });

  it("a client reads a team only as a member; unknown and malformed ids are clean errors", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const outsider = await signUp(p.client);
    expect((await call(`/teams/${teamId}`, asUser(p, member))).body).toMatchObject({ id: teamId, display_name: "Crew" });
    const refused = await call(`/teams/${teamId}`, asUser(p, outsider));
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: "TEAM_MEMBERSHIP_NOT_FOUND", details: { team_id: teamId, user_id: outsider.userId } });
    const missing = crypto.randomUUID();
    expect((await call(`/teams/${missing}`, p.server)).body).toMatchObject({ code: "TEAM_NOT_FOUND", details: { team_id: missing } });
    expect((await call("/teams/not-a-uuid", p.server)).body.code).toBe("SCHEMA_ERROR");
    expect((await call(`/teams/${teamId}`, p.client)).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  it("teams of one project are invisible to another", async () => {
    const a = await teamProject();
    const b = await teamProject();
    const { teamId } = await teamWithMember(a);
    expect((await call(`/teams/${teamId}`, b.server)).body.code).toBe("TEAM_NOT_FOUND");
    expect((await call(`/teams/${teamId}`, { ...b.server, method: "PATCH", body: { display_name: "Stolen" } })).body.code).toBe(
      "TEAM_NOT_FOUND",
    );
    expect((await call(`/teams/${teamId}`, { ...b.server, method: "DELETE" })).body.code).toBe("TEAM_NOT_FOUND");
    expect((await call("/teams", b.server)).body.items).toEqual([]);
    expect((await call(`/teams/${teamId}`, a.server)).body.display_name).toBe("Crew");
  });
});

describe("team permission matrix (client members)", () => {
  it("PATCH needs $update_team", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const rename = () => call(`/teams/${teamId}`, { ...asUser(p, member), method: "PATCH", body: { display_name: "Renamed" } });
    const denied = await rename();
    expect(denied.status).toBe(401);
    expect(denied.body).toMatchObject({
      code: "TEAM_PERMISSION_REQUIRED",
      details: { team_id: teamId, user_id: member.userId, permission_id: "$update_team" },
    });
    await grant(p, teamId, member.userId, "$update_team");
    const allowed = await rename();
    expect(allowed.status).toBe(200);
    expect(allowed.body.display_name).toBe("Renamed");
    await revoke(p, teamId, member.userId, "$update_team");
    expect((await rename()).body.code).toBe("TEAM_PERMISSION_REQUIRED");
    // Clients may not touch server-only fields even with the permission.
    await grant(p, teamId, member.userId, "$update_team");
    const serverOnly = await call(`/teams/${teamId}`, { ...asUser(p, member), method: "PATCH", body: { client_read_only_metadata: {} } });
    expect(serverOnly.body.code).toBe("SCHEMA_ERROR");
  });

  it("DELETE needs $delete_team", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const remove = () => call(`/teams/${teamId}`, { ...asUser(p, member), method: "DELETE" });
    expect((await remove()).body).toMatchObject({ code: "TEAM_PERMISSION_REQUIRED", details: { permission_id: "$delete_team" } });
    await grant(p, teamId, member.userId, "$delete_team");
    expect((await remove()).body).toEqual({ success: true });
    expect((await call(`/teams/${teamId}`, p.server)).body.code).toBe("TEAM_NOT_FOUND");
  });

  it("a permission in one team does not carry over to another", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const second = await createTeamAs(p, await signUp(p.client), "Second");
    await addMember(p, second, member.userId);
    await grant(p, teamId, member.userId, "$update_team");
    const res = await call(`/teams/${second}`, { ...asUser(p, member), method: "PATCH", body: { display_name: "Hijack" } });
    expect(res.body.code).toBe("TEAM_PERMISSION_REQUIRED");
  });
});

describe("team deletion", () => {
  it("removes memberships, invitations and grants in one go and clears selections", async () => {
    const p = await teamProject();
    const { creator, member, teamId } = await teamWithMember(p);
    await grant(p, teamId, member.userId, "$read_members");
    await call("/users/me", { ...asUser(p, member), method: "PATCH", body: { selected_team_id: teamId } });
    const invite = await call("/team-invitations/send-code", {
      ...p.server,
      body: { team_id: teamId, email: "invitee@example.com", callback_url: CALLBACK },
    });
    expect(invite.body).toEqual({ success: true, id: expect.any(String) });

    expect((await call(`/teams/${teamId}`, { ...asUser(p, creator), method: "DELETE" })).body).toEqual({ success: true });

    for (const u of [creator, member]) {
      const me = await call("/users/me", asUser(p, u));
      expect(me.body.selected_team_id).toBeNull();
      expect(me.body.selected_team).toBeNull();
      expect((await call("/teams?user_id=me", asUser(p, u))).body.items).toEqual([]);
    }
    const rows = async (sql: string) => (await env.DB.prepare(sql).bind(teamId).all()).results.length;
    expect(await rows("SELECT 1 FROM team_members WHERE team_id = ?")).toBe(0);
    expect(await rows("SELECT 1 FROM team_permissions WHERE team_id = ?")).toBe(0);
    expect(await rows("SELECT 1 FROM verification_codes WHERE json_extract(data, '$.team_id') = ?")).toBe(0);
    expect((await call(`/teams/${teamId}`, { ...p.server, method: "DELETE" })).body.code).toBe("TEAM_NOT_FOUND");
  });
});
