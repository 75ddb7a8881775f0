/**
 * SCIM driven as Microsoft Entra ID's provisioning service drives it (issue 31): the requests below
 * follow the call sequences and bodies Microsoft documents for a SCIM app, and the compatibility
 * behaviour Entra still shows (operations named "Replace"/"Add"/"Remove", booleans sent as the strings
 * "True"/"False", members removed with a value list or with `members[value eq "…"]`):
 * - https://learn.microsoft.com/en-us/entra/identity/app-provisioning/use-scim-to-provision-users-and-groups
 *   ("User operations": get user by query, create user, update user [multi-valued and single-valued
 *   properties], disable user, delete user; "Group operations": create group, get group with
 *   excludedAttributes=members, get group by displayName, update group [non-member attributes], add
 *   members, remove members, delete group)
 * - https://learn.microsoft.com/en-us/entra/identity/app-provisioning/application-provisioning-config-problem-scim-compatibility
 *   (the PATCH forms of the current job: path-less replace with attribute paths as keys, `remove` of
 *   `members[value eq "…"]`, and the string booleans of the older behaviour)
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, signUp } from "../helpers/api";
import {
  ENTERPRISE_USER_SCHEMA,
  eventsOf,
  GROUP_SCHEMA,
  insertSignInIdentity,
  patchOp,
  type ScimConnection,
  scim,
  scimConnection,
  teamMemberIds,
  USER_SCHEMA,
  uniqueDomain,
  verifyDomain,
} from "../helpers/sso-scim";

let conn: ScimConnection;

beforeAll(async () => {
  conn = await scimConnection();
}, 60_000);

/** The body Entra sends to create a user (Microsoft's "Create User" request, with our values). */
function entraUser(userName: string, email: string, externalId = crypto.randomUUID()) {
  return {
    schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
    externalId,
    userName,
    active: true,
    emails: [{ primary: true, type: "work", value: email }],
    meta: { resourceType: "User" },
    name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
    roles: [],
  };
}

