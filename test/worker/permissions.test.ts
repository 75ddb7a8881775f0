/** Permission definitions, grants, recursion, default permission sets and isolation, through the real worker. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type CallOptions, call, createProjectWithKeys, internalAdmin, signUp } from "../helpers/api";

const SYSTEM = ["$delete_team", "$invite_members", "$manage_api_keys", "$read_members", "$remove_members", "$update_team"];

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

async function define(p: Project, scope: "team" | "project", body: Record<string, unknown>) {
  return call(`/${scope}-permission-definitions`, { ...p.adminKey, body });
}

/** A user with a personal team (create_team_on_sign_up): the team's creator. */
async function creatorWithTeam(p: Project) {
  const user = await signUp(p.client);
  const me = await call("/users/me", { ...p.client, accessToken: user.accessToken });
  return { ...user, teamId: me.body.selected_team_id as string, as: { ...p.client, accessToken: user.accessToken } as CallOptions };
}

const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

describe("permission definitions", () => {
  it("a new project starts with team_admin and team_member, listed with the system permissions", async () => {
    const p = await createProjectWithKeys();
    const list = await call("/team-permission-definitions", p.adminKey);
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    expect(ids(list)).toEqual([...SYSTEM, "team_admin", "team_member"]);
    expect(list.body.items.find((d: { id: string }) => d.id === "$update_team")).toEqual({
      id: "$update_team",
      description: "Update the team information",
      contained_permission_ids: [],
    });
    expect(list.body.items.find((d: { id: string }) => d.id === "team_member")).toEqual({
      id: "team_member",
      description: "Default permission for team members",
      contained_permission_ids: ["$invite_members", "$read_members"],
    });
    expect((await call("/project-permission-definitions", p.admin)).body).toEqual({ items: [], is_paginated: false });
  });

  it("the internal project has the default definitions too (seeded)", async () => {
    const list = await call("/team-permission-definitions", internalAdmin);
    expect(ids(list)).toEqual(expect.arrayContaining(["team_admin", "team_member", "$update_team"]));
  });

  it("creates, renames, updates and deletes, keeping containment and grants consistent", async () => {
    const p = await createProjectWithKeys({ create_team_on_sign_up: true });
    expect((await define(p, "team", { id: "child" })).body).toEqual({ id: "child", contained_permission_ids: [] });
    const parent = await define(p, "team", {
      id: "parent",
      description: "Parent",
      contained_permission_ids: ["child", "$read_members", "child"],
    });
    expect(parent.status).toBe(201);
    expect(parent.body).toEqual({ id: "parent", description: "Parent", contained_permission_ids: ["$read_members", "child"] });

    const u = await creatorWithTeam(p);
    expect((await call(`/team-permissions/${u.teamId}/${u.userId}/parent`, { ...p.server, body: {} })).status).toBe(201);

    // Rename: the grant and the containment follow the new id.
    const renamed = await call("/team-permission-definitions/child", {
      ...p.adminKey,
      method: "PATCH",
      body: { id: "kid", description: "A kid" },
    });
    expect(renamed.body).toEqual({ id: "kid", description: "A kid", contained_permission_ids: [] });
    const defs = (await call("/team-permission-definitions", p.adminKey)).body.items;
    expect(defs.find((d: { id: string }) => d.id === "parent").contained_permission_ids).toEqual(["$read_members", "kid"]);
    const held = await call(`/team-permissions?team_id=${u.teamId}&user_id=me&recursive=true`, u.as);
    expect(ids(held)).toContain("kid");

    // Delete: gone from containment and from every grant.
    expect((await call("/team-permission-definitions/kid", { ...p.adminKey, method: "DELETE" })).body).toEqual({ success: true });
    const after = (await call("/team-permission-definitions", p.adminKey)).body.items;
    expect(after.find((d: { id: string }) => d.id === "parent").contained_permission_ids).toEqual(["$read_members"]);
    expect(ids(await call(`/team-permissions?team_id=${u.teamId}&user_id=me&recursive=true`, u.as))).not.toContain("kid");
    expect((await call("/team-permission-definitions/parent", { ...p.adminKey, method: "DELETE" })).status).toBe(200);
    expect(ids(await call(`/team-permissions?team_id=${u.teamId}&user_id=me&recursive=false`, u.as))).toEqual(["team_admin"]);
    // Without the parameter the listing is recursive (SPEC §9 default): team_admin's contents too.
    const byDefault = ids(await call(`/team-permissions?team_id=${u.teamId}&user_id=me`, u.as));
    expect(byDefault).toContain("team_admin");
    expect(byDefault).toContain("$update_team");
  });

  it("rejects duplicates, missing contained ids, cycles, reserved ids and the wrong scope", async () => {
    const p = await createProjectWithKeys();
    await define(p, "team", { id: "a" });
    const dup = await define(p, "team", { id: "a" });
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ code: "PERMISSION_ID_ALREADY_EXISTS", details: { permission_id: "a" } });
    // Ids are unique across both scopes.
    expect((await define(p, "project", { id: "a" })).body.code).toBe("PERMISSION_ID_ALREADY_EXISTS");
    expect((await define(p, "team", { id: "team_admin" })).body.code).toBe("PERMISSION_ID_ALREADY_EXISTS");

    const missing = await define(p, "team", { id: "b", contained_permission_ids: ["nope"] });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "CONTAINED_PERMISSION_NOT_FOUND", details: { permission_id: "nope" } });
    // Project definitions cannot contain team or system permissions.
    expect((await define(p, "project", { id: "c", contained_permission_ids: ["a"] })).body.code).toBe("CONTAINED_PERMISSION_NOT_FOUND");
    expect((await define(p, "project", { id: "c", contained_permission_ids: ["$read_members"] })).body.code).toBe(
      "CONTAINED_PERMISSION_NOT_FOUND",
    );

    const reserved = await define(p, "team", { id: "$mine" });
    expect(reserved.status).toBe(400);
    expect(reserved.body.code).toBe("SCHEMA_ERROR");
    expect((await define(p, "team", { id: "ok", extra: 1 })).body.code).toBe("SCHEMA_ERROR");

    // a <- b <- c; then a containing c would close a cycle; so would containing itself.
    await define(p, "team", { id: "b", contained_permission_ids: ["a"] });
    await define(p, "team", { id: "c", contained_permission_ids: ["b"] });
    const cycle = await call("/team-permission-definitions/a", {
      ...p.adminKey,
      method: "PATCH",
      body: { contained_permission_ids: ["c"] },
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.code).toBe("SCHEMA_ERROR");
    expect(cycle.body.details.message).toMatch(/cycle/);
    const self = await call("/team-permission-definitions/a", {
      ...p.adminKey,
      method: "PATCH",
      body: { contained_permission_ids: ["a"] },
    });
    expect(self.body.code).toBe("SCHEMA_ERROR");
    const renameIntoTaken = await call("/team-permission-definitions/a", { ...p.adminKey, method: "PATCH", body: { id: "b" } });
    expect(renameIntoTaken.body.code).toBe("PERMISSION_ID_ALREADY_EXISTS");

    const notFound = await call("/team-permission-definitions/zzz", { ...p.adminKey, method: "DELETE" });
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ code: "PERMISSION_NOT_FOUND", details: { permission_id: "zzz" } });
    const wrongScope = await call("/project-permission-definitions/a", { ...p.adminKey, method: "PATCH", body: { description: "x" } });
    expect(wrongScope.status).toBe(404);
    expect(wrongScope.body).toMatchObject({
      code: "WRONG_PERMISSION_SCOPE",
      details: { permission_id: "a", expected_scope: "project", actual_scope: "team" },
    });
    // System permissions are built in and read-only.
    expect((await call("/team-permission-definitions/$update_team", { ...p.adminKey, method: "DELETE" })).body.code).toBe(
      "PERMISSION_NOT_FOUND",
    );
  });

  it("is admin only", async () => {
    const p = await createProjectWithKeys();
    for (const who of [p.server, p.client]) {
      const res = await call("/team-permission-definitions", who);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
    expect((await call("/project-permission-definitions", { ...p.server, body: { id: "x" } })).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });
});

