/**
 * Canceling a customer's subscription product (DELETE /payments/products/{type}/{id}/{product}):
 * who may cancel (own user, team admins, servers), every stackable quantity, one-time purchases
 * refused, one subscription by subscription_id, the canceled plan owned until its period ends,
 * and concurrent cancels.
 */
import { describe, expect, it } from "vitest";
import { call, type createProjectWithKeys, projectWithConfig, signUp } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
const DAY = 86_400_000;

const monthly = { monthly: { USD: "10", interval: [1, "month"] } };
const CONFIG = {
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    serverOnly: false,
    stackable: false,
    prices: monthly,
    includedItems: {},
  },
  "payments.offers.seats": {
    displayName: "Seats",
    customerType: "user",
    serverOnly: false,
    stackable: true,
    prices: monthly,
    includedItems: {},
  },
  "payments.offers.once": {
    displayName: "Once",
    customerType: "user",
    serverOnly: false,
    stackable: false,
    prices: { once: { USD: "10" } },
    includedItems: {},
  },
  "payments.offers.team-pro": {
    displayName: "Team Pro",
    customerType: "team",
    serverOnly: false,
    stackable: false,
    prices: monthly,
    includedItems: {},
  },
};

function shop(): Promise<Project> {
  return projectWithConfig(CONFIG);
}

const grant = async (p: Project, path: string, body: Record<string, unknown>) => {
  const res = await call(`/payments/products/${path}`, { ...p.server, body });
  expect(res.status, res.text).toBe(200);
};
const cancel = (access: object, path: string, nowMs?: number) => call(`/payments/products/${path}`, { ...access, method: "DELETE", nowMs });
const purchases = async (p: Project, path: string) => (await call(`/payments/purchases/${path}`, p.server)).body.items;
const owned = async (p: Project, path: string, nowMs?: number) =>
  (await call(`/payments/products/${path}`, { ...p.server, nowMs })).body.items.map((i: { id: string }) => i.id);

describe("cancel a subscription product", () => {
  it("a signed-in user cancels their own; owned until the period ends; a second cancel finds no subscription", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    await grant(p, `user/${u.userId}`, { product_id: "pro" });
    const res = await cancel({ ...p.client, accessToken: u.accessToken }, `user/${u.userId}/pro`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const [row] = await purchases(p, `user/${u.userId}`);
    expect(row.status).toBe("canceled");
    expect(await owned(p, `user/${u.userId}`)).toEqual(["pro"]);
    expect(await owned(p, `user/${u.userId}`, Date.now() + 32 * DAY)).toEqual([]);
    const again = await cancel(p.server, `user/${u.userId}/pro`);
    expect(again.status).toBe(400);
    expect(again.text).toContain("one time purchase");
  });

  it("a client may not cancel another user's or a custom customer's; without a user it must sign in", async () => {
    const p = await shop();
    const owner = await signUp(p.client);
    const other = await signUp(p.client);
    await grant(p, `user/${owner.userId}`, { product_id: "pro" });
    const res = await cancel({ ...p.client, accessToken: other.accessToken }, `user/${owner.userId}/pro`);
    expect(res.status).toBe(403);
    expect(res.text).toBe("Clients can only cancel their own subscriptions.");
    expect((await cancel({ ...p.client, accessToken: other.accessToken }, "custom/org-1/pro")).status).toBe(403);
    expect((await cancel(p.client, `user/${owner.userId}/pro`)).body.code).toBe("USER_AUTHENTICATION_REQUIRED");
    expect((await purchases(p, `user/${owner.userId}`))[0].status).toBe("active");
  });

  it("a server cancels anyone's; stackable quantities are all canceled; one-time purchases are refused", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    await grant(p, `user/${u.userId}`, { product_id: "seats" });
    await grant(p, `user/${u.userId}`, { product_id: "seats", quantity: 2 });
    await grant(p, `user/${u.userId}`, { product_id: "once" });
    expect((await cancel(p.server, `user/${u.userId}/seats`)).status).toBe(200);
    const rows = await purchases(p, `user/${u.userId}`);
    expect(rows.filter((r: { offer_id: string }) => r.offer_id === "seats").map((r: { status: string }) => r.status)).toEqual([
      "canceled",
      "canceled",
    ]);
    const once = await cancel(p.server, `user/${u.userId}/once`);
    expect(once.status).toBe(400);
    expect(once.text).toBe("This product is a one time purchase and cannot be canceled.");
  });

  it("bad targets are clear errors: unknown product, product not owned, wrong customer type, unknown customer, bad subscription_id", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    expect((await cancel(p.server, `user/${u.userId}/nope`)).body.code).toBe("PRODUCT_DOES_NOT_EXIST");
    const notOwned = await cancel(p.server, `user/${u.userId}/pro`);
    expect(notOwned.status).toBe(400);
    expect(notOwned.text).toBe("Customer does not have this product.");
    expect((await cancel(p.server, `user/${u.userId}/team-pro`)).body.code).toBe("PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH");
    expect((await cancel(p.server, "user/5c2e3a52-0000-4000-8000-000000000000/pro")).body.code).toBe("CUSTOMER_DOES_NOT_EXIST");
    expect((await cancel(p.server, "nobody/x/pro")).body.code).toBe("SCHEMA_ERROR");
    const badSub = await cancel(p.server, `user/${u.userId}/_inline?subscription_id=nope`);
    expect(badSub.status).toBe(400);
    expect(badSub.text).toBe("No active subscription found with this ID for the given customer.");
  });

  it("a team admin cancels the team's subscription; a plain member may not", async () => {
    const p = await shop();
    const admin = await signUp(p.client);
    const member = await signUp(p.client);
    const team = await call("/teams", { ...p.server, body: { display_name: "Acme", creator_user_id: admin.userId } });
    expect(team.status, team.text).toBe(201);
    const join = await call(`/team-memberships/${team.body.id}/${member.userId}`, { ...p.server, body: {} });
    expect(join.status, join.text).toBe(201);
    await grant(p, `team/${team.body.id}`, { product_id: "team-pro" });
    const refused = await cancel({ ...p.client, accessToken: member.accessToken }, `team/${team.body.id}/team-pro`);
    expect(refused.body.code).toBe("TEAM_PERMISSION_REQUIRED");
    const res = await cancel({ ...p.client, accessToken: admin.accessToken }, `team/${team.body.id}/team-pro`);
    expect(res.status, res.text).toBe(200);
  });

  it("an inline offer's subscription is canceled by its subscription_id", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    const inline = { display_name: "Inline", customer_type: "user", server_only: false, prices: monthly, included_items: {} };
    await grant(p, `user/${u.userId}`, { product_inline: inline });
    const [row] = await purchases(p, `user/${u.userId}`);
    const res = await cancel({ ...p.client, accessToken: u.accessToken }, `user/${u.userId}/_inline?subscription_id=${row.id}`);
    expect(res.status, res.text).toBe(200);
    expect((await purchases(p, `user/${u.userId}`))[0].status).toBe("canceled");
  });

  it("10 concurrent cancels of one subscription: every answer is 200 or the clear 400, and it is canceled once", async () => {
    const p = await shop();
    const u = await signUp(p.client);
    await grant(p, `user/${u.userId}`, { product_id: "pro" });
    const answers = await Promise.all(Array.from({ length: 10 }, () => cancel(p.server, `user/${u.userId}/pro`)));
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const a of answers) expect([200, 400], a.text).toContain(a.status);
    const [row] = await purchases(p, `user/${u.userId}`);
    expect(row.status).toBe("canceled");
    expect(row.cancel_at_period_end).toBe(true);
  });
});
