/**
 * The event log (issue 13, part 1): each wired action writes exactly its event, in the same batch,
 * with actor, address and user agent; an action that fails or changes nothing writes none; owners
 * list events newest first with filters and a cursor; another project's events stay invisible.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { EVENT_AREAS } from "@doorman/shared/event-types";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { DEV_SCHEDULED_PATH } from "../../worker/scheduled";
import { EVENT_TYPES } from "../../worker/services/events";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const eventsOf = async (p: Project, query = "") => {
  const res = await call(`/internal/events${query}`, p.admin);
  expect(res.status, res.text).toBe(200);
  return res.body as {
    items: {
      type: string;
      user_id: string | null;
      team_id: string | null;
      actor: { type: string; id: string | null };
      ip: string | null;
      user_agent: string | null;
      data: unknown;
    }[];
    pagination: { next_cursor: string | null };
  };
};
/**
 * A project as creation leaves it: new-device verification stays on (issue 29). Nobody here signs in with a
 * password, and the helper's switch-off would be a config.changed event in the logs these tests count.
 */
const freshProject = (config: Record<string, unknown> = {}) => createProjectWithKeys(config, { deviceVerification: true });
const types = async (p: Project) => (await eventsOf(p)).items.map((e) => e.type);
const rowCount = async (projectId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM events WHERE project_id = ?").bind(projectId).first<{ n: number }>())!.n;

describe("event log", () => {
  it("user created, updated and deleted: one event each, with the actor and where from; values stay out", async () => {
    const p = await freshProject();
    const created = await call("/users", {
      ...p.server,
      body: { primary_email: uniqueEmail("ev"), password: "a good password 1" },
      headers: { "user-agent": "events-test/1.0", "x-real-ip": "203.0.113.7" },
    });
    expect(created.status, created.text).toBe(201);
    const userId: string = created.body.id;
    expect(await types(p)).toEqual(["user.created"]);
    const [event] = (await eventsOf(p)).items;
    expect(event).toMatchObject({ user_id: userId, actor: { type: "server", id: null }, ip: "203.0.113.7", user_agent: "events-test/1.0" });

    await call(`/users/${userId}`, {
      ...p.admin,
      method: "PATCH",
      body: { display_name: "Ada", server_metadata: { plan: "secret-plan" } },
    });
    const updated = (await eventsOf(p, "?type=user.updated")).items;
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({
      user_id: userId,
      actor: { type: "admin", id: p.owner.userId },
      data: { fields: ["display_name", "server_metadata"].map((f) => (f === "display_name" ? "displayName" : "serverMetadata")) },
    });
    expect(JSON.stringify(updated)).not.toContain("secret-plan");

    expect((await call(`/users/${userId}`, { ...p.server, method: "DELETE" })).status).toBe(200);
    expect(await types(p)).toEqual(["user.deleted", "user.updated", "user.created"]);
  });

  it("a failed or empty action writes no event", async () => {
    const p = await freshProject();
    const email = uniqueEmail("dup");
    await call("/users", { ...p.server, body: { primary_email: email, primary_email_auth_enabled: true } });
    const before = await rowCount(p.projectId);
    // Taken sign-in email: refused, nothing written.
    const dup = await call("/users", { ...p.server, body: { primary_email: email, primary_email_auth_enabled: true } });
    expect(dup.status).toBe(409);
    // Deleting a user or team that does not exist, leaving a team one is not in: nothing changed, nothing written.
    expect((await call("/users/6f1a4f0e-3b5d-4c1e-9a7b-000000000000", { ...p.server, method: "DELETE" })).status).toBe(404);
    expect((await call("/teams/6f1a4f0e-3b5d-4c1e-9a7b-000000000000", { ...p.server, method: "DELETE" })).status).toBe(404);
    expect(await rowCount(p.projectId)).toBe(before);
  });

  it("team created, updated, deleted and memberships added and removed", async () => {
    const p = await freshProject();
    const user = await signUp(p.client);
    const team = await call("/teams", { ...p.server, body: { display_name: "Crew" } });
    const teamId: string = team.body.id;
    await call(`/team-memberships/${teamId}/${user.userId}`, { ...p.server, body: {} });
    await call(`/teams/${teamId}`, { ...p.server, method: "PATCH", body: { display_name: "Crew 2" } });
    await call(`/team-memberships/${teamId}/${user.userId}`, { ...p.server, method: "DELETE", body: {} });
    // Removing again changes nothing: no second event.
    await call(`/team-memberships/${teamId}/${user.userId}`, { ...p.server, method: "DELETE", body: {} });
    await call(`/teams/${teamId}`, { ...p.server, method: "DELETE" });
    const teamEvents = (await eventsOf(p, `?team_id=${teamId}`)).items.map((e) => e.type);
    expect(teamEvents.slice(0, 3)).toEqual(["team.deleted", "team_membership.deleted", "team.updated"]);
    // Added with the default member permission (one team_permission.created per grant, as the wire),
    // in one batch: the two share a timestamp, so their order is not fixed.
    expect(teamEvents.slice(3, 5).sort()).toEqual(["team_membership.created", "team_permission.created"]);
    expect(teamEvents.slice(5)).toEqual(["team.created"]);
    // A signed-in user creating a team is the actor.
    const own = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { client_team_creation_enabled: true } },
    });
    expect(own.status).toBe(200);
    const mine = await call("/teams", {
      ...p.client,
      accessToken: user.accessToken,
      body: { display_name: "Mine", creator_user_id: "me" },
    });
    expect(mine.status, mine.text).toBe(201);
    const [created] = (await eventsOf(p, `?team_id=${mine.body.id}&type=team.created`)).items;
    expect(created).toMatchObject({ actor: { type: "user", id: user.userId }, user_id: user.userId });
    // The creator's membership is recorded (its webhook is team.created's, as the reference's: webhooks.test.ts).
    expect((await eventsOf(p, `?team_id=${mine.body.id}`)).items.map((e) => e.type).sort()).toEqual([
      "team.created",
      "team_membership.created",
    ]);
  });

  it("filters by user and time, pages with the cursor, and keeps projects apart", async () => {
    const p = await freshProject();
    const other = await freshProject();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call("/users", { ...p.server, body: { display_name: `u${i}` } })).body.id);
    await call("/users", { ...other.server, body: { display_name: "elsewhere" } });

    const page1 = await eventsOf(p, "?limit=2");
    expect(page1.items).toHaveLength(2);
    const page2 = await eventsOf(p, `?limit=2&cursor=${page1.pagination.next_cursor}`);
    const page3 = await eventsOf(p, `?limit=2&cursor=${page2.pagination.next_cursor}`);
    expect(page3.pagination.next_cursor).toBeNull();
    const all = [...page1.items, ...page2.items, ...page3.items].map((e) => e.user_id);
    expect(all).toEqual([...ids].reverse());

    expect((await eventsOf(p, `?user_id=${ids[2]}`)).items.map((e) => e.user_id)).toEqual([ids[2]]);
    expect((await eventsOf(p, `?since_millis=${Date.now() + 60_000}`)).items).toEqual([]);
    expect((await eventsOf(other)).items).toHaveLength(1);
    const bad = await call("/internal/events?cursor=nonsense", p.admin);
    expect(bad.body.code).toBe("SCHEMA_ERROR");
    expect((await call("/internal/events", p.server)).status).toBe(401);
  });
});