describe("Entra user provisioning", () => {
  it("looks the user up, creates it, updates, disables and deletes it", async () => {
    const domain = uniqueDomain("entra");
    const userName = `Test_User_${crypto.randomUUID()}@${domain}`;
    const filter = encodeURIComponent(`userName eq "${userName}"`);

    // Get user by query, zero results: Entra creates the user next.
    const none = await scim(conn, `/Users?filter=${filter}`);
    expect(none.status).toBe(200);
    expect(none.headers.get("content-type")).toContain("application/scim+json");
    expect(none.body).toMatchObject({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });

    const created = await scim(conn, "/Users", { body: entraUser(userName, `work-${userName}`) });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.id;
    expect(created.body).toMatchObject({
      schemas: [USER_SCHEMA],
      userName,
      active: true,
      emails: [{ primary: true, type: "work", value: `work-${userName}` }],
      name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
      groups: [],
      meta: { resourceType: "User", version: 'W/"1"', location: `http://localhost/api/v1/scim/${conn.connectionId}/Users/${id}` },
    });
    expect(created.headers.get("etag")).toBe('W/"1"');
    expect(created.headers.get("location")).toBe(created.body.meta.location);
    // The created user is a member of the connection's team.
    const userId = (await eventsOf(conn, "scim.user_created")).find((e) => e.data.identity_id === id)?.user_id as string;
    expect(userId).toBeTruthy();
    expect(await teamMemberIds(conn)).toContain(userId);

    // Get user by query: one result (userName is not case-exact, so Entra's casing does not matter).
    const one = await scim(conn, `/Users?filter=${encodeURIComponent(`userName eq "${userName.toUpperCase()}"`)}`);
    expect(one.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
    expect(one.body.Resources[0].id).toBe(id);
    const byExternalId = await scim(conn, `/Users?filter=${encodeURIComponent(`externalId eq "${created.body.externalId}"`)}`);
    expect(byExternalId.body.Resources.map((r: { id: string }) => r.id)).toEqual([id]);

    // Update user [multi-valued properties].
    const updated = await scim(conn, `/Users/${id}`, {
      method: "PATCH",
      body: patchOp(
        { op: "Replace", path: 'emails[type eq "work"].value', value: `updated-${userName}` },
        { op: "Replace", path: "name.familyName", value: "updatedFamilyName" },
      ),
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.emails).toEqual([{ primary: true, type: "work", value: `updated-${userName}` }]);
    expect(updated.body.name.familyName).toBe("updatedFamilyName");
    expect(updated.body.meta.version).toBe('W/"2"');
    const updateEvent = (await eventsOf(conn, "scim.user_updated")).find((e) => e.data.identity_id === id);
    expect(updateEvent).toMatchObject({
      user_id: userId,
      team_id: conn.teamId,
      data: { connection_id: conn.connectionId, fields: ["emails", "name"] },
    });

    // Update user [single-valued properties]: the userName itself.
    const renamedTo = `renamed-${crypto.randomUUID()}@${domain}`;
    const renamed = await scim(conn, `/Users/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "Replace", path: "userName", value: renamedTo }),
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.userName).toBe(renamedTo);

    // The current job's path-less replace names attributes by path, the extension's behind its URN.
    const pathless = await scim(conn, `/Users/${id}`, {
      method: "PATCH",
      body: patchOp({
        op: "replace",
        value: {
          displayName: "Pvlo",
          "name.givenName": "Ysvshc",
          [`${ENTERPRISE_USER_SCHEMA}:employeeNumber`]: "E-42",
          [`${ENTERPRISE_USER_SCHEMA}:manager`]: "manager-id",
        },
      }),
    });
    expect(pathless.status, pathless.text).toBe(200);
    expect(pathless.body).toMatchObject({
      schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
      displayName: "Pvlo",
      name: { givenName: "Ysvshc", familyName: "updatedFamilyName" },
      [ENTERPRISE_USER_SCHEMA]: { employeeNumber: "E-42", manager: { value: "manager-id" } },
    });
    // The Doorman user's display name follows the IdP's.
    const user = await call(`/users/${userId}`, conn.project.server);
    expect(user.body.display_name).toBe("Pvlo");

    // Disable user, with the older job's string boolean.
    const disabled = await scim(conn, `/Users/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "Replace", path: "active", value: "False" }),
    });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.active).toBe(false);
    expect(await teamMemberIds(conn)).not.toContain(userId);
    expect((await eventsOf(conn, "scim.user_deactivated")).map((e) => e.data.identity_id)).toContain(id);

    // Enabling again ("True") puts the user back in the team.
    const enabled = await scim(conn, `/Users/${id}`, { method: "PATCH", body: patchOp({ op: "Replace", path: "active", value: "True" }) });
    expect(enabled.body.active).toBe(true);
    expect(await teamMemberIds(conn)).toContain(userId);
    expect((await eventsOf(conn, "scim.user_reactivated")).map((e) => e.data.identity_id)).toContain(id);

    // Delete user: the resource is gone, the Doorman user stays, out of the team.
    const deleted = await scim(conn, `/Users/${id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await scim(conn, `/Users/${id}`)).status).toBe(404);
    expect(await teamMemberIds(conn)).not.toContain(userId);
    expect((await call(`/users/${userId}`, conn.project.server)).status).toBe(200);
    const deletedEvent = (await eventsOf(conn, "scim.user_deleted")).find((e) => e.data.identity_id === id);
    expect(deletedEvent).toMatchObject({ actor: { type: "system" }, team_id: conn.teamId, data: { connection_id: conn.connectionId } });
  });

  it("links the existing account when the team verified the email's domain", async () => {
    const domain = uniqueDomain("linked");
    await verifyDomain(conn, domain);
    const person = await signUp(conn.project.client, `alice@${domain}`);
    const created = await scim(conn, "/Users", { body: entraUser(`alice@${domain}`, `alice@${domain}`) });
    expect(created.status, created.text).toBe(201);
    const event = (await eventsOf(conn, "scim.user_created")).find((e) => e.data.identity_id === created.body.id);
    expect(event.user_id).toBe(person.userId);
    expect(await teamMemberIds(conn)).toContain(person.userId);
  });

  it("never links an account by an email whose domain the team did not verify", async () => {
    const domain = uniqueDomain("unverified");
    const person = await signUp(conn.project.client, `bob@${domain}`);
    const created = await scim(conn, "/Users", { body: entraUser(`bob@${domain}`, `bob@${domain}`) });
    expect(created.status, created.text).toBe(201);
    const event = (await eventsOf(conn, "scim.user_created")).find((e) => e.data.identity_id === created.body.id);
    expect(event.user_id).not.toBe(person.userId);
    // The new account keeps the address, unverified and not for signing in.
    const user = await call(`/users/${event.user_id}`, conn.project.server);
    expect(user.body).toMatchObject({ primary_email: `bob@${domain}`, primary_email_verified: false, primary_email_auth_enabled: false });
    expect(await teamMemberIds(conn)).not.toContain(person.userId);
  });
});

describe("identities a first SSO sign-in made", () => {
  it("are found by userName whatever its case, and managed like provisioned ones", async () => {
    const person = await signUp(conn.project.client);
    const mixed = `Mixed.Case-${crypto.randomUUID().slice(0, 8)}@Example.Test`;
    const id = await insertSignInIdentity(conn, person.userId, mixed, `subject-${crypto.randomUUID()}`);
    // Entra looks the user up before creating it: it finds the signed-in identity, so it does not create a second.
    const found = await scim(conn, `/Users?filter=${encodeURIComponent(`userName eq "${mixed.toLowerCase()}"`)}`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0]).toMatchObject({ id, userName: mixed, active: true });
    expectConflict(await scim(conn, "/Users", { body: entraUser(mixed.toUpperCase(), mixed) }));
    // Entra then patches it with its attributes.
    const patched = await scim(conn, `/Users/${id}`, {
      method: "PATCH",
      body: patchOp(
        { op: "Replace", path: "externalId", value: "entra-object-id" },
        { op: "Add", path: "displayName", value: "Mixed Case" },
      ),
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      userName: mixed,
      externalId: "entra-object-id",
      displayName: "Mixed Case",
      meta: { version: 'W/"2"' },
    });
  });
});

function expectConflict(res: { status: number; body: { scimType?: string } }) {
  expect(res.status).toBe(409);
  expect(res.body.scimType).toBe("uniqueness");
}

describe("Entra group provisioning", () => {
  it("creates a group, finds it, renames it, adds and removes members, deletes it", async () => {
    const users = await Promise.all(
      [1, 2].map(async (n) => {
        const res = await scim(conn, "/Users", { body: entraUser(`member${n}-${crypto.randomUUID()}@x.test`, `m${n}@x.test`) });
        expect(res.status, res.text).toBe(201);
        return res.body.id as string;
      }),
    );
    const displayName = `Group-${crypto.randomUUID()}`;
    const created = await scim(conn, "/Groups", {
      body: {
        schemas: [GROUP_SCHEMA, "http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group"],
        externalId: crypto.randomUUID(),
        displayName,
        meta: { resourceType: "Group" },
      },
    });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.id;
    expect(created.body).toMatchObject({
      schemas: [GROUP_SCHEMA],
      displayName,
      members: [],
      meta: { resourceType: "Group", version: 'W/"1"' },
    });

    // Get group with excludedAttributes=members; get group by displayName.
    const read = await scim(conn, `/Groups/${id}?excludedAttributes=members`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("members");
    expect(read.body.displayName).toBe(displayName);
    const found = await scim(conn, `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`displayName eq "${displayName}"`)}`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0]).not.toHaveProperty("members");

    // Update group [non-member attributes].
    const renamedTo = `${displayName}updatedDisplayName`;
    const renamed = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "Replace", path: "displayName", value: renamedTo }),
    });
    expect(renamed.status, renamed.text).toBe(204);
    expect(renamed.headers.get("etag")).toBe('W/"2"');

    // Update group [add members].
    const added = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "Add", path: "members", value: users.map((value) => ({ $ref: null, value })) }),
    });
    expect(added.status, added.text).toBe(204);
    const withMembers = await scim(conn, `/Groups/${id}`);
    expect(withMembers.body.displayName).toBe(renamedTo);
    expect(withMembers.body.members.map((m: { value: string }) => m.value).sort()).toEqual([...users].sort());
    // The User shows the group it is in.
    const member = await scim(conn, `/Users/${users[0]}`);
    expect(member.body.groups).toEqual([expect.objectContaining({ value: id, display: renamedTo })]);

    // Update group [remove members]: the value-list form, then the path-filter form.
    const removedOne = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "Remove", path: "members", value: [{ $ref: null, value: users[0] }] }),
    });
    expect(removedOne.status, removedOne.text).toBe(204);
    const removedTwo = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "remove", path: `members[value eq "${users[1]}"]` }),
    });
    expect(removedTwo.status, removedTwo.text).toBe(204);
    expect((await scim(conn, `/Groups/${id}`)).body.members).toEqual([]);

    const deleted = await scim(conn, `/Groups/${id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await scim(conn, `/Groups/${id}`)).status).toBe(404);
    const types = new Set(
      [
        ...(await eventsOf(conn, "scim.group_created")),
        ...(await eventsOf(conn, "scim.group_updated")),
        ...(await eventsOf(conn, "scim.group_deleted")),
      ]
        .filter((e) => e.data.group_id === id)
        .map((e) => e.type),
    );
    expect([...types].sort()).toEqual(["scim.group_created", "scim.group_deleted", "scim.group_updated"]);
  });
});
