/**
 * Webhooks (issue 13): a real local receiver (test/webhook-receiver.mjs, Node) verifies every
 * request with the `svix` package. Events reach it through the real Cloudflare Queue (miniflare);
 * retries and the disabling rule are driven by calling the consumer's dispatch with a pinned clock.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { makeDeps } from "../../worker/services/deps";
import { RETRY_DELAYS_SECONDS } from "../../worker/services/webhooks/delivery";
import { messageIdOf } from "../../worker/services/webhooks/message-id";
import { dispatchDelivery, dispatchEvent, sweepWebhooks } from "../../worker/services/webhooks/queue";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
type Received = { headers: Record<string, string>; body: string; verified: boolean; error: string | null; answered: number };

const receiverUrl = (path: string) => `http://127.0.0.1:${inject("webhookPort")}${path}`;

/** A hook on the receiver, by a name unique to the test. */
function hook(tag: string) {
  const name = `${tag}-${crypto.randomUUID()}`;
  return {
    url: receiverUrl(`/hooks/${name}`),
    configure: (config: { secret?: string; fail?: number }) =>
      fetch(receiverUrl(`/control/${name}`), { method: "PUT", body: JSON.stringify(config) }).then((r) => r.text()),
    received: async () => (await (await fetch(receiverUrl(`/control/${name}`))).json()) as Received[],
  };
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function createEndpoint(p: Project, url: string, eventTypes?: string[]) {
  const res = await call("/internal/webhooks/endpoints", { ...p.admin, body: { url, description: "test", event_types: eventTypes } });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; secret: string; url: string; disabled: boolean };
}

async function deliveries(p: Project, endpointId: string) {
  const res = await call(`/internal/webhooks/deliveries?endpoint_id=${endpointId}`, p.admin);
  expect(res.status, res.text).toBe(200);
  return res.body.items as {
    id: string;
    type: string;
    status: string;
    message_id: string;
    event_id: string | null;
    payload: { type: string; data: Record<string, unknown> };
    next_attempt_at_millis: number | null;
    attempts: { status_code: number | null; latency_ms: number; response_excerpt: string | null; error: string | null }[];
  }[];
}

const createUser = (p: Project, email = uniqueEmail("wh")) =>
  call("/users", { ...p.server, body: { primary_email: email, display_name: "Hook" } });

