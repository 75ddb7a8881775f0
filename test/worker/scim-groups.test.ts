/**
 * SCIM Groups and team permissions (issue 31): a member's team permissions follow the connection's
 * group mapping (displayName → permission ids): joining a mapped group grants, leaving it, a rename
 * or the group's deletion revokes what no remaining group of the member maps; permissions granted
 * otherwise are left alone. Every group write is one batch with a compare-and-set on its version:
 * 20 PATCHes adding different members at once all land, and concurrent changes to two groups of one
 * member leave the permissions true to the groups.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import {
  eventsOf,
  GROUP_SCHEMA,
  patchOp,
  type ScimConnection,
  scim,
  scimConnection,
  setGroupMapping,
  teamPermissionsOf,
  USER_SCHEMA,
} from "../helpers/sso-scim";
import { grant } from "../helpers/teams";

let conn: ScimConnection;

beforeAll(async () => {
  conn = await scimConnection();
  for (const id of ["eng_perm", "ops_perm", "manual_perm"]) {
    const res = await call("/team-permission-definitions", { ...conn.project.admin, body: { id } });
    expect(res.status, res.text).toBe(201);
  }
}, 60_000);

/** A provisioned User: its SCIM id and Doorman user id. */
async function provision(active = true): Promise<{ id: string; userId: string }> {
  const userName = `member-${crypto.randomUUID()}@groups.test`;
  const res = await scim(conn, "/Users", { body: { schemas: [USER_SCHEMA], userName, active } });
  expect(res.status, res.text).toBe(201);
  const event = (await eventsOf(conn, "scim.user_created")).find((e) => e.data.identity_id === res.body.id);
  return { id: res.body.id, userId: event.user_id };
}

