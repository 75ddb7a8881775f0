/**
 * A DNS-over-HTTPS resolver that misbehaves (issue 31, ADMIN; DESIGN §4.10): the domain check is one
 * bounded call (lib/outbound-fetch.ts: 5 s, 64 KiB, no redirect). A resolver that hangs, floods,
 * fails or answers nonsense makes "Verify" answer SSO_DOMAIN_VERIFICATION_FAILED (resolver_unavailable)
 * in bounded time while /api/v1/health keeps answering, changes no claim, and never makes the daily
 * re-check take a verified domain for lost.
 */

import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { makeDeps } from "../../worker/services/deps";
import { recheckVerifiedDomains } from "../../worker/services/sso/domain-verification";
import { call } from "../helpers/api";
import { withHealthPolls } from "../helpers/health";
import { dohBehaviour, ok, publishTxt, ssoSetup, uniqueDomain } from "../helpers/sso-admin";

async function claimed(s: Awaited<ReturnType<typeof ssoSetup>>, tag: string) {
  return ok("/sso/domains", { ...s.p.admin, body: { team_id: s.teamId, domain: uniqueDomain(tag) } }, 201);
}

describe("SSO domains: a hostile resolver", () => {
  it("a resolver that never answers: refused within the 5 s bound while /health answers, the claim unchanged", async () => {
    const s = await ssoSetup();
    const d = await claimed(s, "hang");
    await dohBehaviour(d.domain, "hang");
    const started = Date.now();
    const polled = await withHealthPolls(() => call(`/sso/domains/${d.id}/verify`, { ...s.asAdmin, body: {} }));
    const elapsed = Date.now() - started;
    console.log(`hanging DoH: answered in ${elapsed} ms; /health polled ${polled.polls} times, slowest ${polled.maxMs} ms`);
    expect(polled.result.status).toBe(400);
    expect(polled.result.body).toMatchObject({ code: "SSO_DOMAIN_VERIFICATION_FAILED", details: { reason: "resolver_unavailable" } });
    expect(elapsed).toBeLessThan(15_000);
    expect(polled.polls).toBeGreaterThan(3);
    expect(polled.failures).toBe(0);
    const after = (await ok(`/sso/domains?team_id=${s.teamId}`, s.p.admin)).items[0];
    expect(after).toMatchObject({ status: "pending", checked_at_millis: null });
  }, 30_000);

  it("a 10 MB answer is cut at 64 KiB and refused, while /health answers", async () => {
    const s = await ssoSetup();
    const d = await claimed(s, "huge");
    await dohBehaviour(d.domain, "huge");
    const polled = await withHealthPolls(() => call(`/sso/domains/${d.id}/verify`, { ...s.asAdmin, body: {} }));
    expect(polled.result.body).toMatchObject({ code: "SSO_DOMAIN_VERIFICATION_FAILED", details: { reason: "resolver_unavailable" } });
    expect(polled.failures).toBe(0);
  });

  it("SERVFAIL, an HTTP 500 and a non-JSON answer are 'unavailable', never 'no record'", async () => {
    const s = await ssoSetup();
    for (const behaviour of ["servfail", "http500", "not-json"] as const) {
      const d = await claimed(s, behaviour);
      await publishTxt(d.domain, [d.txt_record.value]);
      await dohBehaviour(d.domain, behaviour);
      const res = await call(`/sso/domains/${d.id}/verify`, { ...s.asAdmin, body: {} });
      expect(res.body, behaviour).toMatchObject({ code: "SSO_DOMAIN_VERIFICATION_FAILED", details: { reason: "resolver_unavailable" } });
      // Behaving again, the same record verifies.
      await dohBehaviour(d.domain, null);
      expect((await ok(`/sso/domains/${d.id}/verify`, { ...s.asAdmin, body: {} })).status, behaviour).toBe("verified");
    }
  });

  it("the re-check keeps a verified domain whose resolver fails (tried again next run), and loses none for it", async () => {
    const s = await ssoSetup();
    const d = await claimed(s, "flaky");
    await publishTxt(d.domain, [d.txt_record.value]);
    await ok(`/sso/domains/${d.id}/verify`, { ...s.p.admin, body: {}, nowMs: Date.now() - 24 * 3600_000 });
    await dohBehaviour(d.domain, "servfail");
    const tally = await recheckVerifiedDomains(makeDeps(env, { origin: "https://scheduled.invalid" }));
    expect(tally.unknown).toBeGreaterThanOrEqual(1);
    const after = (await ok(`/sso/domains?team_id=${s.teamId}`, s.p.admin)).items[0];
    expect(after.status).toBe("verified");
    await dohBehaviour(d.domain, null);
  });
});
