/**
 * Who may manage a team's enterprise SSO (issue 31, ADMIN): the project's owners (admin) and server
 * code any team's; a member holding $update_team their team's; a member without it is refused; an
 * outsider learns nothing (another team's connection is "not found"); a client without a session is
 * refused; and a setup link's token opens that one team's SSO, until it expires, and nothing else
 * (no other team, no new link, no other route).
 */
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { ok, samlConnection, ssoSetup, tokenOfLink, withSetupToken } from "../helpers/sso-admin";
import { asUser, createTeamAs, grant } from "../helpers/teams";

describe("SSO management: access levels", () => {
  it("owners, server code and a member with $update_team manage the team; a member without it is refused", async () => {
    const s = await ssoSetup();
    const c = await ok("/sso/connections", { ...s.asAdmin, body: samlConnection(s.teamId) }, 201);
    for (const who of [s.p.admin, s.p.adminKey, s.p.server, s.asAdmin]) {
      await ok(`/sso/connections?team_id=${s.teamId}`, who);
      await ok(`/sso/connections/${c.id}`, who);
      await ok(`/sso/domains?team_id=${s.teamId}`, who);
      await ok(`/sso/events?team_id=${s.teamId}`, who);
    }
    const asMember = asUser(s.p, s.member);
    const attempts = [
      call(`/sso/connections?team_id=${s.teamId}`, asMember),
      call("/sso/connections", { ...asMember, body: samlConnection(s.teamId) }),
      call(`/sso/connections/${c.id}`, asMember),
      call(`/sso/connections/${c.id}`, { ...asMember, method: "PATCH", body: { display_name: "Mine now" } }),
      call(`/sso/connections/${c.id}/scim-token`, { ...asMember, body: {} }),
      call(`/sso/connections/${c.id}`, { ...asMember, method: "DELETE" }),
      call("/sso/domains", { ...asMember, body: { team_id: s.teamId, domain: "member.example" } }),
      call("/sso/setup-links", { ...asMember, body: { team_id: s.teamId } }),
      call(`/sso/events?team_id=${s.teamId}`, asMember),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, res.text).toBe(401);
      expect(res.body.code).toBe("TEAM_PERMISSION_REQUIRED");
    }
    // Granted $update_team, the same member may.
    await grant(s.p, s.teamId, s.member.userId, "$update_team");
    await ok(`/sso/connections/${c.id}`, { ...asMember, method: "PATCH", body: { display_name: "Renamed by member" } });
  });

  it("an outsider hears 'not found' for another team's connection and domain, and 'not a member' for its lists", async () => {
    const s = await ssoSetup();
    const c = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(s.teamId) }, 201);
    const d = await ok("/sso/domains", { ...s.p.admin, body: { team_id: s.teamId, domain: `outsider-${Date.now()}.example` } }, 201);
    // The outsider administers a team of their own: $update_team there grants nothing here.
    await createTeamAs(s.p, s.outsider, "Other");
    const asOutsider = asUser(s.p, s.outsider);
    for (const res of [
      await call(`/sso/connections/${c.id}`, asOutsider),
      await call(`/sso/connections/${c.id}`, { ...asOutsider, method: "PATCH", body: { display_name: "x" } }),
      await call(`/sso/connections/${c.id}/scim-calls`, asOutsider),
    ])
      expect(res.body.code).toBe("SSO_CONNECTION_NOT_FOUND");
    for (const res of [
      await call(`/sso/domains/${d.id}/verify`, { ...asOutsider, body: {} }),
      await call(`/sso/domains/${d.id}`, { ...asOutsider, method: "DELETE" }),
    ])
      expect(res.body.code).toBe("SSO_DOMAIN_NOT_FOUND");
    const list = await call(`/sso/connections?team_id=${s.teamId}`, asOutsider);
    expect(list.body.code).toBe("TEAM_MEMBERSHIP_NOT_FOUND");
    // Another project's owner reaches nothing of this project.
    const other = await ssoSetup();
    expect((await call(`/sso/connections/${c.id}`, other.p.admin)).body.code).toBe("SSO_CONNECTION_NOT_FOUND");
  });

  it("a client without a session is refused, and an unknown team is TEAM_NOT_FOUND for a back end", async () => {
    const s = await ssoSetup();
    const res = await call(`/sso/connections?team_id=${s.teamId}`, s.p.client);
    expect(res.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const missing = await call(`/sso/connections?team_id=${crypto.randomUUID()}`, s.p.server);
    expect(missing.body.code).toBe("TEAM_NOT_FOUND");
  });
});