describe("team permissions", () => {
  it("grants, lists (direct and recursive), filters and revokes", async () => {
    const p = await createProjectWithKeys({ create_team_on_sign_up: true });
    await define(p, "team", { id: "child" });
    await define(p, "team", { id: "parent", contained_permission_ids: ["child", "$update_team"] });
    await define(p, "project", { id: "proj" });
    const u = await creatorWithTeam(p);

    // The creator default: team_admin, which contains every system permission.
    expect((await call(`/team-permissions?team_id=${u.teamId}&user_id=me&recursive=false`, u.as)).body.items).toEqual([
      { id: "team_admin", team_id: u.teamId, user_id: u.userId },
    ]);
    expect(ids(await call(`/team-permissions?team_id=${u.teamId}&user_id=me&recursive=true`, u.as))).toEqual([...SYSTEM, "team_admin"]);

    const granted = await call(`/team-permissions/${u.teamId}/${u.userId}/parent`, { ...p.server, body: {} });
    expect(granted.status).toBe(201);
    expect(granted.body).toEqual({ id: "parent", user_id: u.userId, team_id: u.teamId });
    // Granting again is harmless.
    expect((await call(`/team-permissions/${u.teamId}/${u.userId}/parent`, { ...p.server, method: "POST" })).status).toBe(201);
    expect(ids(await call(`/team-permissions?team_id=${u.teamId}&user_id=${u.userId}&recursive=false`, p.server))).toEqual([
      "parent",
      "team_admin",
    ]);
    const recursive = await call(`/team-permissions?team_id=${u.teamId}&user_id=${u.userId}&recursive=true`, p.server);
    expect(ids(recursive)).toEqual([...SYSTEM, "child", "parent", "team_admin"]); // $update_team only once
    const filtered = await call(`/team-permissions?user_id=${u.userId}&permission_id=child&recursive=true`, p.server);
    expect(filtered.body.items).toEqual([{ id: "child", team_id: u.teamId, user_id: u.userId }]);

    // System permissions may be granted directly.
    expect((await call(`/team-permissions/${u.teamId}/${u.userId}/$delete_team`, { ...p.server, body: {} })).status).toBe(201);

    expect((await call(`/team-permissions/${u.teamId}/${u.userId}/parent`, { ...p.server, method: "DELETE" })).body).toEqual({
      success: true,
    });
    const again = await call(`/team-permissions/${u.teamId}/${u.userId}/parent`, { ...p.server, method: "DELETE" });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({
      code: "TEAM_PERMISSION_NOT_FOUND",
      details: { team_id: u.teamId, user_id: u.userId, permission_id: "parent" },
    });
    // Held only through containment: not revocable on its own.
    expect((await call(`/team-permissions/${u.teamId}/${u.userId}/$read_members`, { ...p.server, method: "DELETE" })).body.code).toBe(
      "TEAM_PERMISSION_NOT_FOUND",
    );

    const unknown = await call(`/team-permissions/${u.teamId}/${u.userId}/nope`, { ...p.server, body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "PERMISSION_NOT_FOUND", details: { permission_id: "nope" } });
    const wrong = await call(`/team-permissions/${u.teamId}/${u.userId}/proj`, { ...p.server, body: {} });
    expect(wrong.status).toBe(404);
    expect(wrong.body).toMatchObject({
      code: "WRONG_PERMISSION_SCOPE",
      details: { permission_id: "proj", expected_scope: "team", actual_scope: "project" },
    });
    const stranger = await signUp(p.client);
    const notMember = await call(`/team-permissions/${u.teamId}/${stranger.userId}/parent`, { ...p.server, body: {} });
    expect(notMember.status).toBe(404);
    expect(notMember.body).toMatchObject({ code: "TEAM_MEMBERSHIP_NOT_FOUND", details: { team_id: u.teamId, user_id: stranger.userId } });
    expect((await call(`/team-permissions/not-a-uuid/${u.userId}/parent`, { ...p.server, body: {} })).body.code).toBe("SCHEMA_ERROR");
  });

  it("members get the member defaults, and lose every grant when they leave", async () => {
    const p = await createProjectWithKeys();
    await define(p, "team", { id: "editor" });
    const creator = await signUp(p.client);
    const member = await signUp(p.client);
    const team = await call("/teams", { ...p.server, body: { display_name: "Crew", creator_user_id: creator.userId } });
    expect(team.status).toBe(201);
    const teamId: string = team.body.id;
    expect((await call(`/team-memberships/${teamId}/${member.userId}`, { ...p.server, body: {} })).status).toBe(201);

    const list = await call(`/team-permissions?team_id=${teamId}&recursive=false`, p.server);
    expect(list.body.items).toEqual(
      [
        { id: "team_admin", team_id: teamId, user_id: creator.userId },
        { id: "team_member", team_id: teamId, user_id: member.userId },
      ].sort((a, b) => (a.user_id < b.user_id ? -1 : 1)),
    );

    await call(`/team-permissions/${teamId}/${member.userId}/editor`, { ...p.server, body: {} });
    expect((await call(`/team-memberships/${teamId}/${member.userId}`, { ...p.server, method: "DELETE" })).status).toBe(200);
    expect((await call(`/team-permissions?team_id=${teamId}&user_id=${member.userId}&recursive=false`, p.server)).body.items).toEqual([]);
    // Re-joining starts from the defaults again, not from the old grants.
    await call(`/team-memberships/${teamId}/${member.userId}`, { ...p.server, body: {} });
    expect(ids(await call(`/team-permissions?team_id=${teamId}&user_id=${member.userId}&recursive=false`, p.server))).toEqual([
      "team_member",
    ]);
  });

  it("the default sets follow the project config, skipping ids the project does not define", async () => {
    const p = await createProjectWithKeys({ create_team_on_sign_up: true });
    await define(p, "team", { id: "owner" });
    await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { team_creator_default_permissions: [{ id: "owner" }, { id: "$manage_api_keys" }, { id: "ghost" }] } },
    });
    const u = await creatorWithTeam(p);
    expect(ids(await call(`/team-permissions?team_id=${u.teamId}&user_id=me&recursive=false`, u.as))).toEqual([
      "$manage_api_keys",
      "owner",
    ]);
  });

  it("the project's default lists read sorted by id, whatever order they were set in", async () => {
    const p = await createProjectWithKeys();
    await define(p, "team", { id: "custom_team_permission" });
    const patched = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { team_creator_default_permissions: [{ id: "team_admin" }, { id: "custom_team_permission" }] } },
    });
    expect(patched.body.config.team_creator_default_permissions).toEqual([{ id: "custom_team_permission" }, { id: "team_admin" }]);
  });

  it("renaming or deleting a definition carries over to the project's default lists", async () => {
    const p = await createProjectWithKeys({ create_team_on_sign_up: true });
    const config = async () => (await call("/internal/projects/current", p.admin)).body.config;
    await call("/team-permission-definitions/team_admin", { ...p.adminKey, method: "PATCH", body: { id: "owner" } });
    expect((await config()).team_creator_default_permissions).toEqual([{ id: "owner" }]);
    expect((await config()).team_member_default_permissions).toEqual([{ id: "team_member" }]);
    const u = await creatorWithTeam(p);
    expect(ids(await call(`/team-permissions?team_id=${u.teamId}&user_id=me&recursive=false`, u.as))).toEqual(["owner"]);

    await define(p, "project", { id: "viewer" });
    await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { user_default_permissions: [{ id: "viewer" }] } },
    });
    await call("/project-permission-definitions/viewer", { ...p.adminKey, method: "DELETE" });
    await call("/team-permission-definitions/team_member", { ...p.adminKey, method: "DELETE" });
    const after = await config();
    expect(after.user_default_permissions).toEqual([]);
    expect(after.team_member_default_permissions).toEqual([]);
    expect(after.team_creator_default_permissions).toEqual([{ id: "owner" }]);
  });

  it("a client lists only its own permissions", async () => {
    const p = await createProjectWithKeys({ create_team_on_sign_up: true });
    const a = await creatorWithTeam(p);
    const b = await creatorWithTeam(p);
    const other = await call(`/team-permissions?team_id=${b.teamId}&user_id=${b.userId}&recursive=false`, a.as);
    expect(other.status).toBe(403);
    expect(other.text).toContain("Client can only list permissions for their own user");
    expect((await call(`/team-permissions?team_id=${a.teamId}&recursive=false`, a.as)).status).toBe(403);
    // Naming another team with user_id=me shows nothing: a's grants there do not exist.
    expect((await call(`/team-permissions?team_id=${b.teamId}&user_id=me&recursive=false`, a.as)).body.items).toEqual([]);
    expect((await call(`/team-permissions?user_id=${a.userId}&recursive=false`, a.as)).status).toBe(200);
    expect((await call("/team-permissions?user_id=me&recursive=false", p.client)).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    expect((await call("/project-permissions?user_id=me&recursive=maybe", a.as)).body.code).toBe("SCHEMA_ERROR");
    const grant = await call(`/team-permissions/${a.teamId}/me/team_admin`, { ...a.as, body: {} });
    expect(grant.status).toBe(401);
    expect(grant.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });
});

