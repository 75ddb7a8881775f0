/**
 * SCIM driven as Okta's provisioning drives it (issue 31): the requests follow Okta's SCIM 2.0
 * reference, its documented call sequence and bodies:
 * - https://developer.okta.com/docs/api/openapi/okta-scim/guides/scim-20
 *   (Create users: "Determine if the user already exists" with GET /Users?filter=userName eq "…"
 *   &startIndex=1&count=100, then POST /Users with a password and an empty `groups`; Retrieve users:
 *   GET /Users?startIndex=1&count=…; Update a specific user (PUT) with the whole user; Update a
 *   specific user (PATCH) deactivation `{"op":"replace","value":{"active":false}}`; Create groups;
 *   Update a specific group name (PATCH replace with `id` and `displayName` in the value); Update
 *   specific group membership (PATCH add `members` with value and display, remove
 *   `members[value eq "…"]`); Delete a specific group)
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { GROUP_SCHEMA, patchOp, type ScimConnection, scim, scimConnection, teamMemberIds, USER_SCHEMA } from "../helpers/sso-scim";

let conn: ScimConnection;

beforeAll(async () => {
  conn = await scimConnection();
}, 60_000);

/** The body Okta sends to create a user (its "Create the user" request, with our values). */
function oktaUser(userName: string) {
  return {
    schemas: [USER_SCHEMA],
    userName,
    name: { givenName: "Test", familyName: "User" },
    emails: [{ primary: true, value: userName, type: "work" }],
    displayName: "Test User",
    locale: "en-US",
    externalId: `00u${crypto.randomUUID().replaceAll("-", "").slice(0, 17)}`,
    groups: [],
    password: "1mz050nq",
    active: true,
  };
}

async function userIdOf(identityId: string): Promise<string> {
  const res = await call(`/internal/events?type=scim.user_created&limit=100`, conn.project.admin);
  return res.body.items.find((e: { data: { identity_id: string } }) => e.data.identity_id === identityId).user_id;
}