describe("SSO management: setup links", () => {
  it("a team admin's link opens the hosted sso-setup page, its token in the fragment, for 7 days by default", async () => {
    const s = await ssoSetup();
    const before = Date.now();
    const link = await ok("/sso/setup-links", { ...s.asAdmin, body: { team_id: s.teamId } }, 201);
    const url = new URL(link.url);
    expect(url.pathname).toBe(`/p/${s.p.projectId}/handler/sso-setup`);
    expect(url.search).toBe("");
    tokenOfLink(link.url);
    expect(link.expires_at_millis).toBeGreaterThanOrEqual(before + 7 * 24 * 3600_000);
    expect(link.expires_at_millis).toBeLessThanOrEqual(Date.now() + 7 * 24 * 3600_000);
    const events = await ok(`/internal/events?type=sso_setup_link.created&team_id=${s.teamId}`, s.p.admin);
    expect(events.items).toHaveLength(1);
    expect(JSON.stringify(events.items)).not.toContain(tokenOfLink(link.url));
    // Longer than 30 days is refused.
    const tooLong = await call("/sso/setup-links", { ...s.p.admin, body: { team_id: s.teamId, expires_in_millis: 31 * 24 * 3600_000 } });
    expect(tooLong.body.code).toBe("SCHEMA_ERROR");
  });

  it("the token manages its team's SSO without an account, and nothing else", async () => {
    const s = await ssoSetup();
    const link = await ok("/sso/setup-links", { ...s.p.admin, body: { team_id: s.teamId } }, 201);
    const viaLink = withSetupToken(s.p, tokenOfLink(link.url));
    const info = await ok("/sso/setup-links/current", viaLink);
    expect(info).toMatchObject({ team_id: s.teamId, team_display_name: "Acme", expires_at_millis: link.expires_at_millis });

    const c = await ok("/sso/connections", { ...viaLink, body: samlConnection(s.teamId) }, 201);
    await ok(`/sso/connections/${c.id}`, { ...viaLink, method: "PATCH", body: { display_name: "Set up by IT" } });
    await ok(`/sso/connections/${c.id}/scim-token`, { ...viaLink, body: {} });
    const d = await ok("/sso/domains", { ...viaLink, body: { team_id: s.teamId, domain: `setup-${Date.now()}.example` } }, 201);
    await ok(`/sso/domains/${d.id}`, { ...viaLink, method: "PATCH", body: { connection_id: c.id } });
    const created = await ok(`/internal/events?type=sso_connection.created&team_id=${s.teamId}`, s.p.admin);
    expect(created.items[0].data).toMatchObject({ connection_id: c.id, setup_link_id: expect.any(String) });

    // Another team of the project: refused, whether named by team id or by a connection's id.
    const other = await createTeamAs(s.p, s.outsider, "Other");
    const otherConnection = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(other) }, 201);
    expect((await call(`/sso/connections?team_id=${other}`, viaLink)).body.code).toBe("SSO_SETUP_LINK_INVALID");
    expect((await call("/sso/connections", { ...viaLink, body: samlConnection(other) })).body.code).toBe("SSO_SETUP_LINK_INVALID");
    expect((await call(`/sso/connections/${otherConnection.id}`, viaLink)).body.code).toBe("SSO_CONNECTION_NOT_FOUND");
    // A link never makes another link, and grants nothing outside SSO management.
    expect((await call("/sso/setup-links", { ...viaLink, body: { team_id: s.teamId } })).body.code).toBe("SSO_SETUP_LINK_INVALID");
    expect((await call(`/sso/connections/${c.id}`, { ...viaLink, method: "PATCH", body: { scim_group_mapping: [] } })).body.code).toBe(
      "SSO_CONNECTION_INVALID_CONFIG",
    );
    expect((await call(`/teams/${s.teamId}`, viaLink)).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    expect((await call("/users/me", viaLink)).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    // The token is the project's: another project's client sending it gets nothing.
    const elsewhere = await ssoSetup();
    const res = await call(`/sso/connections?team_id=${s.teamId}`, withSetupToken(elsewhere.p, tokenOfLink(link.url)));
    expect(res.body.code).toBe("SSO_SETUP_LINK_INVALID");
  });

  it("an expired, unknown or empty token is refused", async () => {
    const s = await ssoSetup();
    const link = await ok("/sso/setup-links", { ...s.p.server, body: { team_id: s.teamId, expires_in_millis: 60_000 } }, 201);
    const token = tokenOfLink(link.url);
    await ok(`/sso/connections?team_id=${s.teamId}`, withSetupToken(s.p, token));
    const later = { ...withSetupToken(s.p, token), nowMs: link.expires_at_millis + 1 };
    expect((await call(`/sso/connections?team_id=${s.teamId}`, later)).body.code).toBe("SSO_SETUP_LINK_INVALID");
    expect((await call("/sso/setup-links/current", later)).body.code).toBe("SSO_SETUP_LINK_INVALID");
    for (const bad of ["", "x".repeat(45), "y".repeat(5000)]) {
      const res = await call(`/sso/connections?team_id=${s.teamId}`, withSetupToken(s.p, bad));
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe("SSO_SETUP_LINK_INVALID");
    }
    expect((await call("/sso/setup-links/current", s.p.client)).body.code).toBe("SSO_SETUP_LINK_INVALID");
  });
});