describe("event areas (issue 28)", () => {
  it("filters by area with the shared list; a type wins over an area; an unknown area is a schema error", async () => {
    const p = await freshProject();
    const user = await signUp(p.client, uniqueEmail("area"));
    await call("/teams", { ...p.server, body: { display_name: "Area team", creator_user_id: user.userId } });
    const teams = (await eventsOf(p, `?area=${encodeURIComponent("Teams")}`)).items.map((e) => e.type);
    expect(teams.length).toBeGreaterThan(0);
    const teamArea = EVENT_AREAS.find((a) => a.area === "Teams")!.types as readonly string[];
    expect(teams.every((t) => teamArea.includes(t))).toBe(true);
    const signIns = (await eventsOf(p, `?area=${encodeURIComponent("Sign-in and sessions")}`)).items.map((e) => e.type);
    expect(signIns).toContain("sign_in.succeeded");
    expect(signIns).not.toContain("team.created");
    expect((await eventsOf(p, `?area=Teams&type=user.created`)).items.map((e) => e.type)).toEqual(["user.created"]);
    expect((await call("/internal/events?area=Nowhere", p.admin)).body.code).toBe("SCHEMA_ERROR");
  });

  it("every area's types are event types, each in one area", () => {
    const all = EVENT_AREAS.flatMap((a) => a.types as readonly string[]);
    expect(new Set(all).size).toBe(all.length);
    expect([...EVENT_TYPES]).toEqual(all);
  });
});