describe("project permissions", () => {
  it("applies user defaults at sign-up; grants, lists and revokes", async () => {
    const p = await createProjectWithKeys();
    await define(p, "project", { id: "read:docs" });
    await define(p, "project", { id: "docs-admin", contained_permission_ids: ["read:docs"] });
    await define(p, "team", { id: "team-only" });
    await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { user_default_permissions: [{ id: "read:docs" }] } },
    });

    const u = await signUp(p.client);
    const as = { ...p.client, accessToken: u.accessToken };
    expect((await call("/project-permissions?user_id=me&recursive=false", as)).body).toEqual({
      items: [{ id: "read:docs", user_id: u.userId }],
      is_paginated: false,
    });

    const granted = await call(`/project-permissions/${u.userId}/docs-admin`, { ...p.server, body: {} });
    expect(granted.status).toBe(201);
    expect(granted.body).toEqual({ id: "docs-admin", user_id: u.userId });
    await call(`/project-permissions/${u.userId}/read:docs`, { ...p.server, method: "DELETE" });
    expect(ids(await call(`/project-permissions?user_id=${u.userId}&recursive=false`, p.server))).toEqual(["docs-admin"]);
    expect(ids(await call(`/project-permissions?user_id=${u.userId}&recursive=true`, p.server))).toEqual(["docs-admin", "read:docs"]);

    const notHeld = await call(`/project-permissions/${u.userId}/read:docs`, { ...p.server, method: "DELETE" });
    expect(notHeld.status).toBe(404);
    expect(notHeld.body).toMatchObject({ code: "PERMISSION_NOT_FOUND", details: { permission_id: "read:docs" } });
    expect((await call(`/project-permissions/${u.userId}/team-only`, { ...p.server, body: {} })).body).toMatchObject({
      code: "WRONG_PERMISSION_SCOPE",
      details: { expected_scope: "project", actual_scope: "team" },
    });
    expect((await call(`/project-permissions/${u.userId}/$update_team`, { ...p.server, body: {} })).body.code).toBe("PERMISSION_NOT_FOUND");
    const nobody = await call(`/project-permissions/${crypto.randomUUID()}/docs-admin`, { ...p.server, body: {} });
    expect(nobody.status).toBe(404);
    expect(nobody.body.code).toBe("USER_NOT_FOUND");

    const other = await signUp(p.client);
    expect((await call(`/project-permissions?user_id=${other.userId}&recursive=false`, as)).status).toBe(403);
    // A server listing without a user sees every user's grants.
    expect((await call("/project-permissions", p.server)).body.items).toEqual(
      expect.arrayContaining([
        { id: "docs-admin", user_id: u.userId },
        { id: "read:docs", user_id: other.userId },
      ]),
    );
  });
});

