/** /team-invitations: send (with mail), list, revoke, and accept by code or id, incl. races and restricted users. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, waitForOutbox } from "../helpers/mail";
import { asUser, grant, permissionsOf, type TeamProject, teamProject, teamWithMember } from "../helpers/teams";

const CALLBACK = "http://localhost:3000/handler/team-invitation";

async function invite(p: TeamProject, teamId: string, email = uniqueEmail("invitee")) {
  const sent = await call("/team-invitations/send-code", { ...p.server, body: { team_id: teamId, email, callback_url: CALLBACK } });
  if (sent.status !== 200) throw new Error(`send failed: ${sent.status} ${sent.text}`);
  const [mail] = await waitForOutbox(email);
  return { id: sent.body.id as string, email, code: codeFrom(mail!), mail: mail! };
}

const memberRows = async (teamId: string, userId: string) =>
  (await env.DB.prepare("SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?").bind(teamId, userId).all()).results.length;

describe("sending invitations", () => {
  it("a client member needs $invite_members; the mail names the team and links to the callback", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const email = uniqueEmail("friend");
    const send = () =>
      call("/team-invitations/send-code", { ...asUser(p, member), body: { team_id: teamId, email, callback_url: CALLBACK } });
    expect((await send()).body).toMatchObject({
      code: "TEAM_PERMISSION_REQUIRED",
      details: { team_id: teamId, user_id: member.userId, permission_id: "$invite_members" },
    });
    await grant(p, teamId, member.userId, "$invite_members");
    const sent = await send();
    expect(sent.body).toEqual({ success: true, id: expect.any(String) });
    const [mail] = await waitForOutbox(email);
    expect(mail!.subject).toBe("You have been invited to join Crew");
    expect(mail!.text).toContain(`${CALLBACK}?code=`);
    expect(codeFrom(mail!)).toHaveLength(45);
  });

  it("refuses untrusted callbacks, unknown teams and outsiders", async () => {
    const p = await teamProject();
    const { teamId } = await teamWithMember(p);
    const body = { team_id: teamId, email: uniqueEmail(), callback_url: "https://evil.example/steal" };
    expect((await call("/team-invitations/send-code", { ...p.server, body })).body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    const ghost = { ...body, team_id: crypto.randomUUID(), callback_url: CALLBACK };
    expect((await call("/team-invitations/send-code", { ...p.server, body: ghost })).body.code).toBe("TEAM_NOT_FOUND");
    const outsider = await signUp(p.client);
    const res = await call("/team-invitations/send-code", { ...asUser(p, outsider), body: { ...body, callback_url: CALLBACK } });
    expect(res.body.code).toBe("TEAM_MEMBERSHIP_NOT_FOUND");
    expect((await call("/team-invitations/send-code", { ...p.client, body: { ...body, callback_url: CALLBACK } })).body.code).toBe(
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
  });
});

describe("listing and revoking", () => {
  it("a client lists a team's invitations with $read_members and $invite_members", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const sent = await invite(p, teamId);
    const list = () => call(`/team-invitations?team_id=${teamId}`, asUser(p, member));
    expect((await list()).body).toMatchObject({ code: "TEAM_PERMISSION_REQUIRED", details: { permission_id: "$read_members" } });
    await grant(p, teamId, member.userId, "$read_members");
    expect((await list()).body).toMatchObject({ code: "TEAM_PERMISSION_REQUIRED", details: { permission_id: "$invite_members" } });
    await grant(p, teamId, member.userId, "$invite_members");
    const items = (await list()).body.items;
    expect(items).toEqual([
      { id: sent.id, team_id: teamId, team_display_name: "Crew", expires_at_millis: expect.any(Number), recipient_email: sent.email },
    ]);
    expect((await call(`/team-invitations?team_id=${teamId}`, p.server)).body.items).toHaveLength(1);
    expect((await call("/team-invitations", p.server)).status).toBe(400);
  });

  it("revoking needs $remove_members; a revoked code no longer works", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const sent = await invite(p, teamId);
    const remove = () => call(`/team-invitations/${sent.id}?team_id=${teamId}`, { ...asUser(p, member), method: "DELETE" });
    expect((await remove()).body).toMatchObject({ code: "TEAM_PERMISSION_REQUIRED", details: { permission_id: "$remove_members" } });
    await grant(p, teamId, member.userId, "$remove_members");
    expect((await remove()).body).toEqual({ success: true });
    expect((await remove()).body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    const invitee = await signUp(p.client, sent.email);
    expect((await call("/team-invitations/accept", { ...asUser(p, invitee), body: { code: sent.code } })).body.code).toBe(
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });

  it("an invitation cannot be revoked through another team", async () => {
    const p = await teamProject();
    const a = await teamWithMember(p);
    const b = await teamWithMember(p);
    const sent = await invite(p, a.teamId);
    const res = await call(`/team-invitations/${sent.id}?team_id=${b.teamId}`, { ...asUser(p, b.creator), method: "DELETE" });
    expect(res.body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    expect((await call(`/team-invitations?team_id=${a.teamId}`, p.server)).body.items).toHaveLength(1);
  });
});

describe("accepting by code", () => {
  it("details, check-code and accept; membership gets the member defaults; the code is single use", async () => {
    const p = await teamProject({ team_member_default_permissions: [{ id: "team_member" }] });
    const { teamId } = await teamWithMember(p);
    const sent = await invite(p, teamId);
    const invitee = await signUp(p.client, sent.email);
    const as = asUser(p, invitee);
    expect((await call("/team-invitations/accept/details", { ...as, body: { code: sent.code } })).body).toEqual({
      team_id: teamId,
      team_display_name: "Crew",
    });
    expect((await call("/team-invitations/accept/check-code", { ...p.client, body: { code: sent.code } })).body).toEqual({
      is_code_valid: true,
    });
    expect((await call("/team-invitations/accept/details", { ...p.client, body: { code: sent.code } })).body.code).toBe(
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    expect((await call("/team-invitations/accept", { ...as, body: { code: sent.code } })).body).toEqual({});
    expect((await call("/teams?user_id=me", as)).body.items.map((t: { id: string }) => t.id)).toEqual([teamId]);
    expect(await permissionsOf(p, teamId, invitee.userId)).toContain("team_member");
    const again = await call("/team-invitations/accept", { ...as, body: { code: sent.code } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    expect((await call("/team-invitations/accept", { ...as, body: { code: "x".repeat(45) } })).body.code).toBe(
      "VERIFICATION_CODE_NOT_FOUND",
    );
    expect((await call("/team-invitations/accept", { ...as, body: { code: "short" } })).body.code).toBe("SCHEMA_ERROR");
  });

  it("a double accept under concurrency: exactly one success, one membership", async () => {
    const p = await teamProject();
    const { teamId } = await teamWithMember(p);
    const sent = await invite(p, teamId);
    const invitee = await signUp(p.client, sent.email);
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => call("/team-invitations/accept", { ...asUser(p, invitee), body: { code: sent.code } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.code === "VERIFICATION_CODE_ALREADY_USED")).toHaveLength(3);
    expect(await memberRows(teamId, invitee.userId)).toBe(1);
  });

  it("accepting as an existing member is fine (membership is idempotent)", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const sent = await invite(p, teamId);
    expect((await call("/team-invitations/accept", { ...asUser(p, member), body: { code: sent.code } })).body).toEqual({});
    expect(await memberRows(teamId, member.userId)).toBe(1);
  });

  it("anonymous and restricted users are refused without burning the code", async () => {
    const p = await teamProject();
    const { teamId } = await teamWithMember(p);
    const sent = await invite(p, teamId);
    const anon = await call("/auth/anonymous/sign-up", { ...p.client, body: {} });
    const asAnon = { ...p.client, accessToken: anon.body.access_token, allowAnonymous: true };
    const refused = await call("/team-invitations/accept", { ...asAnon, body: { code: sent.code } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      details: { restricted_reason: { type: "anonymous" } },
    });
    expect((await call("/team-invitations/accept/details", { ...asAnon, body: { code: sent.code } })).body.code).toBe(
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
    );

    const restricted = await signUp(p.client);
    await call(`/users/${restricted.userId}`, { ...p.server, method: "PATCH", body: { restricted_by_admin: true } });
    const asRestricted = { ...asUser(p, restricted), allowAnonymous: true };
    const blocked = await call("/team-invitations/accept", { ...asRestricted, body: { code: sent.code } });
    expect(blocked.body).toMatchObject({
      code: "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      details: { restricted_reason: { type: "restricted_by_administrator" } },
    });
    expect(await memberRows(teamId, restricted.userId)).toBe(0);

    const invitee = await signUp(p.client, sent.email);
    expect((await call("/team-invitations/accept", { ...asUser(p, invitee), body: { code: sent.code } })).body).toEqual({});
  });

  it("a code of one project does nothing in another", async () => {
    const a = await teamProject();
    const b = await teamProject();
    const { teamId } = await teamWithMember(a);
    const sent = await invite(a, teamId);
    const userB = await signUp(b.client);
    expect((await call("/team-invitations/accept", { ...asUser(b, userB), body: { code: sent.code } })).body.code).toBe(
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });

  it("a deleted team's invitation is gone with it", async () => {
    const p = await teamProject();
    const { creator, teamId } = await teamWithMember(p);
    const sent = await invite(p, teamId);
    await call(`/teams/${teamId}`, { ...asUser(p, creator), method: "DELETE" });
    const invitee = await signUp(p.client, sent.email);
    expect((await call("/team-invitations/accept", { ...asUser(p, invitee), body: { code: sent.code } })).body.code).toBe(
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });
});

describe("invitations of the signed-in user", () => {
  it("lists invitations to verified emails and accepts by id", async () => {
    const p = await teamProject();
    const { teamId } = await teamWithMember(p);
    const sent = await invite(p, teamId);
    const invitee = await signUp(p.client, sent.email);
    const as = asUser(p, invitee);
    // Unverified address: nothing to see, nothing to accept.
    expect((await call("/team-invitations?user_id=me", as)).body.items).toEqual([]);
    const early = await call(`/team-invitations/${sent.id}/accept?user_id=me`, { ...as, body: {} });
    expect(early.body.code).toBe("VERIFICATION_CODE_NOT_FOUND");

    await call(`/users/${invitee.userId}`, { ...p.server, method: "PATCH", body: { primary_email_verified: true } });
    const mine = await call("/team-invitations?user_id=me", as);
    expect(mine.body.items).toEqual([
      expect.objectContaining({ id: sent.id, team_id: teamId, team_display_name: "Crew", recipient_email: sent.email }),
    ]);
    const [x, y] = await Promise.all([1, 2].map(() => call(`/team-invitations/${sent.id}/accept?user_id=me`, { ...as, body: {} })));
    expect([x!.status, y!.status].sort()).toEqual([200, 404]);
    expect(await memberRows(teamId, invitee.userId)).toBe(1);
    expect((await call("/team-invitations?user_id=me", as)).body.items).toEqual([]);
  });

  it("clients accept only for themselves; the server for anyone", async () => {
    const p = await teamProject();
    const { member, teamId } = await teamWithMember(p);
    const sent = await invite(p, teamId);
    const invitee = await signUp(p.client, sent.email);
    await call(`/users/${invitee.userId}`, { ...p.server, method: "PATCH", body: { primary_email_verified: true } });
    const forOther = await call(`/team-invitations/${sent.id}/accept?user_id=${invitee.userId}`, { ...asUser(p, member), body: {} });
    expect(forOther.status).toBeGreaterThanOrEqual(400);
    const byServer = await call(`/team-invitations/${sent.id}/accept?user_id=${invitee.userId}`, { ...p.server, body: {} });
    expect(byServer.body).toEqual({});
    expect(await memberRows(teamId, invitee.userId)).toBe(1);
  });
});
