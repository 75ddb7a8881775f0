/**
 * GET /internal/metrics (issue 13): the reference's shape on a seeded project (every key, 31 daily
 * points ending today, zero-filled), distinct daily active users, the latest country per user,
 * anonymous users left out unless asked for, another project's data never counted, admin only.
 * Users come from the real API; events are seeded into D1 through the event log's own insert.
 */
import { env } from "cloudflare:test";
import { metricsSchema } from "@doorman/shared/wire-metrics";
import { describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import { insertEventStatement } from "../../worker/db/queries/events";
import { call, createProjectWithKeys } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const DAY = 86_400_000;
// Noon UTC of a fixed day, so "N days ago" never crosses midnight by accident.
const NOW = Math.floor(Date.now() / DAY) * DAY + DAY / 2;
const dateOf = (daysAgo: number) => new Date(NOW - daysAgo * DAY).toISOString().slice(0, 10);

async function createUser(p: Project, daysAgo: number, body: Record<string, unknown> = {}): Promise<string> {
  const res = await call("/users", { ...p.server, body, nowMs: NOW - daysAgo * DAY });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

type Seed = { type: string; daysAgo: number; userId: string; country?: string | null; data?: Record<string, unknown> };

async function seedEvents(projectId: string, seeds: Seed[]) {
  const db = createDb(env.DB);
  await db.batch(
    seeds.map(
      (s, i) =>
        insertEventStatement(db, {
          id: crypto.randomUUID(),
          projectId,
          type: s.type,
          // Spread within the day (an hour apart), never past noon: still the same UTC day.
          createdAt: NOW - s.daysAgo * DAY - (i % 10) * 3_600_000,
          actorType: "user",
          actorId: s.userId,
          userId: s.userId,
          ip: "203.0.113.9",
          userAgent: "metrics-test",
          countryCode: s.country ?? null,
          data: s.data ?? null,
        }) as never,
    ) as never,
  );
}

async function metricsOf(p: Project, query = "") {
  const res = await call(`/internal/metrics${query}`, { ...p.adminKey, nowMs: NOW });
  expect(res.status, res.text).toBe(200);
  return metricsSchema.parse(res.body);
}

const activityOn = (points: { date: string; activity: number }[], daysAgo: number) =>
  points.find((x) => x.date === dateOf(daysAgo))?.activity;

describe("GET /internal/metrics", () => {
  it("answers the reference's keys and shapes, zero-filled, counting each project's own data", async () => {
    const p = await createProjectWithKeys();
    const other = await createProjectWithKeys();
    const today = await createUser(p, 0, { display_name: "Today", password: "a good password 1" });
    const twoDaysA = await createUser(p, 2, { display_name: "Two A", otp_auth_enabled: true });
    const twoDaysB = await createUser(p, 2, { display_name: "Two B" });
    const old = await createUser(p, 40, { display_name: "Old" });
    const anonymous = await createUser(p, 1, { is_anonymous: true });
    const elsewhere = await createUser(other, 0, { display_name: "Elsewhere" });

    await seedEvents(p.projectId, [
      // A rare second user.active of the same user and day must not count twice.
      { type: "user.active", daysAgo: 0, userId: today, country: "GB" },
      { type: "user.active", daysAgo: 0, userId: today, country: "GB" },
      { type: "user.active", daysAgo: 0, userId: twoDaysA, country: "US" },
      { type: "user.active", daysAgo: 5, userId: twoDaysA, country: "DE" },
      { type: "user.active", daysAgo: 5, userId: twoDaysB, country: null },
      { type: "user.active", daysAgo: 0, userId: anonymous, country: "FR" },
      // Outside the window: no daily point, but still the user's latest known country.
      { type: "user.active", daysAgo: 31, userId: old, country: "JP" },
      { type: "sign_in.succeeded", daysAgo: 0, userId: today, data: { method: "password", session_id: "s1" } },
      { type: "sign_in.succeeded", daysAgo: 3, userId: today, data: { method: "password", session_id: "s2" } },
      { type: "sign_in.succeeded", daysAgo: 10, userId: twoDaysA, data: { method: "oauth", provider: "github", session_id: "s3" } },
      { type: "sign_in.succeeded", daysAgo: 40, userId: old, data: { method: "otp", session_id: "s4" } },
      { type: "sign_in.failed", daysAgo: 0, userId: today, data: { method: "password", reason: "EMAIL_PASSWORD_MISMATCH" } },
    ]);
    await seedEvents(other.projectId, [
      { type: "user.active", daysAgo: 0, userId: elsewhere, country: "BR" },
      { type: "sign_in.succeeded", daysAgo: 0, userId: elsewhere, data: { method: "passkey", session_id: "s5" } },
    ]);

    const res = await call("/internal/metrics", { ...p.adminKey, nowMs: NOW });
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "daily_active_users",
        "daily_users",
        "login_methods",
        "recently_active",
        "recently_registered",
        "sign_ins_by_method",
        "total_users",
        "users_by_country",
      ].sort(),
    );
    const m = await metricsOf(p);
    expect(m.total_users).toBe(4);

    // Today and the 30 days before, oldest first, every day present.
    for (const points of [m.daily_users, m.daily_active_users]) {
      expect(points).toHaveLength(31);
      expect(points[0]!.date).toBe(dateOf(30));
      expect(points[30]!.date).toBe(dateOf(0));
      expect(new Set(points.map((x) => x.date)).size).toBe(31);
    }
    expect(m.daily_users.filter((x) => x.activity > 0)).toEqual([
      { date: dateOf(2), activity: 2 },
      { date: dateOf(0), activity: 1 },
    ]);
    expect(m.daily_active_users.filter((x) => x.activity > 0)).toEqual([
      { date: dateOf(5), activity: 2 },
      { date: dateOf(0), activity: 2 },
    ]);
    expect(m.users_by_country).toEqual({ GB: 1, US: 1, JP: 1 });
    expect(m.sign_ins_by_method).toEqual([
      { method: "password", count: 2 },
      { method: "oauth", count: 1 },
    ]);
    expect(m.login_methods).toEqual([
      { method: "otp", count: 1 },
      { method: "password", count: 1 },
    ]);
    expect(m.recently_registered.map((u) => u.id)).toEqual([today, ...[twoDaysA, twoDaysB].sort().reverse(), old]);
    expect(m.recently_registered[0]).toMatchObject({ display_name: "Today", has_password: true, is_anonymous: false });
    expect(m.recently_active.map((u) => u.id)).toHaveLength(4);
    expect(m.recently_active[0]!.id).toBe(today);
    expect(m.recently_active.map((u) => u.id)).not.toContain(anonymous);

    // Anonymous users on request, as the reference's include_anonymous.
    const withAnonymous = await metricsOf(p, "?include_anonymous=true");
    expect(withAnonymous.total_users).toBe(5);
    expect(activityOn(withAnonymous.daily_users, 1)).toBe(1);
    expect(activityOn(withAnonymous.daily_active_users, 0)).toBe(3);
    expect(withAnonymous.users_by_country).toEqual({ GB: 1, US: 1, JP: 1, FR: 1 });

    // The other project sees only its own.
    const theirs = await metricsOf(other);
    expect(theirs.total_users).toBe(1);
    expect(theirs.users_by_country).toEqual({ BR: 1 });
    expect(theirs.sign_ins_by_method).toEqual([{ method: "passkey", count: 1 }]);
    expect(theirs.recently_registered.map((u) => u.id)).toEqual([elsewhere]);
  });

  it("a fresh project: zeros on every day and empty lists", async () => {
    const p = await createProjectWithKeys();
    const m = await metricsOf(p);
    expect(m.total_users).toBe(0);
    expect(m.daily_users.every((x) => x.activity === 0)).toBe(true);
    expect(m.daily_active_users).toHaveLength(31);
    expect(m.daily_active_users.every((x) => x.activity === 0)).toBe(true);
    expect(m).toMatchObject({
      users_by_country: {},
      recently_registered: [],
      recently_active: [],
      login_methods: [],
      sign_ins_by_method: [],
    });
  });

  it("the window moves with the clock: days are UTC days of the request's now", async () => {
    const p = await createProjectWithKeys();
    await createUser(p, 0);
    const later = await call("/internal/metrics", { ...p.adminKey, nowMs: NOW + 3 * DAY });
    expect(later.status).toBe(200);
    const points = later.body.daily_users as { date: string; activity: number }[];
    expect(points[30]!.date).toBe(dateOf(-3));
    expect(points.find((x) => x.date === dateOf(0))?.activity).toBe(1);
  });

  it("client and server keys are refused as on every admin route", async () => {
    const p = await createProjectWithKeys();
    for (const who of [p.client, p.server]) {
      const metrics = await call("/internal/metrics", who);
      const events = await call("/internal/events", who);
      expect(metrics.status).toBe(events.status);
      expect(metrics.status).toBeGreaterThanOrEqual(400);
      expect(metrics.body.code).toBe(events.body.code);
      expect(metrics.headers.get("x-stack-known-error")).toBe(events.headers.get("x-stack-known-error"));
    }
    const badQuery = await call("/internal/metrics?include_anonymous=maybe", p.adminKey);
    expect(badQuery.body.code).toBe("SCHEMA_ERROR");
  });
});