describe("cross-project isolation", () => {
  it("another project's teams, users and definitions are not found", async () => {
    const a = await createProjectWithKeys({ create_team_on_sign_up: true });
    const b = await createProjectWithKeys();
    await define(a, "team", { id: "a_only" });
    await define(a, "project", { id: "a_project" });
    const u = await creatorWithTeam(a);
    await call(`/project-permissions/${u.userId}/a_project`, { ...a.server, body: {} });

    expect((await call(`/team-permissions/${u.teamId}/${u.userId}/team_admin`, { ...b.server, body: {} })).body.code).toBe(
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    expect((await call(`/project-permissions/${u.userId}/a_project`, { ...b.server, body: {} })).body.code).toBe("USER_NOT_FOUND");
    expect((await call(`/team-permissions?team_id=${u.teamId}&recursive=false`, b.server)).body.items).toEqual([]);
    expect((await call(`/project-permissions?user_id=${u.userId}&recursive=false`, b.server)).body.items).toEqual([]);
    expect(ids(await call("/team-permission-definitions", b.adminKey))).not.toContain("a_only");
    expect((await call("/project-permission-definitions/a_project", { ...b.adminKey, method: "DELETE" })).body.code).toBe(
      "PERMISSION_NOT_FOUND",
    );
    // A's owner is not an admin of B.
    expect((await call("/team-permission-definitions", { ...b.admin, adminAccessToken: a.owner.accessToken })).status).toBe(401);
  });
});

describe("permission checks (the service other areas call)", () => {
  it("hasTeamPermission and hasProjectPermission follow containment, membership and project", async () => {
    const { makeDeps } = await import("../../worker/services/deps");
    const { hasProjectPermission, hasTeamPermission } = await import("../../worker/services/permissions");
    const deps = makeDeps(env as never, { origin: "http://localhost" });
    const p = await createProjectWithKeys({ create_team_on_sign_up: true });
    const other = await createProjectWithKeys();
    await define(p, "project", { id: "read" });
    await define(p, "project", { id: "write", contained_permission_ids: ["read"] });
    const u = await creatorWithTeam(p);
    await call(`/project-permissions/${u.userId}/write`, { ...p.server, body: {} });

    expect(await hasTeamPermission(deps, p.projectId, u.teamId, u.userId, "$delete_team")).toBe(true);
    expect(await hasTeamPermission(deps, p.projectId, u.teamId, u.userId, "nope")).toBe(false);
    expect(await hasTeamPermission(deps, other.projectId, u.teamId, u.userId, "$delete_team")).toBe(false);
    expect(await hasProjectPermission(deps, p.projectId, u.userId, "read")).toBe(true);
    expect(await hasProjectPermission(deps, other.projectId, u.userId, "read")).toBe(false);

    const stranger = await signUp(p.client);
    expect(await hasTeamPermission(deps, p.projectId, u.teamId, stranger.userId, "$read_members")).toBe(false);
  });
});

describe("containment expansion", () => {
  it("visits each permission once, survives cycles and drops unknown ids", async () => {
    const { expandPermissions } = await import("../../worker/services/permissions");
    const containment = new Map([
      ["a", ["b"]],
      ["b", ["a", "c", "gone"]],
      ["c", []],
    ]);
    expect([...expandPermissions(["a"], containment)].sort()).toEqual(["a", "b", "c"]);
    expect([...expandPermissions(["a", "gone"], containment, false)]).toEqual(["a"]);
  });
});