describe("Okta user provisioning", () => {
  it("checks for the user, creates it, replaces it with PUT and deactivates it with PATCH", async () => {
    const userName = `test.user-${crypto.randomUUID()}@okta.local`;
    const lookup = await scim(conn, `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

    const created = await scim(conn, "/Users", { body: oktaUser(userName) });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.id;
    // The password is never stored nor answered, and `groups` is the server's (read-only).
    expect(created.body).not.toHaveProperty("password");
    expect(created.body.groups).toEqual([]);
    expect(created.body).toMatchObject({ userName, displayName: "Test User", locale: "en-US", active: true });
    const userId = await userIdOf(id);
    expect(await teamMemberIds(conn)).toContain(userId);

    // The lookup now finds it (Okta then links instead of creating a duplicate).
    const again = await scim(conn, `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`);
    expect(again.body.totalResults).toBe(1);
    expect(again.body.Resources[0]).toMatchObject({ id, userName });

    // Update a specific user (PUT): the whole user, with the id, the new name and the same password.
    const put = await scim(conn, `/Users/${id}`, {
      method: "PUT",
      body: {
        ...oktaUser(userName),
        id,
        externalId: created.body.externalId,
        name: { givenName: "Another", familyName: "User" },
        displayName: "Another User",
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ id, name: { givenName: "Another", familyName: "User" }, displayName: "Another User", active: true });
    expect(put.body.meta.version).toBe('W/"2"');
    expect((await call(`/users/${userId}`, conn.project.server)).body.display_name).toBe("Another User");

    // A PUT that changes nothing writes nothing: the version stays.
    const same = await scim(conn, `/Users/${id}`, {
      method: "PUT",
      body: {
        ...oktaUser(userName),
        id,
        externalId: created.body.externalId,
        name: { givenName: "Another", familyName: "User" },
        displayName: "Another User",
      },
    });
    expect(same.body.meta.version).toBe('W/"2"');

    // Update a specific user (PATCH): deactivation.
    const deactivated = await scim(conn, `/Users/${id}`, { method: "PATCH", body: patchOp({ op: "replace", value: { active: false } }) });
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(deactivated.body.active).toBe(false);
    expect(await teamMemberIds(conn)).not.toContain(userId);

    // Reactivation (Okta's "Reactivate users") through PUT with active true.
    const reactivated = await scim(conn, `/Users/${id}`, {
      method: "PUT",
      body: { ...oktaUser(userName), id, externalId: created.body.externalId, active: true },
    });
    expect(reactivated.status, reactivated.text).toBe(200);
    expect(reactivated.body.active).toBe(true);
    expect(await teamMemberIds(conn)).toContain(userId);

    // Creating the same userName again is refused: Okta looks it up instead.
    const duplicate = await scim(conn, "/Users", { body: oktaUser(userName.toUpperCase()) });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ status: "409", scimType: "uniqueness" });
  });

  it("retrieves users a page at a time", async () => {
    const own = await scimConnection({}, conn.project);
    for (let i = 0; i < 5; i++)
      expect((await scim(own, "/Users", { body: oktaUser(`page${i}-${crypto.randomUUID()}@okta.local`) })).status).toBe(201);
    const first = await scim(own, "/Users?startIndex=1&count=2");
    expect(first.body).toMatchObject({ totalResults: 5, startIndex: 1, itemsPerPage: 2 });
    const third = await scim(own, "/Users?startIndex=5&count=2");
    expect(third.body).toMatchObject({ totalResults: 5, startIndex: 5, itemsPerPage: 1 });
    const all = await scim(own, "/Users?startIndex=1&count=100");
    expect(all.body.Resources.map((r: { id: string }) => r.id)).toEqual([
      ...first.body.Resources.map((r: { id: string }) => r.id),
      ...(await scim(own, "/Users?startIndex=3&count=2")).body.Resources.map((r: { id: string }) => r.id),
      ...third.body.Resources.map((r: { id: string }) => r.id),
    ]);
    // Another connection's users are not listed (the first connection has its own).
    expect((await scim(conn, "/Users?count=100")).body.Resources.some((r: { id: string }) => all.body.Resources[0].id === r.id)).toBe(
      false,
    );
  });
});

describe("Okta group push", () => {
  it("creates a group, renames it, changes its membership and deletes it", async () => {
    const members = await Promise.all(
      [1, 2].map(
        async (n) => (await scim(conn, "/Users", { body: oktaUser(`push${n}-${crypto.randomUUID()}@okta.local`) })).body.id as string,
      ),
    );
    const created = await scim(conn, "/Groups", {
      body: { schemas: [GROUP_SCHEMA], displayName: `Test SCIMv2 ${crypto.randomUUID()}`, members: [] },
    });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.id;

    // Update a specific group name: Okta repeats the id inside the value.
    const newName = `Test SCIMv2 renamed ${crypto.randomUUID()}`;
    const renamed = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "replace", value: { id, displayName: newName } }),
    });
    expect(renamed.status, renamed.text).toBe(204);

    // Update specific group membership: add with value and display, then remove by filter.
    const added = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "add", path: "members", value: members.map((value) => ({ value, display: "someone@okta.local" })) }),
    });
    expect(added.status, added.text).toBe(204);
    const removed = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "remove", path: `members[value eq "${members[0]}"]` }),
    });
    expect(removed.status, removed.text).toBe(204);
    const read = await scim(conn, `/Groups/${id}`);
    expect(read.body).toMatchObject({ displayName: newName, members: [{ value: members[1], type: "User" }] });
    expect(read.body.meta.version).toBe('W/"4"');

    // A group push can also send the whole group (PUT): members as listed.
    const put = await scim(conn, `/Groups/${id}`, {
      method: "PUT",
      body: { schemas: [GROUP_SCHEMA], id, displayName: newName, members: [{ value: members[0] }] },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.members.map((m: { value: string }) => m.value)).toEqual([members[0]]);

    const deleted = await scim(conn, `/Groups/${id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await scim(conn, `/Groups?filter=${encodeURIComponent(`displayName eq "${newName}"`)}`)).body.totalResults).toBe(0);
  });
});