describe("daily active users of completed days", () => {
  it("are counted once and then read from daily_active_users; today is always recounted", async () => {
    const p = await createProjectWithKeys();
    const a = await createUser(p, 3);
    const b = await createUser(p, 3, { is_anonymous: true });
    await seedEvents(p.projectId, [
      { type: "user.active", daysAgo: 2, userId: a },
      { type: "user.active", daysAgo: 2, userId: b },
      { type: "user.active", daysAgo: 0, userId: a },
    ]);
    const first = await metricsOf(p);
    expect(activityOn(first.daily_active_users, 2)).toBe(1);
    expect(activityOn((await metricsOf(p, "?include_anonymous=true")).daily_active_users, 2)).toBe(2);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM daily_active_users WHERE project_id = ?")
      .bind(p.projectId)
      .first<{ n: number }>();
    // The 30 completed days of the window, zeros included; today is not stored.
    expect(stored?.n).toBe(30);

    // A completed day is not recounted (its events could not change in real time; here they are
    // removed behind the cache's back to show it), while today is.
    await env.DB.prepare("DELETE FROM events WHERE project_id = ? AND type = 'user.active'").bind(p.projectId).run();
    const second = await metricsOf(p);
    expect(activityOn(second.daily_active_users, 2)).toBe(1);
    expect(activityOn(second.daily_active_users, 0)).toBe(0);
  });
});