async function createGroup(displayName: string, memberIds: string[] = []): Promise<string> {
  const res = await scim(conn, "/Groups", {
    body: { schemas: [GROUP_SCHEMA], displayName, members: memberIds.map((value) => ({ value })) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function patchGroup(id: string, ...operations: Record<string, unknown>[]) {
  const res = await scim(conn, `/Groups/${id}`, { method: "PATCH", body: patchOp(...operations) });
  expect(res.status, res.text).toBe(204);
}

describe("group mapping", () => {
  it("grants mapped permissions on joining and revokes those no remaining group maps", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const engineering = `Engineering ${suffix}`;
    const admins = `Admins ${suffix}`;
    await setGroupMapping(conn, { [engineering]: ["eng_perm"], [admins]: ["$update_team", "eng_perm"], Ghost: ["no_such_permission"] });
    const [u1, u2] = [await provision(), await provision()];
    await grant(conn.project as never, conn.teamId, u1!.userId, "manual_perm");

    const eng = await createGroup(engineering, [u1!.id, u2!.id]);
    expect(await teamPermissionsOf(conn, u1!.userId)).toEqual(["eng_perm", "manual_perm"]);
    expect(await teamPermissionsOf(conn, u2!.userId)).toEqual(["eng_perm"]);

    const adm = await createGroup(admins, [u2!.id]);
    expect(await teamPermissionsOf(conn, u2!.userId)).toEqual(["$update_team", "eng_perm"]);

    // Leaving Engineering: Admins still maps eng_perm for u2.
    await patchGroup(eng, { op: "remove", path: `members[value eq "${u2!.id}"]` });
    expect(await teamPermissionsOf(conn, u2!.userId)).toEqual(["$update_team", "eng_perm"]);
    // Leaving Admins too: nothing maps them any more.
    await patchGroup(adm, { op: "remove", path: "members", value: [{ value: u2!.id }] });
    expect(await teamPermissionsOf(conn, u2!.userId)).toEqual([]);

    // A rename to an unmapped name revokes; back to the mapped name grants again. A manual grant stays.
    await patchGroup(eng, { op: "replace", path: "displayName", value: `Former ${suffix}` });
    expect(await teamPermissionsOf(conn, u1!.userId)).toEqual(["manual_perm"]);
    await patchGroup(eng, { op: "replace", value: { displayName: engineering } });
    expect(await teamPermissionsOf(conn, u1!.userId)).toEqual(["eng_perm", "manual_perm"]);

    // Deleting the group revokes what it mapped.
    expect((await scim(conn, `/Groups/${eng}`, { method: "DELETE" })).status).toBe(204);
    expect(await teamPermissionsOf(conn, u1!.userId)).toEqual(["manual_perm"]);
  });

  it("gives an inactive member nothing until it is reactivated", async () => {
    const name = `Ops ${crypto.randomUUID().slice(0, 8)}`;
    await setGroupMapping(conn, { [name]: ["ops_perm"] });
    const dormant = await provision(false);
    await createGroup(name, [dormant.id]);
    expect(await teamPermissionsOf(conn, dormant.userId)).toEqual([]);
    const on = await scim(conn, `/Users/${dormant.id}`, { method: "PATCH", body: patchOp({ op: "replace", path: "active", value: true }) });
    expect(on.status, on.text).toBe(200);
    expect(await teamPermissionsOf(conn, dormant.userId)).toEqual(["ops_perm"]);
    // Deactivated, every team grant goes with the membership.
    await scim(conn, `/Users/${dormant.id}`, { method: "PATCH", body: patchOp({ op: "replace", path: "active", value: false }) });
    expect(await teamPermissionsOf(conn, dormant.userId)).toEqual([]);
  });

  it("refuses members that are not Users of the connection, and a taken displayName", async () => {
    const name = `Checked ${crypto.randomUUID().slice(0, 8)}`;
    const id = await createGroup(name);
    const other = await scimConnection({}, conn.project);
    const stranger = (await scim(other, "/Users", { body: { userName: `stranger-${crypto.randomUUID()}@x.test` } })).body.id as string;
    for (const value of [crypto.randomUUID(), stranger]) {
      const res = await scim(conn, `/Groups/${id}`, { method: "PATCH", body: patchOp({ op: "add", path: "members", value: [{ value }] }) });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: "400", scimType: "invalidValue" });
    }
    const taken = await scim(conn, "/Groups", { body: { displayName: name } });
    expect(taken.status).toBe(409);
    expect(taken.body.scimType).toBe("uniqueness");
    const second = await createGroup(`${name} 2`);
    const rename = await scim(conn, `/Groups/${second}`, {
      method: "PATCH",
      body: patchOp({ op: "replace", path: "displayName", value: name }),
    });
    expect(rename.status).toBe(409);
  });
});

describe("concurrent group writes", () => {
  it("20 parallel PATCHes adding different members all land, one version step each", async () => {
    const name = `Crowd ${crypto.randomUUID().slice(0, 8)}`;
    await setGroupMapping(conn, { [name]: ["eng_perm"] });
    const users = await Promise.all(Array.from({ length: 20 }, () => provision()));
    const id = await createGroup(name);
    const results = await Promise.all(
      users.map((u) =>
        scim(conn, `/Groups/${id}`, { method: "PATCH", body: patchOp({ op: "add", path: "members", value: [{ value: u.id }] }) }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(users.map(() => 204));
    const group = await scim(conn, `/Groups/${id}`);
    expect(group.body.members.map((m: { value: string }) => m.value).sort()).toEqual(users.map((u) => u.id).sort());
    expect(group.body.meta.version).toBe('W/"21"');
    expect(group.headers.get("etag")).toBe('W/"21"');
    // Each PATCH answered a distinct version: none overwrote another.
    expect(new Set(results.map((r) => r.headers.get("etag"))).size).toBe(20);
    const updates = (await eventsOf(conn, "scim.group_updated")).filter((e) => e.data.group_id === id);
    expect(updates).toHaveLength(20);
    for (const u of users) expect(await teamPermissionsOf(conn, u.userId)).toEqual(["eng_perm"]);
  });

  it("a member moved between two groups that map one permission keeps it", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const [a, b] = [`Left ${suffix}`, `Right ${suffix}`];
    await setGroupMapping(conn, { [a]: ["ops_perm"], [b]: ["ops_perm"] });
    const member = await provision();
    const left = await createGroup(a, [member.id]);
    const right = await createGroup(b);
    for (let round = 0; round < 4; round++) {
      const [from, to] = round % 2 === 0 ? [left, right] : [right, left];
      await Promise.all([
        patchGroup(from, { op: "remove", path: `members[value eq "${member.id}"]` }),
        patchGroup(to, { op: "add", path: "members", value: [{ value: member.id }] }),
      ]);
      expect(await teamPermissionsOf(conn, member.userId)).toEqual(["ops_perm"]);
    }
    await patchGroup(left, { op: "remove", path: `members[value eq "${member.id}"]` });
    expect(await teamPermissionsOf(conn, member.userId)).toEqual([]);
  });

  it("writes large memberships in one batch, and refuses more than 1,000 changes at once", async () => {
    const name = `Large ${crypto.randomUUID().slice(0, 8)}`;
    await setGroupMapping(conn, { [name]: ["ops_perm"] });
    const users: { id: string; userId: string }[] = [];
    for (let i = 0; i < 4; i++) users.push(...(await Promise.all(Array.from({ length: 30 }, () => provision()))));
    // 120 members: more than D1's 100 bound parameters, so the lists travel as one JSON parameter.
    const id = await createGroup(
      name,
      users.map((u) => u.id),
    );
    expect((await scim(conn, `/Groups/${id}`)).body.members).toHaveLength(120);
    expect(await teamPermissionsOf(conn, users[119]!.userId)).toEqual(["ops_perm"]);
    await patchGroup(id, { op: "remove", path: "members", value: users.slice(0, 110).map((u) => ({ value: u.id })) });
    const left = await scim(conn, `/Groups/${id}`);
    expect(left.body.members.map((m: { value: string }) => m.value).sort()).toEqual(
      users
        .slice(110)
        .map((u) => u.id)
        .sort(),
    );
    expect(await teamPermissionsOf(conn, users[0]!.userId)).toEqual([]);
    expect(await teamPermissionsOf(conn, users[115]!.userId)).toEqual(["ops_perm"]);
    const tooMany = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      body: patchOp({ op: "add", path: "members", value: Array.from({ length: 1001 }, () => ({ value: crypto.randomUUID() })) }),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.scimType).toBe("invalidValue");
  });

  it("a PATCH pinned to an old version with If-Match is refused with 412", async () => {
    const id = await createGroup(`Pinned ${crypto.randomUUID().slice(0, 8)}`);
    const member = await provision();
    await patchGroup(id, { op: "add", path: "members", value: [{ value: member.id }] });
    const stale = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      headers: { "if-match": 'W/"1"' },
      body: patchOp({ op: "remove", path: "members" }),
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "412" });
    const fresh = await scim(conn, `/Groups/${id}`, {
      method: "PATCH",
      headers: { "if-match": 'W/"2"' },
      body: patchOp({ op: "remove", path: "members" }),
    });
    expect(fresh.status).toBe(204);
    expect((await scim(conn, `/Groups/${id}`)).body.members).toEqual([]);
  });
});
