/** Contact channels, email verification (real mail) and notification preferences. */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";

const CALLBACK = "http://localhost:3000/handler/email-verification";
const mailProject = (config: Record<string, unknown> = {}) => createProjectWithKeys({ email_config: sinkEmailConfig(), ...config });

describe("contact channels", () => {
  it("lists the primary email, adds, updates, switches primary and deletes", async () => {
    const p = await mailProject();
    const user = await signUp(p.client);
    const as = { ...p.client, accessToken: user.accessToken };
    const list = await call("/contact-channels?user_id=me", as);
    expect(list.body.items).toEqual([
      {
        user_id: user.userId,
        id: expect.any(String),
        value: user.email,
        type: "email",
        used_for_auth: true,
        is_verified: false,
        is_primary: true,
      },
    ]);

    const second = uniqueEmail("second");
    const created = await call("/contact-channels", {
      ...as,
      body: { user_id: "me", value: second.toUpperCase(), type: "email", used_for_auth: false },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ value: second, is_primary: false, is_verified: false, used_for_auth: false });

    const primary = await call(`/contact-channels/me/${created.body.id}`, { ...as, method: "PATCH", body: { is_primary: true } });
    expect(primary.body.is_primary).toBe(true);
    const after = await call("/contact-channels?user_id=me", as);
    expect(after.body.items.filter((c: { is_primary: boolean }) => c.is_primary)).toHaveLength(1);
    expect((await call("/users/me", as)).body.primary_email).toBe(second);

    expect((await call(`/contact-channels/me/${created.body.id}`, { ...as, method: "DELETE" })).body).toEqual({ success: true });
    expect((await call(`/contact-channels/me/${created.body.id}`, { ...as, method: "DELETE" })).status).toBe(400);
  });

  it("an address signs in for one user only (also under a race)", async () => {
    const p = await mailProject();
    const a = await signUp(p.client);
    const b = await signUp(p.client);
    const conflict = await call("/contact-channels", {
      ...p.client,
      accessToken: b.accessToken,
      body: { user_id: "me", value: a.email, type: "email", used_for_auth: true },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      code: "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      details: { type: "email", contact_channel_value: a.email },
    });
    // Not for sign-in: fine.
    expect(
      (
        await call("/contact-channels", {
          ...p.client,
          accessToken: b.accessToken,
          body: { user_id: "me", value: a.email, type: "email", used_for_auth: false },
        })
      ).status,
    ).toBe(201);

    const shared = uniqueEmail("contested");
    const [x, y] = await Promise.all([
      call("/contact-channels", { ...p.server, body: { user_id: a.userId, value: shared, type: "email", used_for_auth: true } }),
      call("/contact-channels", { ...p.server, body: { user_id: b.userId, value: shared, type: "email", used_for_auth: true } }),
    ]);
    expect([x.status, y.status].sort()).toEqual([201, 409]);
  });

  it("the same address twice for one user is a 400 (as the wire), not a 500; clients stay in their lane", async () => {
    const p = await mailProject();
    const user = await signUp(p.client);
    const other = await signUp(p.client);
    const dup = await call("/contact-channels", {
      ...p.client,
      accessToken: user.accessToken,
      body: { user_id: "me", value: user.email, type: "email", used_for_auth: false },
    });
    expect([dup.status, dup.text]).toEqual([400, "Contact channel already exists"]);
    // Changing or deleting a channel that is not there is a 400 too.
    const missing = await call(`/contact-channels/me/${crypto.randomUUID()}`, {
      ...p.client,
      accessToken: user.accessToken,
      method: "DELETE",
    });
    expect([missing.status, missing.text]).toEqual([400, "Contact channel not found"]);
    const foreign = await call(`/contact-channels?user_id=${other.userId}`, { ...p.client, accessToken: user.accessToken });
    expect(foreign.status).toBe(403);
    const clientVerified = await call("/contact-channels", {
      ...p.client,
      accessToken: user.accessToken,
      body: { user_id: "me", value: uniqueEmail(), type: "email", used_for_auth: false, is_verified: true },
    });
    expect(clientVerified.body.code).toBe("SCHEMA_ERROR");
    const serverVerified = await call("/contact-channels", {
      ...p.server,
      body: { user_id: user.userId, value: uniqueEmail(), type: "email", used_for_auth: false, is_verified: true },
    });
    expect(serverVerified.body.is_verified).toBe(true);
  });

  it("changing an address un-verifies it", async () => {
    const p = await mailProject();
    const user = await signUp(p.client);
    const ch = await call("/contact-channels", {
      ...p.server,
      body: { user_id: user.userId, value: uniqueEmail(), type: "email", used_for_auth: false, is_verified: true },
    });
    const changed = await call(`/contact-channels/${user.userId}/${ch.body.id}`, {
      ...p.server,
      method: "PATCH",
      body: { value: uniqueEmail("changed") },
    });
    expect(changed.body.is_verified).toBe(false);
  });
});

