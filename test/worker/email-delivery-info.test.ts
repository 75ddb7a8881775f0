/**
 * GET /emails/delivery-info and POST /emails/capacity-boost (the reference's wire), and send-email
 * paced at the project's capacity (the tests run at EMAIL_CAPACITY_PER_HOUR=100000).
 */
import { describe, expect, it } from "vitest";
import { capacityOf, penaltyFactor } from "../../worker/services/email/capacity";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { sinkEmailConfig } from "../helpers/mail";
import { waitForOutboxStatus } from "../helpers/outbox";

const BASE_RATE = 100_000 / 3600;
const zero = { sent: 0, bounced: 0, marked_as_spam: 0 };

async function serverUser(server: Awaited<ReturnType<typeof createProjectWithKeys>>["server"]) {
  const res = await call("/users", { ...server, body: { primary_email: uniqueEmail("capacity"), primary_email_verified: true } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe("email delivery info and capacity", () => {
  it("a new project: zero counts and the base rate, no boost", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/emails/delivery-info", p.server);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      stats: { hour: zero, day: zero, week: zero, month: zero },
      capacity: { rate_per_second: BASE_RATE, boost_multiplier: 1, penalty_factor: 1, is_boost_active: false, boost_expires_at: null },
    });
    expect((await call("/emails/delivery-info", p.client)).status).toBe(401);
  });

  it("a boost multiplies the rate by 4 for 4 hours; a second one while it runs is refused; one of two at once starts it", async () => {
    const p = await createProjectWithKeys();
    expect((await call("/emails/capacity-boost", { ...p.client, body: {} })).status).toBe(401);
    const [a, b] = await Promise.all([
      call("/emails/capacity-boost", { ...p.server, body: {} }),
      call("/emails/capacity-boost", { ...p.adminKey, body: {} }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const started = a.status === 200 ? a : b;
    const refused = a.status === 200 ? b : a;
    expect(refused.body.code).toBe("EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE");
    expect(refused.body.details).toEqual({ expires_at: started.body.expires_at });
    const expiresAt = Date.parse(started.body.expires_at);
    expect(expiresAt - Date.now()).toBeGreaterThan(4 * 3600_000 - 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(4 * 3600_000);

    const during = await call("/emails/delivery-info", p.server);
    expect(during.body.capacity).toEqual({
      rate_per_second: BASE_RATE * 4,
      boost_multiplier: 4,
      penalty_factor: 1,
      is_boost_active: true,
      boost_expires_at: started.body.expires_at,
    });
    // After it ends: the base rate again, and a new boost may start.
    const later = expiresAt + 1000;
    const after = await call("/emails/delivery-info", { ...p.server, nowMs: later });
    expect(after.body.capacity).toMatchObject({ rate_per_second: BASE_RATE, is_boost_active: false, boost_expires_at: null });
    const again = await call("/emails/capacity-boost", { ...p.server, body: {}, nowMs: later });
    expect(again.status, again.text).toBe(200);
    expect(Date.parse(again.body.expires_at)).toBe(later + 4 * 3600_000);
  });

  it("counts a sent email in every window, and paces a send's rows one slot apart at the project's rate", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const users = [await serverUser(p.server), await serverUser(p.server), await serverUser(p.server)];
    const sent = await call("/emails/send-email", { ...p.server, body: { user_ids: users, html: "<p>Paced</p>", subject: "Paced" } });
    expect(sent.status, sent.text).toBe(200);
    const rows = [];
    for (const r of sent.body.results) rows.push(await waitForOutboxStatus(p.server, r.email_id, ["sent"]));
    const slots = rows.map((r) => r.scheduled_at_millis as number).sort((x, y) => x - y);
    const gap = 1000 / BASE_RATE;
    expect(slots[1]! - slots[0]!).toBeGreaterThanOrEqual(Math.floor(gap));
    expect(slots[2]! - slots[1]!).toBeGreaterThanOrEqual(Math.floor(gap));
    const res = await call("/emails/delivery-info", p.server);
    const three = { sent: 3, bounced: 0, marked_as_spam: 0 };
    expect(res.body.stats).toEqual({ hour: three, day: three, week: three, month: three });
    expect(res.body.capacity.rate_per_second).toBeCloseTo((100_000 + (4 * 3) / 30 / 24) / 3600, 10);
  });

  it("the reference's formula: volume raises the rate, bounces and spam lower it, never under a quarter of the base", () => {
    const w = (sent: number, bounced = 0, markedAsSpam = 0) => ({ sent, bounced, markedAsSpam });
    const stats = (x: ReturnType<typeof w>) => ({ hour: x, day: x, week: x, month: x });
    expect(penaltyFactor(0, 5, 5)).toBe(1);
    expect(penaltyFactor(100, 10, 0)).toBeCloseTo(0.9);
    expect(penaltyFactor(100, 0, 1)).toBeCloseTo(0.5);
    expect(penaltyFactor(100, 0, 10)).toBe(0.1);
    expect(capacityOf(stats(w(720)), 200, null, 0).ratePerSecond).toBeCloseTo(204 / 3600, 12);
    // All spam: the penalty would give 20.4/h; the floor is 50/h.
    expect(capacityOf(stats(w(720, 0, 720)), 200, null, 0)).toMatchObject({ ratePerSecond: 50 / 3600, penaltyFactor: 0.1 });
    expect(capacityOf(stats(w(0)), 200, 10, 5)).toMatchObject({ ratePerSecond: (200 / 3600) * 4, isBoostActive: true, boostMultiplier: 4 });
    expect(capacityOf(stats(w(0)), 200, 10, 10).isBoostActive).toBe(false);
  });
});
