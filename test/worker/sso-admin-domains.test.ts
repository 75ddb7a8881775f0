/**
 * A team's email domains (issue 31, ADMIN) against the local DNS-over-HTTPS responder
 * (test/doh-responder.mjs, the JSON form Cloudflare and Google answer): claim (names checked:
 * IDNA, IPs, public suffixes), pending → verified when the TXT record appears, verified → lost when
 * the daily re-check no longer finds it, one verified team per domain (also when two race), the
 * settings (connection of the team only, enforcement, auto-join), removal, events, and the per-team
 * limit of DNS checks.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEV_SCHEDULED_PATH } from "../../worker/scheduled";
import { call } from "../helpers/api";
import { ok, publishTxt, removeTxt, samlConnection, ssoSetup, uniqueDomain } from "../helpers/sso-admin";
import { createTeamAs, teamProject } from "../helpers/teams";
import { workerFetch } from "../helpers/worker-fetch";

type Domain = { id: string; domain: string; status: string; txt_record: { name: string; value: string }; [k: string]: unknown };

async function claim(s: Awaited<ReturnType<typeof ssoSetup>>, domain: string, teamId = s.teamId): Promise<Domain> {
  return ok("/sso/domains", { ...s.p.admin, body: { team_id: teamId, domain } }, 201);
}

async function eventTypes(s: Awaited<ReturnType<typeof ssoSetup>>, domainId: string): Promise<string[]> {
  const body = await ok(`/sso/events?team_id=${s.teamId}&limit=200`, s.p.admin);
  return (body.items as { type: string; data: { domain_id?: string } }[])
    .filter((e) => e.data.domain_id === domainId)
    .map((e) => e.type)
    .reverse();
}

describe("SSO domains: claims", () => {
  it("a claim is pending with its TXT record, and names are normalised or refused", async () => {
    const s = await ssoSetup();
    const name = uniqueDomain();
    const d = await ok("/sso/domains", { ...s.asAdmin, body: { team_id: s.teamId, domain: ` ${name.toUpperCase()}. ` } }, 201);
    expect(d).toMatchObject({
      domain: name,
      status: "pending",
      connection_id: null,
      enforce_sso: false,
      auto_join: false,
      verified_at_millis: null,
      checked_at_millis: null,
    });
    expect(d.txt_record.name).toBe(`_doorman-verification.${name}`);
    expect(d.txt_record.value).toMatch(/^doorman-verification=[0-9a-z]{32}$/);
    // IDNA: a Unicode name is stored in its ASCII form.
    const idn = await claim(s, `bücher-${Date.now()}.example`);
    expect(idn.domain).toMatch(/^xn--bcher-.*\.example$/);
    const again = await call("/sso/domains", { ...s.p.admin, body: { team_id: s.teamId, domain: name } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("SSO_DOMAIN_ALREADY_CLAIMED");
    for (const bad of [
      "com",
      "co.uk",
      "github.io",
      "10.0.0.1",
      "[::1]",
      "localhost",
      "https://acme.example",
      "jo@acme.example",
      "-bad-.example",
      "a..b",
      "",
    ]) {
      const res = await call("/sso/domains", { ...s.p.admin, body: { team_id: s.teamId, domain: bad } });
      expect(res.status, `${bad}: ${res.text}`).toBe(400);
      expect(res.body.code, bad).toBe("SSO_DOMAIN_INVALID");
    }
  });

  it("pending → verified when the TXT record appears (among others, split into character-strings), with events", async () => {
    const s = await ssoSetup();
    const d = await claim(s, uniqueDomain());
    const missing = await call(`/sso/domains/${d.id}/verify`, { ...s.asAdmin, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: "SSO_DOMAIN_VERIFICATION_FAILED",
      details: { domain: d.domain, reason: "record_not_found", record_name: d.txt_record.name, record_value: d.txt_record.value },
    });
    const pending = (await ok(`/sso/domains?team_id=${s.teamId}`, s.asAdmin)).items[0];
    expect(pending).toMatchObject({ status: "pending", checked_at_millis: expect.any(Number) });
    // Another team's token at the same name does not verify this claim.
    await publishTxt(d.domain, ["v=spf1 -all", "doorman-verification=someone-elses-token"]);
    expect((await call(`/sso/domains/${d.id}/verify`, { ...s.asAdmin, body: {} })).body.code).toBe("SSO_DOMAIN_VERIFICATION_FAILED");
    await publishTxt(d.domain, ["v=spf1 -all", d.txt_record.value, `long=${"x".repeat(400)}`]);
    const verified = await ok(`/sso/domains/${d.id}/verify`, { ...s.asAdmin, body: {} });
    expect(verified).toMatchObject({ status: "verified", verified_at_millis: expect.any(Number) });
    expect(await eventTypes(s, d.id)).toEqual(["sso_domain.added", "sso_domain.verified"]);
    // Verify again: still verified, no second event.
    await ok(`/sso/domains/${d.id}/verify`, { ...s.p.server, body: {} });
    expect(await eventTypes(s, d.id)).toEqual(["sso_domain.added", "sso_domain.verified"]);
  });

  it("a second team may claim the domain pending, but only one team holds it verified", async () => {
    const s = await ssoSetup();
    const domain = uniqueDomain();
    const first = await claim(s, domain);
    const otherTeam = await createTeamAs(s.p, s.outsider, "Rival");
    const second = await claim(s, domain, otherTeam);
    expect(second.status).toBe("pending");
    await publishTxt(domain, [first.txt_record.value, second.txt_record.value]);
    await ok(`/sso/domains/${first.id}/verify`, { ...s.p.admin, body: {} });
    const refused = await call(`/sso/domains/${second.id}/verify`, { ...s.p.admin, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "SSO_DOMAIN_ALREADY_VERIFIED", details: { domain } });
    const rival = (await ok(`/sso/domains?team_id=${otherTeam}`, s.p.admin)).items[0];
    expect(rival.status).toBe("pending");
    // Once the first claim is removed, the second team can verify.
    await ok(`/sso/domains/${first.id}`, { ...s.p.admin, method: "DELETE" });
    expect((await ok(`/sso/domains/${second.id}/verify`, { ...s.p.admin, body: {} })).status).toBe("verified");
  });

  it("two teams verifying one domain at once: exactly one wins (the statement's NOT EXISTS and the partial unique index)", async () => {
    const s = await ssoSetup();
    const domain = uniqueDomain("race");
    const teams = [s.teamId, ...(await Promise.all([1, 2, 3].map((i) => createTeamAs(s.p, s.admin, `Racer ${i}`))))];
    const claims = await Promise.all(teams.map((t) => claim(s, domain, t)));
    await publishTxt(
      domain,
      claims.map((c) => c.txt_record.value),
    );
    const results = await Promise.all(claims.map((c) => call(`/sso/domains/${c.id}/verify`, { ...s.p.admin, body: {} })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const held = await env.DB.prepare("SELECT count(*) AS n FROM sso_domains WHERE project_id = ? AND domain = ? AND status = 'verified'")
      .bind(s.p.projectId, domain)
      .first<{ n: number }>();
    expect(held?.n).toBe(1);
  });
});

describe("SSO domains: settings, removal, re-check", () => {
  it("routing to one of the team's connections, enforcement and auto-join; another team's connection is refused", async () => {
    const s = await ssoSetup();
    const d = await claim(s, uniqueDomain());
    const mine = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(s.teamId) }, 201);
    const otherTeam = await createTeamAs(s.p, s.outsider, "Other");
    const theirs = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(otherTeam) }, 201);
    const refused = await call(`/sso/domains/${d.id}`, { ...s.asAdmin, method: "PATCH", body: { connection_id: theirs.id } });
    expect(refused.body.code).toBe("SSO_CONNECTION_NOT_FOUND");
    const changed = await ok(`/sso/domains/${d.id}`, {
      ...s.asAdmin,
      method: "PATCH",
      body: { connection_id: mine.id, enforce_sso: true, auto_join: true },
    });
    expect(changed).toMatchObject({ connection_id: mine.id, enforce_sso: true, auto_join: true, status: "pending" });
    const events = await ok(`/internal/events?type=sso_domain.updated&team_id=${s.teamId}`, s.p.admin);
    expect(events.items[0].data).toMatchObject({
      domain_id: d.id,
      domain: d.domain,
      fields: ["connection_id", "enforce_sso", "auto_join"],
    });
    const cleared = await ok(`/sso/domains/${d.id}`, { ...s.asAdmin, method: "PATCH", body: { connection_id: null, enforce_sso: false } });
    expect(cleared).toMatchObject({ connection_id: null, enforce_sso: false, auto_join: true });
  });

  it("removing a claim deletes it with its event; a removed or unknown claim is not found", async () => {
    const s = await ssoSetup();
    const d = await claim(s, uniqueDomain());
    await ok(`/sso/domains/${d.id}`, { ...s.asAdmin, method: "DELETE" });
    expect((await ok(`/sso/domains?team_id=${s.teamId}`, s.asAdmin)).items).toEqual([]);
    for (const res of [
      await call(`/sso/domains/${d.id}`, { ...s.asAdmin, method: "DELETE" }),
      await call(`/sso/domains/${d.id}/verify`, { ...s.asAdmin, body: {} }),
      await call(`/sso/domains/${crypto.randomUUID()}`, { ...s.p.admin, method: "PATCH", body: { auto_join: true } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("SSO_DOMAIN_NOT_FOUND");
    }
    expect(await eventTypes(s, d.id)).toEqual(["sso_domain.added", "sso_domain.removed"]);
  });

  it("verified → lost when the daily re-check no longer finds the record; a domain still published stays verified", async () => {
    const s = await ssoSetup();
    const kept = await claim(s, uniqueDomain("kept"));
    const gone = await claim(s, uniqueDomain("gone"));
    await publishTxt(kept.domain, [kept.txt_record.value]);
    await publishTxt(gone.domain, [gone.txt_record.value]);
    // Verified a day ago (the test clock), so the re-check finds them due.
    const dayAgo = Date.now() - 24 * 3600_000;
    await ok(`/sso/domains/${kept.id}/verify`, { ...s.p.admin, body: {}, nowMs: dayAgo });
    await ok(`/sso/domains/${gone.id}/verify`, { ...s.p.admin, body: {}, nowMs: dayAgo });
    await removeTxt(gone.domain);

    const cron = await workerFetch(`http://localhost${DEV_SCHEDULED_PATH}?cron=${encodeURIComponent("17 3 * * *")}`, { method: "POST" });
    expect(cron.status).toBe(200);
    const ran = (await cron.json()) as Record<string, number>;
    expect(ran.ssoDomainsRechecked).toBeGreaterThanOrEqual(2);
    expect(ran.ssoDomainsLost).toBeGreaterThanOrEqual(1);

    const after = (await ok(`/sso/domains?team_id=${s.teamId}`, s.p.admin)).items as Domain[];
    const byId = new Map(after.map((d) => [d.id, d]));
    expect(byId.get(kept.id)).toMatchObject({ status: "verified" });
    expect(byId.get(kept.id)?.checked_at_millis).toBeGreaterThan(dayAgo);
    expect(byId.get(gone.id)).toMatchObject({ status: "lost" });
    // (Sorted: the verification's event carries the moved clock's time.)
    expect((await eventTypes(s, gone.id)).sort()).toEqual(["sso_domain.added", "sso_domain.lost", "sso_domain.verified"]);
    // A lost domain is verified again once its record is back.
    await publishTxt(gone.domain, [gone.txt_record.value]);
    expect((await ok(`/sso/domains/${gone.id}/verify`, { ...s.p.admin, body: {} })).status).toBe("verified");
  });

  it("checks are limited per team (SSO_DOMAIN_CHECK_PER_TEAM): 429 with Retry-After, whoever asks", async () => {
    const s = await ssoSetup(await teamProject({ rate_limits: { SSO_DOMAIN_CHECK_PER_TEAM: "3/600" } }));
    const d = await claim(s, uniqueDomain("limited"));
    const statuses: number[] = [];
    for (const who of [s.asAdmin, s.p.admin, s.p.server, s.asAdmin])
      statuses.push((await call(`/sso/domains/${d.id}/verify`, { ...who, body: {} })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    const limited = await call(`/sso/domains/${d.id}/verify`, { ...s.asAdmin, body: {} });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