describe("email verification", () => {
  it("sign-up with a callback URL sends the verification mail; the link verifies once", async () => {
    const p = await mailProject();
    const email = uniqueEmail("verify");
    const res = await call("/auth/password/sign-up", {
      ...p.client,
      body: { email, password: "verify password", verification_callback_url: CALLBACK },
    });
    expect(res.status).toBe(200);
    const [mail] = await waitForMail(email);
    expect(mail!.subject).toBe("Verify your email at Test project");
    const code = codeFrom(mail!);
    expect((await call("/contact-channels/verify/check-code", { ...p.client, body: { code } })).body).toEqual({ is_code_valid: true });
    const [a, b] = await Promise.all([
      call("/contact-channels/verify", { ...p.client, body: { code } }),
      call("/contact-channels/verify", { ...p.client, body: { code } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await call("/users/me", { ...p.client, accessToken: res.body.access_token })).body.primary_email_verified).toBe(true);
  });

  it("per-channel send: verified → EMAIL_ALREADY_VERIFIED; untrusted URL refused", async () => {
    const p = await mailProject({ allow_localhost: false, domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] });
    const user = await signUp(p.client);
    const as = { ...p.client, accessToken: user.accessToken };
    const [channel] = (await call("/contact-channels?user_id=me", as)).body.items;
    const untrusted = await call(`/contact-channels/me/${channel.id}/send-verification-code`, {
      ...as,
      body: { callback_url: "https://evil.example.net/v" },
    });
    expect(untrusted.body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    const ok = await call(`/contact-channels/me/${channel.id}/send-verification-code`, {
      ...as,
      body: { callback_url: "https://app.example.com/handler/email-verification" },
    });
    expect(ok.body).toEqual({ success: true });
    const code = codeFrom((await waitForMail(user.email))[0]!);
    expect((await call("/contact-channels/verify", { ...p.client, body: { code } })).status).toBe(200);
    const again = await call(`/contact-channels/me/${channel.id}/send-verification-code`, {
      ...as,
      body: { callback_url: "https://app.example.com/handler/email-verification" },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("EMAIL_ALREADY_VERIFIED");
  });

  it("legacy route: primary email required and matched", async () => {
    const p = await mailProject();
    const user = await signUp(p.client);
    const as = { ...p.client, accessToken: user.accessToken };
    const wrong = await call("/contact-channels/send-verification-code", { ...as, body: { email: uniqueEmail(), callback_url: CALLBACK } });
    expect(wrong.body).toMatchObject({ code: "EMAIL_IS_NOT_PRIMARY_EMAIL", details: { primary_email: user.email } });
    expect(
      (await call("/contact-channels/send-verification-code", { ...as, body: { email: user.email, callback_url: CALLBACK } })).body,
    ).toEqual({ success: true });

    const noEmail = await call("/users", { ...p.server, body: {} });
    const session = await call("/auth/sessions", { ...p.server, body: { user_id: noEmail.body.id } });
    const none = await call("/contact-channels/send-verification-code", {
      ...p.client,
      accessToken: session.body.access_token,
      body: { email: uniqueEmail(), callback_url: CALLBACK },
    });
    expect(none.status).toBe(400);
    expect(none.text).toBe("User does not have a primary email");
  });

  it("code errors: unknown, expired, over-tried", async () => {
    const p = await mailProject();
    const user = await signUp(p.client);
    await call("/contact-channels/send-verification-code", {
      ...p.client,
      accessToken: user.accessToken,
      body: { email: user.email, callback_url: CALLBACK },
    });
    const code = codeFrom((await waitForMail(user.email))[0]!);
    expect((await call("/contact-channels/verify", { ...p.client, body: { code: "x".repeat(45) } })).status).toBe(404);
    expect((await call("/contact-channels/verify", { ...p.client, body: { code }, nowMs: Date.now() + 8 * 24 * 3600_000 })).body.code).toBe(
      "VERIFICATION_CODE_EXPIRED",
    );
    for (let i = 0; i < 20; i++)
      await call("/contact-channels/verify/check-code", { ...p.client, body: { code: `zzzzz${i % 10}${code.slice(6)}` } });
    expect((await call("/contact-channels/verify", { ...p.client, body: { code } })).body.code).toBe(
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    );
  });
});

describe("notification preferences", () => {
  it("lists categories; marketing can be switched, transactional cannot", async () => {
    const p = await mailProject();
    const user = await signUp(p.client);
    const as = { ...p.client, accessToken: user.accessToken };
    const list = await call("/emails/notification-preference/me", as);
    expect(list.body.items).toEqual([
      { notification_category_id: expect.any(String), notification_category_name: "Transactional", enabled: true, can_disable: false },
      { notification_category_id: expect.any(String), notification_category_name: "Marketing", enabled: true, can_disable: true },
    ]);
    const [transactional, marketing] = list.body.items;
    const off = await call(`/emails/notification-preference/me/${marketing.notification_category_id}`, {
      ...as,
      method: "PATCH",
      body: { enabled: false },
    });
    expect(off.body.enabled).toBe(false);
    expect((await call("/emails/notification-preference/me", as)).body.items[1].enabled).toBe(false);
    const refused = await call(`/emails/notification-preference/me/${transactional.notification_category_id}`, {
      ...as,
      method: "PATCH",
      body: { enabled: false },
    });
    expect(refused.status).toBe(400);
    expect(
      (
        await call("/emails/notification-preference/me/6f1a4f0e-3b5d-4c1e-9a7b-000000000000", {
          ...as,
          method: "PATCH",
          body: { enabled: true },
        })
      ).status,
    ).toBe(404);
    const server = await call(`/emails/notification-preference/${user.userId}`, p.server);
    expect(server.body.items[1].enabled).toBe(false);
    const other = await signUp(p.client);
    expect((await call(`/emails/notification-preference/${other.userId}`, as)).status).toBe(403);
  });
});
