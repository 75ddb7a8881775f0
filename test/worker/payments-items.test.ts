/**
 * Items and quantities (issue 15), wire as the reference: GET /payments/items/… and the older
 * path, POST …/update-quantity with strict and plain decreases, a ledger with expiring changes and
 * repeats granted by time, every error of SPEC.md's payments row, and the strict-decrease race.
 */
import { describe, expect, it } from "vitest";
import { type CallOptions, call, createProjectWithKeys, signUp } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const DAY = 86_400_000;

async function paymentsProject(payments: Record<string, unknown>): Promise<Project> {
  const p = await createProjectWithKeys();
  const res = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: { config_override_string: JSON.stringify(payments) },
  });
  expect(res.status, res.text).toBe(200);
  return p;
}

const credits = { "payments.items.credits": { displayName: "Credits", customerType: "user" } };

const item = (access: CallOptions, path: string, nowMs?: number) => call(`/payments/items/${path}`, { ...access, nowMs });
const update = (p: Project, path: string, body: Record<string, unknown>, allowNegative = false, nowMs?: number) =>
  call(`/payments/items/${path}/update-quantity?allow_negative=${allowNegative}`, { ...p.server, body, nowMs });

describe("items", () => {
  it("reads an item (both paths), increases, and decreases strictly and plainly", async () => {
    const p = await paymentsProject(credits);
    const u = await signUp(p.client);
    const first = await item(p.server, `user/${u.userId}/credits`);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ id: "credits", display_name: "Credits", quantity: 0 });

    expect((await update(p, `user/${u.userId}/credits`, { delta: 5, description: "welcome" })).body).toEqual({});
    const strictShort = await update(p, `user/${u.userId}/credits`, { delta: -6 });
    expect(strictShort.status).toBe(400);
    expect(strictShort.body.code).toBe("ITEM_QUANTITY_INSUFFICIENT_AMOUNT");
    expect(strictShort.body.details).toEqual({ item_id: "credits", customer_id: u.userId, quantity: -6 });
    // Nothing was written by the refused decrease.
    expect((await item(p.server, `${u.userId}/credits`)).body.quantity).toBe(5);

    const plain = await update(p, `user/${u.userId}/credits`, { delta: -8 }, true);
    expect(plain.status, plain.text).toBe(200);
    const older = await item(p.client, `${u.userId}/credits`);
    // A client without a signed-in user reads no customer.
    expect([older.status, older.body.code]).toEqual([401, "USER_AUTHENTICATION_REQUIRED"]);
    // The client reads its own item on the older path too; the quantity may be negative.
    const own = await item({ ...p.client, accessToken: u.accessToken }, `${u.userId}/credits`);
    expect(own.body).toEqual({ id: "credits", display_name: "Credits", quantity: -3 });
  });

  it("answers every error of the payments row", async () => {
    const p = await paymentsProject({ ...credits, "payments.items.seats": { displayName: "Seats", customerType: "team" } });
    const u = await signUp(p.client);
    const other = await signUp(p.client);
    const missing = await item(p.server, `user/${u.userId}/nope`);
    expect([missing.status, missing.body.code, missing.body.details]).toEqual([404, "ITEM_NOT_FOUND", { item_id: "nope" }]);
    const mismatch = await item(p.server, `team/${u.userId}/credits`);
    expect([mismatch.status, mismatch.body.code]).toEqual([400, "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH"]);
    expect(mismatch.body.details).toEqual({
      item_id: "credits",
      customer_id: u.userId,
      item_customer_type: "user",
      actual_customer_type: "team",
    });
    const nobody = await item(p.server, "user/00000000-0000-4000-8000-000000000000/credits");
    expect([nobody.status, nobody.body.code]).toEqual([400, "CUSTOMER_DOES_NOT_EXIST"]);
    const noTeam = await update(p, "team/00000000-0000-4000-8000-000000000000/seats", { delta: 1 });
    expect(noTeam.body.code).toBe("CUSTOMER_DOES_NOT_EXIST");
    // A client reads only its own user's items: another user's is refused, and nothing leaks.
    const foreign = await item({ ...p.client, accessToken: u.accessToken }, `user/${other.userId}/credits`);
    expect(foreign.status).toBe(403);
    // Changing a quantity is server-only.
    const byClient = await call(`/payments/items/user/${u.userId}/credits/update-quantity?allow_negative=true`, {
      ...p.client,
      accessToken: u.accessToken,
      body: { delta: 100 },
    });
    expect(byClient.status).toBe(401);
    const bad = await update(p, `user/${u.userId}/credits`, { delta: 1.5 });
    expect([bad.status, bad.body.code]).toEqual([400, "SCHEMA_ERROR"]);
    // Custom customers exist once named; clients can never read them.
    expect((await item(p.server, "custom/org-42/credits")).body.code).toBe("ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH");
  });

  it("a team's members read the team's items; others cannot", async () => {
    const p = await paymentsProject({ "payments.items.seats": { displayName: "Seats", customerType: "team", default: { quantity: 3 } } });
    const member = await signUp(p.client);
    const outsider = await signUp(p.client);
    const team = await call("/teams", { ...p.server, body: { display_name: "Acme", creator_user_id: member.userId } });
    expect(team.status, team.text).toBe(201);
    const mine = await item({ ...p.client, accessToken: member.accessToken }, `team/${team.body.id}/seats`);
    expect(mine.body.quantity).toBe(3);
    expect((await item({ ...p.client, accessToken: outsider.accessToken }, `team/${team.body.id}/seats`)).status).toBe(403);
  });

  it("strict decrease under a burst: 50 concurrent decreases of 1 on 10 give exactly 10 successes and 0 left", async () => {
    const p = await paymentsProject(credits);
    const u = await signUp(p.client);
    await update(p, `user/${u.userId}/credits`, { delta: 10 });
    const results = await Promise.all(Array.from({ length: 50 }, () => update(p, `user/${u.userId}/credits`, { delta: -1 })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 400 && r.body.code === "ITEM_QUANTITY_INSUFFICIENT_AMOUNT")).toHaveLength(40);
    expect((await item(p.server, `user/${u.userId}/credits`)).body.quantity).toBe(0);
  });

  it("expiring changes drop out; spending from them ends with them", async () => {
    const p = await paymentsProject(credits);
    const u = await signUp(p.client);
    const t0 = Date.now();
    const path = `user/${u.userId}/credits`;
    await update(p, path, { delta: 10 }, false, t0);
    await update(p, path, { delta: 20, expires_at: new Date(t0 + DAY).toISOString() }, false, t0);
    expect((await item(p.server, path, t0)).body.quantity).toBe(30);
    // A decrease spends the soonest-expiring credits first.
    await update(p, path, { delta: -25 }, false, t0 + 1000);
    expect((await item(p.server, path, t0 + 1000)).body.quantity).toBe(5);
    // When the 20 expire, the 20 spent from them go with them: 10 - 5 = 5 are left, not -15.
    expect((await item(p.server, path, t0 + DAY + 1)).body.quantity).toBe(5);
  });

  it("repeats are granted by time: a monthly default that resets, and one that accumulates", async () => {
    const p = await paymentsProject({
      "payments.items.credits": {
        displayName: "Credits",
        customerType: "user",
        default: { quantity: 100, repeat: [1, "month"], expires: "when-repeated" },
      },
      "payments.items.points": { displayName: "Points", customerType: "user", default: { quantity: 10, repeat: [1, "week"] } },
    });
    const u = await signUp(p.client);
    const t0 = Date.now();
    expect((await item(p.server, `user/${u.userId}/credits`, t0)).body.quantity).toBe(100);
    expect((await update(p, `user/${u.userId}/credits`, { delta: -30 }, false, t0)).status).toBe(200);
    expect((await item(p.server, `user/${u.userId}/credits`, t0)).body.quantity).toBe(70);
    // Next month the grant is renewed and this month's spending expires with the old grant.
    expect((await item(p.server, `user/${u.userId}/credits`, t0 + 32 * DAY)).body.quantity).toBe(100);
    // The weekly points never expire: 10 now, 30 after two more weeks.
    expect((await item(p.server, `user/${u.userId}/points`, t0)).body.quantity).toBe(10);
    expect((await item(p.server, `user/${u.userId}/points`, t0 + 15 * DAY)).body.quantity).toBe(30);
  });

  it("an invalid payments config is a 400 naming the key, and nothing is written", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "payments.items.credits": { displayName: "Credits", customerType: "robot" } }) },
    });
    // A config override it cannot take is a plain 400 naming the key (no known-error code), as the reference.
    expect(res.status).toBe(400);
    expect(res.text).toContain("payments.items.credits.customerType");
  });
});
