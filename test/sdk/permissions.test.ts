/** Permissions through the SDK against the real worker: checks, listing, grants and admin definitions. */

import { describe, expect, it } from "vitest";
import { KnownError, StackAdminApp, StackClientApp, StackServerApp } from "../../sdk/src";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const, tokenStore: "memory" as const };

async function setup() {
  const p = await createProjectWithKeys({ create_team_on_sign_up: true });
  const admin = new StackAdminApp({ ...base, projectId: p.projectId, superSecretAdminKey: p.adminKey.superSecretAdminKey });
  const server = new StackServerApp({ ...base, projectId: p.projectId, secretServerKey: p.server.secretServerKey });
  const client = new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
  const signedUp = await client.signUpWithCredential({ email: uniqueEmail("perm"), password: "sdk password 1", noRedirect: true });
  expect(signedUp.status).toBe("ok");
  const user = await client.getUser({ or: "throw" });
  if (!user?.selectedTeamId) throw new Error("no user or personal team");
  return { admin, server, client, user, team: { id: user.selectedTeamId } };
}

describe("SDK permissions", () => {
  it("admin manages definitions; errors surface as known errors", async () => {
    const { admin } = await setup();
    const created = await admin.createTeamPermissionDefinition({
      id: "editor",
      description: "Edits things",
      containedPermissionIds: ["$update_team"],
    });
    expect(created).toEqual({ id: "editor", description: "Edits things", containedPermissionIds: ["$update_team"] });
    const teamDefs = await admin.listTeamPermissionDefinitions();
    expect(teamDefs.map((d) => d.id)).toEqual(expect.arrayContaining(["$update_team", "editor", "team_admin", "team_member"]));

    const renamed = await admin.updateTeamPermissionDefinition("editor", { id: "writer", containedPermissionIds: [] });
    expect(renamed).toEqual({ id: "writer", description: "Edits things", containedPermissionIds: [] });
    await admin.deleteTeamPermissionDefinition("writer");
    expect((await admin.listTeamPermissionDefinitions()).map((d) => d.id)).not.toContain("writer");

    await admin.createProjectPermissionDefinition({ id: "read" });
    await admin.createProjectPermissionDefinition({ id: "write", containedPermissionIds: ["read"] });
    expect(await admin.listProjectPermissionDefinitions()).toEqual([
      { id: "read", containedPermissionIds: [] },
      { id: "write", containedPermissionIds: ["read"] },
    ]);
    await admin.updateProjectPermissionDefinition("write", { description: "Write access" });
    expect((await admin.listProjectPermissionDefinitions())[1]?.description).toBe("Write access");

    const dup = admin.createProjectPermissionDefinition({ id: "read" });
    await expect(dup).rejects.toBeInstanceOf(KnownError);
    await expect(dup).rejects.toMatchObject({ code: "PERMISSION_ID_ALREADY_EXISTS", details: { permission_id: "read" } });
    await expect(admin.createProjectPermissionDefinition({ id: "x", containedPermissionIds: ["nope"] })).rejects.toMatchObject({
      code: "CONTAINED_PERMISSION_NOT_FOUND",
    });
    await expect(admin.deleteProjectPermissionDefinition("nope")).rejects.toMatchObject({ code: "PERMISSION_NOT_FOUND" });
  });

  it("the user checks and lists team permissions; the server grants and revokes", async () => {
    const { admin, server, user, team } = await setup();
    await admin.createTeamPermissionDefinition({ id: "billing", containedPermissionIds: ["$manage_api_keys"] });

    // The creator default team_admin contains every system permission.
    expect(await user.hasPermission(team, "team_admin")).toBe(true);
    expect(await user.hasPermission(team, "$delete_team")).toBe(true);
    expect(await user.hasPermission(team, "billing")).toBe(false);
    expect((await user.listPermissions(team, { recursive: false })).map((p) => p.id)).toEqual(["team_admin"]);
    expect((await user.listPermissions(team)).map((p) => p.id)).toContain("$read_members");

    const serverUser = await server.getUser(user.id);
    if (!serverUser) throw new Error("no server user");
    await serverUser.grantPermission(team, "billing");
    expect(await user.getPermission(team, "billing")).toEqual({ id: "billing" });
    expect(await serverUser.hasPermission(team, "billing")).toBe(true);
    await serverUser.revokePermission(team, "billing");
    expect(await user.getPermission(team, "billing")).toBeNull();

    // System permissions (with their `$`) travel through the URL intact.
    await serverUser.revokePermission(team, "team_admin");
    expect(await user.hasPermission(team, "$update_team")).toBe(false);
    await serverUser.grantPermission(team, "$update_team");
    expect((await user.listPermissions(team)).map((p) => p.id)).toEqual(["$update_team"]);
    await expect(serverUser.revokePermission(team, "billing")).rejects.toMatchObject({ code: "TEAM_PERMISSION_NOT_FOUND" });
  });

  it("project permissions: check, list (recursive by default), grant and revoke", async () => {
    const { admin, server, user } = await setup();
    await admin.createProjectPermissionDefinition({ id: "read" });
    await admin.createProjectPermissionDefinition({ id: "admin", containedPermissionIds: ["read"] });
    expect(await user.listPermissions()).toEqual([]);

    const serverUser = await server.getUser(user.id);
    await serverUser!.grantPermission("admin");
    expect(await user.hasPermission("read")).toBe(true);
    expect((await user.listPermissions()).map((p) => p.id)).toEqual(["admin", "read"]);
    expect((await user.listPermissions({ recursive: false })).map((p) => p.id)).toEqual(["admin"]);
    expect((await serverUser!.listPermissions()).map((p) => p.id)).toEqual(["admin", "read"]);
    await serverUser!.revokePermission("admin");
    expect(await user.hasPermission("read")).toBe(false);
    await expect(serverUser!.grantPermission("missing")).rejects.toMatchObject({ code: "PERMISSION_NOT_FOUND" });
  });
});