describe("event retention", () => {
  it("the daily cron deletes each project's events older than its retention, and only those", async () => {
    const short = await freshProject({ event_retention_days: 1 });
    const normal = await freshProject();
    const day = 86_400_000;
    const insert = (projectId: string, id: string, age: number) =>
      env.DB.prepare("INSERT INTO events (id, project_id, type, created_at, actor_type) VALUES (?, ?, 'user.created', ?, 'system')")
        .bind(id, projectId, Date.now() - age)
        .run();
    await insert(short.projectId, crypto.randomUUID(), 2 * day);
    await insert(short.projectId, crypto.randomUUID(), day / 2);
    await insert(normal.projectId, crypto.randomUUID(), 30 * day);
    await insert(normal.projectId, crypto.randomUUID(), 91 * day);
    const controller = createScheduledController({ scheduledTime: Date.now(), cron: "17 3 * * *" });
    const ctx = createExecutionContext();
    await worker.scheduled!(controller, env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await rowCount(short.projectId)).toBe(1);
    expect(await rowCount(normal.projectId)).toBe(1);
    const config = await call("/internal/config", short.admin);
    expect(JSON.parse(config.body.config_string).doorman.eventRetentionDays).toBe(1);
  });

  it("npm start's trigger runs the same daily job in development, and is a 404 in production", async () => {
    const p = await freshProject({ event_retention_days: 1 });
    await env.DB.prepare("INSERT INTO events (id, project_id, type, created_at, actor_type) VALUES (?, ?, 'user.created', ?, 'system')")
      .bind(crypto.randomUUID(), p.projectId, Date.now() - 2 * 86_400_000)
      .run();
    const trigger = (workerEnv: typeof env, method = "POST") =>
      worker.fetch(
        new Request(`http://localhost${DEV_SCHEDULED_PATH}?cron=${encodeURIComponent("17 3 * * *")}`, { method }),
        workerEnv,
        createExecutionContext(),
      );
    const ran = await trigger(env);
    expect(ran.status).toBe(200);
    expect(await ran.json()).toMatchObject({ cron: "17 3 * * *", expiredEventsDeleted: expect.any(Number) });
    expect(await rowCount(p.projectId)).toBe(0);
    expect((await trigger(env, "GET")).status).toBe(405);
    const production = {
      ...env,
      ENVIRONMENT: "production",
      ALLOW_TEST_CLOCK: undefined,
      OAUTH_MOCK_ISSUER: undefined,
      // The test fake is plain http, which a production worker refuses (worker/config.ts).
      TURNSTILE_SITEVERIFY_URL: undefined,
      DOH_RESOLVER_URL: undefined,
      SERVER_SECRET: "a-production-secret-of-enough-length-0123456789",
    } as typeof env;
    expect((await trigger(production)).status).toBe(404);
  });
});
