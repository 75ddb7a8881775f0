/**
 * SCIM deprovisioning (issue 31): when the IdP sets a user inactive (PATCH or PUT) or deletes it, the
 * user leaves the connection's team (grants and team selection with it) and EVERY session of theirs in
 * the project ends in the same batch: each refresh token finds nothing, each access token is refused
 * on its next request. Another user's sessions are untouched; reactivation gives the membership back.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type CallOptions, call, type SignedUp, signUp } from "../helpers/api";
import {
  eventsOf,
  patchOp,
  type ScimConnection,
  scim,
  scimConnection,
  teamMemberIds,
  teamPermissionsOf,
  USER_SCHEMA,
  uniqueDomain,
  verifyDomain,
} from "../helpers/sso-scim";

let conn: ScimConnection;
let domain: string;

beforeAll(async () => {
  conn = await scimConnection({ team_member_default_permissions: [{ id: "team_member" }] });
  domain = uniqueDomain("deprovision");
  await verifyDomain(conn, domain);
}, 60_000);

type Session = { accessToken: string; refreshToken: string };

/** A person of the verified domain with three sessions: sign-up, a second password sign-in, and one the back end made. */
async function personWithSessions(): Promise<{ person: SignedUp; sessions: Session[] }> {
  const person = await signUp(conn.project.client, `person-${crypto.randomUUID().slice(0, 8)}@${domain}`);
  const again = await call("/auth/password/sign-in", { ...conn.project.client, body: { email: person.email, password: person.password } });
  expect(again.status, again.text).toBe(200);
  const server = await call("/auth/sessions", { ...conn.project.server, body: { user_id: person.userId } });
  expect(server.status, server.text).toBe(200);
  return {
    person,
    sessions: [
      person,
      { accessToken: again.body.access_token, refreshToken: again.body.refresh_token },
      { accessToken: server.body.access_token, refreshToken: server.body.refresh_token },
    ],
  };
}

const asClient = (s: Session): CallOptions => ({ ...conn.project.client, accessToken: s.accessToken });

async function refresh(s: Session) {
  return call("/auth/sessions/current/refresh", { ...conn.project.client, method: "POST", refreshToken: s.refreshToken });
}

async function provision(email: string): Promise<string> {
  const res = await scim(conn, "/Users", {
    body: { schemas: [USER_SCHEMA], userName: email, emails: [{ primary: true, value: email }], active: true },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function expectSignedOutEverywhere(sessions: Session[]) {
  for (const s of sessions) {
    const refreshed = await refresh(s);
    expect(refreshed.status, refreshed.text).toBe(401);
    expect(refreshed.headers.get("x-stack-known-error")).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const me = await call("/users/me", asClient(s));
    expect(me.status, me.text).toBe(401);
    expect(me.headers.get("x-stack-known-error")).toBe("UNPARSABLE_ACCESS_TOKEN");
  }
}

describe("SCIM deprovisioning", () => {
  it("active=false removes the membership and ends every session of the user at once", async () => {
    const { person, sessions } = await personWithSessions();
    const bystander = await signUp(conn.project.client, `bystander-${crypto.randomUUID().slice(0, 8)}@${domain}`);
    const id = await provision(person.email);
    expect(await teamMemberIds(conn)).toContain(person.userId);
    expect(await teamPermissionsOf(conn, person.userId)).toEqual(["team_member"]);
    // The user works in the team: it is their selected team.
    const select = await call("/users/me", { ...asClient(sessions[0]!), method: "PATCH", body: { selected_team_id: conn.teamId } });
    expect(select.status, select.text).toBe(200);
    for (const s of sessions) expect((await call("/users/me", asClient(s))).status).toBe(200);

    const off = await scim(conn, `/Users/${id}`, { method: "PATCH", body: patchOp({ op: "replace", value: { active: false } }) });
    expect(off.status, off.text).toBe(200);

    expect(await teamMemberIds(conn)).not.toContain(person.userId);
    expect(await teamPermissionsOf(conn, person.userId)).toEqual([]);
    await expectSignedOutEverywhere(sessions);
    const user = await call(`/users/${person.userId}`, conn.project.server);
    expect(user.body.selected_team_id).toBeNull();
    const revoked = (await eventsOf(conn, "session.revoked")).find((e) => e.user_id === person.userId);
    expect(revoked?.data).toMatchObject({ everywhere: true, scim_connection_id: conn.connectionId });
    // Someone else's session is untouched.
    expect((await refresh(bystander)).status).toBe(200);

    // Reactivation: back in the team with the member defaults; the ended sessions stay ended.
    const on = await scim(conn, `/Users/${id}`, { method: "PATCH", body: patchOp({ op: "replace", path: "active", value: true }) });
    expect(on.status, on.text).toBe(200);
    expect(await teamMemberIds(conn)).toContain(person.userId);
    expect(await teamPermissionsOf(conn, person.userId)).toEqual(["team_member"]);
    expect((await refresh(sessions[0]!)).status).toBe(401);
  });

  it("PUT with active false deprovisions the same way", async () => {
    const { person, sessions } = await personWithSessions();
    const id = await provision(person.email);
    const put = await scim(conn, `/Users/${id}`, {
      method: "PUT",
      body: { schemas: [USER_SCHEMA], userName: person.email, active: false },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.active).toBe(false);
    expect(await teamMemberIds(conn)).not.toContain(person.userId);
    await expectSignedOutEverywhere(sessions);
  });

  it("DELETE ends the sessions and the membership; the account stays", async () => {
    const { person, sessions } = await personWithSessions();
    const id = await provision(person.email);
    const deleted = await scim(conn, `/Users/${id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await teamMemberIds(conn)).not.toContain(person.userId);
    await expectSignedOutEverywhere(sessions);
    expect((await call(`/users/${person.userId}`, conn.project.server)).status).toBe(200);
    // Provisioned again later, the same account is linked (its domain is verified by the team).
    const again = await provision(person.email);
    expect(again).not.toBe(id);
    const created = (await eventsOf(conn, "scim.user_created")).find((e) => e.data.identity_id === again);
    expect(created.user_id).toBe(person.userId);
    expect(await teamMemberIds(conn)).toContain(person.userId);
  });

  it("a user created inactive joins no team", async () => {
    const email = `dormant-${crypto.randomUUID().slice(0, 8)}@${domain}`;
    const res = await scim(conn, "/Users", { body: { schemas: [USER_SCHEMA], userName: email, active: "False" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.active).toBe(false);
    const created = (await eventsOf(conn, "scim.user_created")).find((e) => e.data.identity_id === res.body.id);
    expect(await teamMemberIds(conn)).not.toContain(created.user_id);
  });
});