describe("webhooks", () => {
  it("user.created reaches a receiver that verifies it with svix, and the delivery log shows the attempt and payload", async () => {
    const p = await createProjectWithKeys();
    const h = hook("created");
    const endpoint = await createEndpoint(p, h.url, ["user.created"]);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await h.configure({ secret: endpoint.secret });

    const user = await createUser(p);
    expect(user.status, user.text).toBe(201);
    const [got] = await waitFor("the webhook", async () => ((await h.received()).length ? h.received() : null));
    expect(got).toMatchObject({ verified: true, error: null, answered: 200 });
    const body = JSON.parse(got!.body);
    expect(body).toMatchObject({
      type: "user.created",
      data: { id: user.body.id, primary_email: user.body.primary_email, display_name: "Hook" },
    });
    expect(body.data).toEqual(user.body);
    expect(got!.headers["webhook-id"]).toMatch(/^msg_[0-9A-Za-z]{27}$/);
    expect(got!.headers["webhook-signature"]).toMatch(/^v1,/);

    const [delivery] = await waitFor("the delivery row", async () => {
      const list = await deliveries(p, endpoint.id);
      return list[0]?.status === "succeeded" ? list : null;
    });
    expect(delivery).toMatchObject({ type: "user.created", status: "succeeded", message_id: got!.headers["webhook-id"] });
    expect(delivery!.payload).toEqual(body);
    expect(delivery!.attempts).toHaveLength(1);
    expect(delivery!.attempts[0]).toMatchObject({ status_code: 200, error: null, response_excerpt: '{"received":true}' });
    // The secret is shown once: never on reads, and sealed at rest.
    const read = await call(`/internal/webhooks/endpoints/${endpoint.id}`, p.admin);
    expect(read.text).not.toContain(endpoint.secret);
    const stored = await env.DB.prepare("SELECT secret_sealed FROM webhook_endpoints WHERE id = ?")
      .bind(endpoint.id)
      .first<{ secret_sealed: string }>();
    expect(stored!.secret_sealed).not.toContain(endpoint.secret.slice(6));
  });

  it("a changed payload fails verification at the receiver", async () => {
    const p = await createProjectWithKeys();
    const h = hook("tamper");
    const endpoint = await createEndpoint(p, h.url);
    await h.configure({ secret: endpoint.secret });
    await createUser(p);
    const [got] = await waitFor("the webhook", async () => ((await h.received()).length ? h.received() : null));
    expect(got!.verified).toBe(true);
    const tampered = got!.body.replace('"display_name":"Hook"', '"display_name":"Mallory"');
    expect(tampered).not.toBe(got!.body);
    const headers = {
      "content-type": "application/json",
      ...Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((k) => [k, got!.headers[k]!])),
    };
    await fetch(h.url, { method: "POST", headers, body: tampered });
    await fetch(h.url, { method: "POST", headers, body: got!.body });
    const [, forged, replayed] = await h.received();
    expect(forged).toMatchObject({ verified: false });
    expect(forged!.error).toMatch(/signature/i);
    expect(replayed).toMatchObject({ verified: true });
  });

  it("a 500 is retried on the schedule (the retry driven with a pinned clock) and the second attempt succeeds", async () => {
    const p = await createProjectWithKeys();
    const h = hook("retry");
    const endpoint = await createEndpoint(p, h.url);
    await h.configure({ secret: endpoint.secret, fail: 1 });
    await createUser(p);
    const [first] = await waitFor("the failed attempt", async () => {
      const list = await deliveries(p, endpoint.id);
      return list[0]?.attempts.length === 1 ? list : null;
    });
    expect(first).toMatchObject({
      status: "pending",
      attempts: [{ status_code: 500, response_excerpt: '{"error":"receiver told to fail"}' }],
    });
    const failedAt = (await env.DB.prepare(
      "SELECT attempted_at FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.id = ?",
    )
      .bind(first!.id)
      .first<{ attempted_at: number }>())!.attempted_at;
    expect(first!.next_attempt_at_millis).toBe(failedAt + RETRY_DELAYS_SECONDS[0] * 1000);

    // The consumer's retry, as the queue would run it once the delay is over (the clock pinned just past it).
    const due = makeDeps(env, { origin: "http://localhost", nowMs: failedAt + RETRY_DELAYS_SECONDS[0] * 1000 });
    const early = makeDeps(env, { origin: "http://localhost", nowMs: failedAt + 1000 });
    expect(await dispatchDelivery(early, first!.id)).toEqual({ outcome: "not_due" });
    expect(await dispatchDelivery(due, first!.id)).toEqual({ outcome: "succeeded" });
    const [after] = await deliveries(p, endpoint.id);
    expect(after).toMatchObject({ status: "succeeded", next_attempt_at_millis: null });
    expect(after!.attempts.map((a) => a.status_code)).toEqual([500, 200]);
    const got = await h.received();
    expect(got.map((r) => r.answered)).toEqual([500, 200]);
    expect(got.every((r) => r.verified)).toBe(true);
    // Same message id on every attempt, so the receiver can deduplicate.
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
  });

  it("a disabled endpoint is skipped; one whose deliveries keep failing is disabled with the reason", async () => {
    const p = await createProjectWithKeys();
    const on = hook("on");
    const off = hook("off");
    const enabled = await createEndpoint(p, on.url);
    const disabled = await createEndpoint(p, off.url);
    await on.configure({ secret: enabled.secret });
    await off.configure({ secret: disabled.secret });
    const patched = await call(`/internal/webhooks/endpoints/${disabled.id}`, { ...p.admin, method: "PATCH", body: { disabled: true } });
    expect(patched.body).toMatchObject({ disabled: true, disabled_reason: "Disabled by an owner." });
    await createUser(p);
    await waitFor("the enabled endpoint's webhook", async () => (await on.received()).length === 1);
    expect(await off.received()).toEqual([]);
    expect(await deliveries(p, disabled.id)).toEqual([]);
    const test = await call("/internal/send-test-webhook", { ...p.admin, body: { endpoint_id: disabled.id } });
    expect(test.body).toEqual({ success: false, error_message: "The endpoint is disabled. Enable it to send events." });

    // The disabling rule: 3 deliveries in a row that exhaust every retry.
    const dead = hook("dead");
    const failing = await createEndpoint(p, dead.url);
    await dead.configure({ secret: failing.secret, fail: 1000 });
    for (let n = 1; n <= 3; n++) {
      const sent = await call("/internal/send-test-webhook", { ...p.admin, body: { endpoint_id: failing.id } });
      expect(sent.body).toEqual({
        success: false,
        error_message: "Webhook not delivered. Make sure the endpoint is configured correctly.",
      });
      const [delivery] = await deliveries(p, failing.id);
      let at = Date.now() + 3600_000 * 24 * 10 * n;
      for (const delay of RETRY_DELAYS_SECONDS) {
        at += delay * 1000;
        await dispatchDelivery(makeDeps(env, { origin: "http://localhost", nowMs: at }), delivery!.id);
      }
      const [done] = await deliveries(p, failing.id);
      expect(done).toMatchObject({ status: "failed", next_attempt_at_millis: null });
      expect(done!.attempts).toHaveLength(RETRY_DELAYS_SECONDS.length + 1);
      const state = (await call(`/internal/webhooks/endpoints/${failing.id}`, p.admin)).body;
      expect(state.disabled).toBe(n === 3);
    }
    const endpoint = (await call(`/internal/webhooks/endpoints/${failing.id}`, p.admin)).body;
    expect(endpoint.disabled_reason).toBe("3 deliveries in a row failed after every retry (last: HTTP 500).");
    // Enabling it again clears the reason.
    const enabledAgain = await call(`/internal/webhooks/endpoints/${failing.id}`, {
      ...p.admin,
      method: "PATCH",
      body: { disabled: false },
    });
    expect(enabledAgain.body).toMatchObject({ disabled: false, disabled_reason: null, disabled_at_millis: null });
  });

  it("a failed batch delivers nothing; an event row that does not exist is dropped", async () => {
    const p = await createProjectWithKeys();
    const h = hook("failed-batch");
    const endpoint = await createEndpoint(p, h.url, ["user.created"]);
    await h.configure({ secret: endpoint.secret });
    const email = uniqueEmail("dup");
    const first = await call("/users", { ...p.server, body: { primary_email: email, primary_email_auth_enabled: true } });
    // The same sign-in email again: the batch (with its user.created event) fails.
    const dup = await call("/users", { ...p.server, body: { primary_email: email, primary_email_auth_enabled: true } });
    expect(dup.status).toBe(409);
    const last = await createUser(p);
    const got = await waitFor("two webhooks", async () => {
      const list = await h.received();
      return list.length >= 2 ? list : null;
    });
    // Give a stray third one the time to arrive before counting.
    await new Promise((r) => setTimeout(r, 1500));
    // Two queue messages, delivered by concurrent consumers: in either order.
    expect((await h.received()).map((r) => JSON.parse(r.body).data.id).sort()).toEqual([first.body.id, last.body.id].sort());
    expect(got).toHaveLength(2);

    const deps = makeDeps(env, { origin: "http://localhost" });
    expect(await dispatchEvent(deps, p.projectId, crypto.randomUUID())).toEqual({ outcome: "dropped" });
    expect(await deliveries(p, endpoint.id)).toHaveLength(2);
  });

  it("membership and team payloads take the reference's shapes", async () => {
    const p = await createProjectWithKeys();
    const h = hook("teams");
    const endpoint = await createEndpoint(p, h.url, ["team.created", "team_membership.created", "team.deleted"]);
    await h.configure({ secret: endpoint.secret });
    const user = await createUser(p);
    const team = await call("/teams", { ...p.server, body: { display_name: "Crew" } });
    expect(team.status, team.text).toBe(201);
    const joined = await call(`/team-memberships/${team.body.id}/${user.body.id}`, { ...p.server, body: {} });
    expect(joined.status, joined.text).toBe(201);
    const created = await waitFor("two webhooks", async () => {
      const list = await h.received();
      return list.length >= 2 ? list : null;
    });
    const bodies = created.map((r) => JSON.parse(r.body)).sort((x, y) => (x.type < y.type ? -1 : 1));
    expect(bodies.map((x) => x.type)).toEqual(["team.created", "team_membership.created"]);
    expect(bodies[0]).toEqual({ type: "team.created", data: team.body });
    expect(bodies[1]).toEqual({ type: "team_membership.created", data: { team_id: team.body.id, user_id: user.body.id } });
    await call(`/teams/${team.body.id}`, { ...p.server, method: "DELETE" });
    const all = await waitFor("the deletion", async () => {
      const list = await h.received();
      return list.length >= 3 ? list : null;
    });
    expect(JSON.parse(all[2]!.body)).toEqual({ type: "team.deleted", data: { id: team.body.id } });
    expect(all.every((r) => r.verified)).toBe(true);
  });

  it("a team's creator joins without a membership webhook (team.created stands for it); a member added later gets one", async () => {
    const p = await createProjectWithKeys();
    const h = hook("creator");
    const endpoint = await createEndpoint(p, h.url, ["team_membership.created"]);
    await h.configure({ secret: endpoint.secret });
    const creator = await createUser(p);
    const member = await createUser(p);
    const team = await call("/teams", { ...p.server, body: { display_name: "Made", creator_user_id: creator.body.id } });
    expect(team.status, team.text).toBe(201);
    expect((await call(`/team-memberships/${team.body.id}/${member.body.id}`, { ...p.server, body: {} })).status).toBe(201);
    const [first] = await waitFor("the member's webhook", async () => {
      const list = await h.received();
      return list.length >= 1 ? list : null;
    });
    expect(JSON.parse(first!.body)).toEqual({ type: "team_membership.created", data: { team_id: team.body.id, user_id: member.body.id } });
    // Give a stray creator webhook the time to arrive before counting.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await h.received()).toHaveLength(1);
  });

  it("permission payloads: a member's default grants on joining, and project grants and revocations", async () => {
    const p = await createProjectWithKeys();
    const h = hook("permissions");
    const endpoint = await createEndpoint(p, h.url, [
      "team_permission.created",
      "project_permission.created",
      "project_permission.deleted",
    ]);
    await h.configure({ secret: endpoint.secret });
    const user = await createUser(p);
    const team = await call("/teams", { ...p.server, body: { display_name: "Crew" } });
    expect((await call(`/team-memberships/${team.body.id}/${user.body.id}`, { ...p.server, body: {} })).status).toBe(201);
    await call("/project-permission-definitions", { ...p.adminKey, body: { id: "viewer" } });
    const grant = `/project-permissions/${user.body.id}/viewer`;
    expect((await call(grant, { ...p.server, body: {} })).status).toBe(201);
    expect((await call(grant, { ...p.server, method: "DELETE" })).status).toBe(200);
    const got = await waitFor("three webhooks", async () => {
      const list = await h.received();
      return list.length >= 3 ? list : null;
    });
    const bodies = got.map((r) => JSON.parse(r.body)).sort((x, y) => (x.type < y.type ? -1 : 1));
    expect(bodies).toEqual([
      { type: "project_permission.created", data: { id: "viewer", user_id: user.body.id } },
      { type: "project_permission.deleted", data: { id: "viewer", user_id: user.body.id } },
      { type: "team_permission.created", data: { id: "team_member", team_id: team.body.id, user_id: user.body.id } },
    ]);
  });

  it("the cron finds a committed event whose enqueue was lost and delivers it", async () => {
    const p = await createProjectWithKeys();
    const h = hook("sweep");
    const endpoint = await createEndpoint(p, h.url);
    await h.configure({ secret: endpoint.secret });
    const eventId = crypto.randomUUID();
    const userId = crypto.randomUUID();
    const at = Date.now() + 1000;
    // As a request would commit it, but no queue message ever went out (the worker stopped in between).
    await env.DB.prepare(
      "INSERT INTO events (id, project_id, type, created_at, actor_type, user_id, data) VALUES (?, ?, 'user.deleted', ?, 'server', ?, ?)",
    )
      .bind(eventId, p.projectId, at, userId, JSON.stringify({ team_ids: ["t-1"] }))
      .run();
    const swept = await sweepWebhooks(makeDeps(env, { origin: "http://localhost", nowMs: at + 6 * 60_000 }));
    expect(swept.events).toBeGreaterThanOrEqual(1);
    const [got] = await waitFor("the swept webhook", async () => ((await h.received()).length ? h.received() : null));
    expect(JSON.parse(got!.body)).toEqual({ type: "user.deleted", data: { id: userId, teams: [{ id: "t-1" }] } });
    expect(got!.headers["webhook-id"]).toBe(messageIdOf(eventId));
    // Swept again: it has its delivery now, so nothing is enqueued for it.
    const again = await sweepWebhooks(makeDeps(env, { origin: "http://localhost", nowMs: at + 6 * 60_000 }));
    const pending = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = ?")
      .bind(eventId)
      .first<{ n: number }>();
    expect(pending!.n).toBe(1);
    expect(again.events).toBe(0);
  });
});

