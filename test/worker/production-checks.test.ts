/**
 * Production mode and development leftovers (issue 25, findings 2 and 3): the public test card
 * never pays on a project in production mode, and production mode is refused while a webhook
 * endpoint is not public https, the SMTP host is internal, or payments are in test mode.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { forgetAuthRows } from "../../worker/db/auth-row-cache";
import { call, createProjectWithKeys, signUp } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const PRODUCTION_READY = { allow_localhost: false, domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] };
const patchOverride = (p: Project, override: Record<string, unknown>) =>
  call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: { config_override_string: JSON.stringify(override) },
  });
const setProduction = (p: Project, on: boolean, config: Record<string, unknown> = PRODUCTION_READY) =>
  call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { is_production_mode: on, config } });

describe("the test checkout in production mode", () => {
  it("refuses the test card on a production project (a project from before the checks, still in test mode)", async () => {
    const p = await createProjectWithKeys(PRODUCTION_READY);
    const shop = await patchOverride(p, {
      "payments.items.credits": { displayName: "Credits", customerType: "user" },
      "payments.offers.credits": {
        displayName: "10,000 credits",
        customerType: "user",
        serverOnly: false,
        stackable: false,
        prices: { once: { USD: "99.00" } },
        includedItems: { credits: { quantity: 10_000 } },
      },
    });
    expect(shop.status, shop.text).toBe(200);
    // Production mode turned on before the checks existed: set in D1, as such a project is stored.
    await env.DB.prepare("UPDATE projects SET is_production_mode = 1 WHERE id = ?").bind(p.projectId).run();
    forgetAuthRows();

    const user = await signUp(p.client);
    const url = await call("/payments/purchases/create-purchase-url", {
      ...p.client,
      accessToken: user.accessToken,
      body: { customer_type: "user", customer_id: user.userId, offer_id: "credits" },
    });
    expect(url.status, url.text).toBe(200);
    const fullCode = decodeURIComponent(new URL(url.body.url).pathname.split("/purchase/")[1]!);
    const paid = await call("/payments/purchases/test-mode-purchase", {
      body: { full_code: fullCode, price_id: "once", card_number: "4242 4242 4242 4242" },
    });
    expect(paid.status, paid.text).toBe(403);
    expect(paid.body.code).toBe("TEST_MODE_NOT_ALLOWED_IN_PRODUCTION");
    expect((await call(`/payments/items/user/${user.userId}/credits`, p.server)).body.quantity).toBe(0);
    // The owner's test purchase from the console is refused too.
    const owner = await call("/internal/payments/test-mode-purchase-session", {
      ...p.admin,
      body: { full_code: fullCode, price_id: "once" },
    });
    expect(owner.status, owner.text).toBe(403);
    expect(owner.body.code).toBe("TEST_MODE_NOT_ALLOWED_IN_PRODUCTION");
  });
});

describe("production checks: development leftovers", () => {
  it("payments in test mode block production mode until test mode is off", async () => {
    const p = await createProjectWithKeys();
    const refused = await setProduction(p, true);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Payments are in test mode");
    expect((await patchOverride(p, { "payments.testMode": false })).status).toBe(200);
    const ok = await setProduction(p, true);
    expect(ok.status, ok.text).toBe(200);
    // Back to test mode while in production: refused too.
    const back = await patchOverride(p, { "payments.testMode": true });
    expect(back.status).toBe(400);
    expect(back.text).toContain("Payments are in test mode");
  });

  it("an SMTP host on loopback or a private network blocks production mode", async () => {
    const p = await createProjectWithKeys();
    expect((await patchOverride(p, { "payments.testMode": false })).status).toBe(200);
    const smtp = (host: string) => ({
      ...PRODUCTION_READY,
      email_config: {
        type: "standard",
        host,
        port: 587,
        username: "u",
        password: "pw",
        sender_name: "App",
        sender_email: "app@example.com",
      },
    });
    for (const host of ["127.0.0.1", "localhost", "10.0.0.5", "192.168.1.2", "::1"]) {
      const res = await setProduction(p, true, smtp(host));
      expect(res.status, host).toBe(400);
      expect(res.text, host).toContain("SMTP server");
    }
    const ok = await setProduction(p, true, smtp("smtp.example.com"));
    expect(ok.status, ok.text).toBe(200);
  });

  it("a webhook endpoint that is not public https blocks production mode", async () => {
    const p = await createProjectWithKeys();
    expect((await patchOverride(p, { "payments.testMode": false })).status).toBe(200);
    const created = await call("/internal/webhooks/endpoints", { ...p.admin, body: { url: "http://localhost:9999/hook" } });
    expect(created.status, created.text).toBe(200);
    const refused = await setProduction(p, true);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("http://localhost:9999/hook");
    expect((await call(`/internal/webhooks/endpoints/${created.body.id}`, { ...p.admin, method: "DELETE" })).status).toBe(200);
    expect((await call("/internal/webhooks/endpoints", { ...p.admin, body: { url: "https://hooks.example.com/doorman" } })).status).toBe(
      200,
    );
    const ok = await setProduction(p, true);
    expect(ok.status, ok.text).toBe(200);
    // While in production, a new or changed endpoint must be public https too.
    const local = await call("/internal/webhooks/endpoints", { ...p.admin, body: { url: "http://localhost:9999/hook" } });
    expect(local.status).toBe(400);
    expect(local.body.code).toBe("SCHEMA_ERROR");
  });
});
