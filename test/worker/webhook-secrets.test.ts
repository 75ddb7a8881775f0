/**
 * Webhook signing secrets after creation (issue 28): an owner reveals the secret (logged as
 * webhook.secret_revealed) or rotates it (webhook.secret_rotated): the new secret signs every
 * attempt from then on and the old one none; the secret stays sealed at rest; other projects,
 * server keys and clients get nothing.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { call, createProjectWithKeys } from "../helpers/api";

type Received = { headers: Record<string, string>; body: string; verified: boolean; error: string | null };

const receiverUrl = (path: string) => `http://127.0.0.1:${inject("webhookPort")}${path}`;

function hook(tag: string) {
  const name = `${tag}-${crypto.randomUUID()}`;
  return {
    url: receiverUrl(`/hooks/${name}`),
    configure: (config: { secret?: string }) =>
      fetch(receiverUrl(`/control/${name}`), { method: "PUT", body: JSON.stringify(config) }).then((r) => r.text()),
    received: async () => (await (await fetch(receiverUrl(`/control/${name}`))).json()) as Received[],
  };
}

const eventsOf = async (p: Awaited<ReturnType<typeof createProjectWithKeys>>, type: string) =>
  (await call(`/internal/events?type=${type}`, p.admin)).body.items as { type: string; data: unknown; actor: { type: string } }[];

describe("webhook secrets: reveal and rotate", () => {
  it("reveal answers the current secret and is logged; rotation replaces it, and only the new one signs", async () => {
    const p = await createProjectWithKeys();
    const h = hook("rotate");
    const created = await call("/internal/webhooks/endpoints", { ...p.admin, body: { url: h.url } });
    expect(created.status, created.text).toBe(200);
    const { id, secret: first } = created.body as { id: string; secret: string };

    const revealed = await call(`/internal/webhooks/endpoints/${id}/secret`, p.admin);
    expect(revealed.status, revealed.text).toBe(200);
    expect(revealed.body).toEqual({ secret: first });
    const reveals = await eventsOf(p, "webhook.secret_revealed");
    expect(reveals).toEqual([expect.objectContaining({ data: { endpoint_id: id }, actor: expect.objectContaining({ type: "admin" }) })]);
    expect(JSON.stringify(reveals)).not.toContain(first);

    const rotated = await call(`/internal/webhooks/endpoints/${id}/secret/rotate`, { ...p.admin, body: {} });
    expect(rotated.status, rotated.text).toBe(200);
    const second: string = rotated.body.secret;
    expect(second).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(second).not.toBe(first);
    expect((await call(`/internal/webhooks/endpoints/${id}/secret`, p.admin)).body).toEqual({ secret: second });
    expect(await eventsOf(p, "webhook.secret_rotated")).toEqual([expect.objectContaining({ data: { endpoint_id: id } })]);
    const stored = await env.DB.prepare("SELECT secret_sealed FROM webhook_endpoints WHERE id = ?")
      .bind(id)
      .first<{ secret_sealed: string }>();
    expect(stored!.secret_sealed).not.toContain(second.slice(6));

    // A receiver still on the old secret rejects the next delivery; on the new one it verifies.
    await h.configure({ secret: first });
    await call("/internal/send-test-webhook", { ...p.admin, body: { endpoint_id: id } });
    await h.configure({ secret: second });
    const sent = await call("/internal/send-test-webhook", { ...p.admin, body: { endpoint_id: id } });
    expect(sent.body).toEqual({ success: true });
    const [withOld, withNew] = await h.received();
    expect(withOld).toMatchObject({ verified: false });
    expect(withNew).toMatchObject({ verified: true });
  });

  it("another project, a server key or no endpoint: 404 or refused, and nothing is logged", async () => {
    const a = await createProjectWithKeys();
    const b = await createProjectWithKeys();
    const { id } = (await call("/internal/webhooks/endpoints", { ...a.admin, body: { url: hook("other").url } })).body as { id: string };
    expect((await call(`/internal/webhooks/endpoints/${id}/secret`, b.admin)).status).toBe(404);
    expect((await call(`/internal/webhooks/endpoints/${id}/secret/rotate`, { ...b.admin, body: {} })).status).toBe(404);
    expect((await call(`/internal/webhooks/endpoints/${id}/secret`, a.server)).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    expect((await call(`/internal/webhooks/endpoints/${id}/secret/rotate`, { ...a.client, body: {} })).status).toBe(401);
    expect((await call(`/internal/webhooks/endpoints/nope/secret/rotate`, { ...a.admin, body: {} })).status).toBe(404);
    expect(await eventsOf(b, "webhook.secret_revealed")).toEqual([]);
    expect(await eventsOf(b, "webhook.secret_rotated")).toEqual([]);
    expect(await eventsOf(a, "webhook.secret_rotated")).toEqual([]);
  });
});