describe("webhook endpoints API", () => {
  it("URLs are checked: https and no private address outside development, a SCHEMA_ERROR otherwise", async () => {
    const { checkWebhookUrl } = await import("../../worker/services/webhooks/urls");
    const prod = (url: string) => checkWebhookUrl(url, { development: false }).ok;
    for (const bad of [
      "http://example.com/hook",
      "https://127.0.0.1/hook",
      "https://10.1.2.3/hook",
      "https://172.16.0.1/",
      "https://192.168.1.10/",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://2130706433/",
      "https://localhost/hook",
      "https://api.localhost/hook",
      "https://metadata.google.internal/",
      "https://[::1]/",
      "https://[fd00::1]/",
      "https://[fe80::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://user:pw@example.com/",
      "ftp://example.com/",
    ])
      expect(prod(bad), bad).toBe(false);
    expect(prod("https://hooks.example.com/doorman")).toBe(true);
    expect(prod("https://8.8.8.8/")).toBe(true);
    expect(checkWebhookUrl("http://127.0.0.1:9999/hook", { development: true }).ok).toBe(true);

    const p = await createProjectWithKeys();
    for (const url of ["not a url", "ftp://example.com/"]) {
      const res = await call("/internal/webhooks/endpoints", { ...p.admin, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe("SCHEMA_ERROR");
    }
    const unknownType = await call("/internal/webhooks/endpoints", {
      ...p.admin,
      body: { url: "https://example.com", event_types: ["user.exploded"] },
    });
    expect(unknownType.body.code).toBe("SCHEMA_ERROR");
  });

  it("another project's endpoints and deliveries are invisible; the svix token works for its own project only", async () => {
    const a = await createProjectWithKeys();
    const b = await createProjectWithKeys();
    const h = hook("mine");
    const endpoint = await createEndpoint(a, h.url);
    await h.configure({ secret: endpoint.secret });
    const sent = await call("/internal/send-test-webhook", { ...a.admin, body: { endpoint_id: endpoint.id } });
    expect(sent.body).toEqual({ success: true });
    const [testDelivery] = await deliveries(a, endpoint.id);
    expect(testDelivery).toMatchObject({ type: "stack.test", status: "succeeded", event_id: null });
    expect(testDelivery!.payload).toEqual({ type: "stack.test", data: { message: expect.any(String), endpointUrl: h.url } });

    expect((await call("/internal/webhooks/endpoints", b.admin)).body.items).toEqual([]);
    expect((await call(`/internal/webhooks/endpoints/${endpoint.id}`, b.admin)).status).toBe(404);
    expect(
      (await call(`/internal/webhooks/endpoints/${endpoint.id}`, { ...b.admin, method: "PATCH", body: { disabled: true } })).status,
    ).toBe(404);
    expect((await call(`/internal/webhooks/endpoints/${endpoint.id}`, { ...b.admin, method: "DELETE" })).status).toBe(404);
    expect((await call(`/internal/webhooks/deliveries?endpoint_id=${endpoint.id}`, b.admin)).body.items).toEqual([]);
    expect((await call(`/internal/webhooks/deliveries/${testDelivery!.id}/resend`, { ...b.admin, body: {} })).status).toBe(404);
    expect((await call("/internal/send-test-webhook", { ...b.admin, body: { endpoint_id: endpoint.id } })).body).toEqual({
      success: false,
      error_message: "Endpoint not found. Make sure it still exists.",
    });

    // The token from /webhooks/svix-token is the credential of the endpoints API, for its project only.
    const tokenA = await call("/webhooks/svix-token", { ...a.admin, body: {} });
    expect(tokenA.status, tokenA.text).toBe(200);
    expect(Object.keys(tokenA.body)).toEqual(["token"]);
    const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
    const listed = await call("/internal/webhooks/endpoints", bearer(tokenA.body.token));
    expect(listed.body.items.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    const tokenB = (await call("/webhooks/svix-token", { ...b.admin, body: {} })).body.token;
    expect((await call(`/internal/webhooks/endpoints/${endpoint.id}`, bearer(tokenB))).status).toBe(404);
    expect((await call("/internal/webhooks/endpoints", bearer(`${tokenA.body.token}x`))).status).toBe(401);
    // Expired an hour later.
    expect((await call("/internal/webhooks/endpoints", { ...bearer(tokenA.body.token), nowMs: Date.now() + 3601_000 })).status).toBe(401);
    expect((await call("/webhooks/svix-token", { ...a.server, body: {} })).status).toBe(401);
    expect((await call("/internal/webhooks/endpoints")).body.code).toBe("ACCESS_TYPE_REQUIRED");
    expect((await call("/internal/webhooks/endpoints", a.server)).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");

    // Resend: the delivery goes again, and the log keeps both attempts.
    const resent = await call(`/internal/webhooks/deliveries/${testDelivery!.id}/resend`, { ...a.admin, body: {} });
    expect(resent.status, resent.text).toBe(200);
    await waitFor("the resent webhook", async () => (await h.received()).length === 2);
    const [again] = await waitFor("the second attempt", async () => {
      const list = await deliveries(a, endpoint.id);
      return list[0]?.attempts.length === 2 && list[0].status === "succeeded" ? list : null;
    });
    expect(again!.attempts.map((x) => x.status_code)).toEqual([200, 200]);

    expect((await call(`/internal/webhooks/endpoints/${endpoint.id}`, { ...a.admin, method: "DELETE" })).body).toEqual({ success: true });
    expect((await call("/internal/webhooks/endpoints", a.admin)).body.items).toEqual([]);
  });
});
