/** Sign-in by emailed code: the email, OTP + nonce, sign-up, anonymous upgrade, and every code error. */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, internalClient, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail, waitForOutbox } from "../helpers/mail";

const CALLBACK = "http://localhost:3000/handler/magic-link-callback";

async function otpProject(config: Record<string, unknown> = {}) {
  return createProjectWithKeys({ magic_link_enabled: true, email_config: sinkEmailConfig(), ...config });
}

describe("send-sign-in-code", () => {
  it("emails the OTP and the link over SMTP and returns the nonce", async () => {
    const p = await otpProject();
    const email = uniqueEmail("otp");
    const res = await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    expect(res.status).toBe(200);
    expect(res.body.nonce).toMatch(/^[0-9a-hjkmnp-tv-z]{39}$/);
    const [mail] = await waitForMail(email);
    const code = codeFrom(mail!);
    expect(code.slice(6)).toBe(res.body.nonce);
    expect(mail!.subject).toBe(`Sign in to Test project: Your code is ${code.slice(0, 6).toUpperCase()}`);
    expect(mail!.text).toContain(`${CALLBACK}?code=${code}`);
    expect(mail!.html).toContain(code.slice(0, 6).toUpperCase());
  });

  it("is gated by magic_link_enabled and checks the callback URL", async () => {
    const off = await createProjectWithKeys({ magic_link_enabled: false });
    const disabled = await call("/auth/otp/send-sign-in-code", { ...off.client, body: { email: uniqueEmail(), callback_url: CALLBACK } });
    expect(disabled.status).toBe(403);
    const p = await otpProject({ allow_localhost: false, domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] });
    const bad = await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { email: uniqueEmail(), callback_url: "https://evil.example.net/cb" },
    });
    expect(bad.body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
  });
});

describe("otp sign-in", () => {
  it("a new user gets the country of the request that asked for the code, not of the one that used it", async () => {
    const p = await otpProject();
    const email = uniqueEmail("country");
    await call("/auth/otp/send-sign-in-code", { ...p.client, headers: { "cf-ipcountry": "CA" }, body: { email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(email))[0]!);
    const res = await call("/auth/otp/sign-in", { ...p.client, headers: { "cf-ipcountry": "US" }, body: { code } });
    expect(res.status, res.text).toBe(200);
    expect((await call(`/users/${res.body.user_id}`, p.server)).body.country_code).toBe("CA");
  });

  it("signs up a new user with a verified email (OTP typed + nonce), then signs the same user in", async () => {
    const p = await otpProject();
    const email = uniqueEmail("new");
    const sent = await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    const [mail] = await waitForMail(email);
    const otp = /Your code is ([A-Z0-9]{6})/.exec(mail!.subject)![1]!;
    const typed = `${otp.toLowerCase()}${sent.body.nonce}`;
    const check = await call("/auth/otp/sign-in/check-code", { ...p.client, body: { code: typed } });
    expect(check.body).toEqual({ is_code_valid: true });
    const first = await call("/auth/otp/sign-in", { ...p.client, body: { code: `${otp}${sent.body.nonce}` } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ is_new_user: true });
    const me = await call("/users/me", { ...p.client, accessToken: first.body.access_token });
    expect(me.body).toMatchObject({ primary_email: email, primary_email_verified: true, otp_auth_enabled: true, has_password: false });

    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    const mails = await waitForMail(email, 2);
    const again = await call("/auth/otp/sign-in", { ...p.client, body: { code: codeFrom(mails[1]!) } });
    expect(again.body).toMatchObject({ is_new_user: false, user_id: first.body.user_id });
  });

  it("the code is single-use, also when two requests race", async () => {
    const p = await otpProject();
    const email = uniqueEmail("race");
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(email))[0]!);
    const [a, b] = await Promise.all([
      call("/auth/otp/sign-in", { ...p.client, body: { code } }),
      call("/auth/otp/sign-in", { ...p.client, body: { code } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a.body.code, b.body.code]).toContain("VERIFICATION_CODE_ALREADY_USED");
    const replay = await call("/auth/otp/sign-in", { ...p.client, body: { code } });
    expect(replay.body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
  });

  it("wrong, expired and over-tried codes give the wire's errors in order", async () => {
    const p = await otpProject();
    const email = uniqueEmail("errors");
    const sent = await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(email))[0]!);
    const unknown = await call("/auth/otp/sign-in", { ...p.client, body: { code: "z".repeat(45) } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    expect((await call("/auth/otp/sign-in", { ...p.client, body: { code: "short" } })).body.code).toBe("SCHEMA_ERROR");

    const expired = await call("/auth/otp/sign-in", { ...p.client, body: { code }, nowMs: Date.now() + 8 * 24 * 3600_000 });
    expect(expired.body.code).toBe("VERIFICATION_CODE_EXPIRED");

    // 20 wrong OTPs against the same nonce use up the code's attempts.
    for (let i = 0; i < 20; i++) {
      const wrong = `${String(100000 + i).slice(0, 6)}${sent.body.nonce}`;
      expect((await call("/auth/otp/sign-in", { ...p.client, body: { code: wrong } })).body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    }
    const maxed = await call("/auth/otp/sign-in", { ...p.client, body: { code } });
    expect(maxed.body.code).toBe("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
  });

  it("an existing unverified email is USER_EMAIL_ALREADY_EXISTS at send (no mail), and at sign-in if it became unverified since", async () => {
    const p = await otpProject();
    const user = await signUp(p.client);
    const sent = await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    expect(sent.status).toBe(409);
    expect(sent.body).toMatchObject({
      code: "USER_EMAIL_ALREADY_EXISTS",
      details: { email: user.email, would_work_if_email_was_verified: true },
    });

    const email = uniqueEmail("unverified-later");
    const created = await call("/users", {
      ...p.server,
      body: { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true },
    });
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(email))[0]!);
    await call(`/users/${created.body.id}`, { ...p.server, method: "PATCH", body: { primary_email_verified: false } });
    const res = await call("/auth/otp/sign-in", { ...p.client, body: { code } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "USER_EMAIL_ALREADY_EXISTS", details: { email, would_work_if_email_was_verified: true } });
  });

  it("a verified email signs its existing user in and enables OTP for them", async () => {
    const p = await otpProject();
    const email = uniqueEmail("verified");
    const created = await call("/users", {
      ...p.server,
      body: { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, password: "has a password" },
    });
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    const res = await call("/auth/otp/sign-in", { ...p.client, body: { code: codeFrom((await waitForMail(email))[0]!) } });
    expect(res.body).toMatchObject({ user_id: created.body.id, is_new_user: false });
    expect((await call(`/users/${created.body.id}`, p.server)).body.otp_auth_enabled).toBe(true);
  });

  it("a verified auth channel that is not the primary email signs its user in too", async () => {
    const p = await otpProject();
    const user = await signUp(p.client);
    const second = uniqueEmail("second");
    await call("/contact-channels", {
      ...p.server,
      body: { user_id: user.userId, value: second, type: "email", used_for_auth: true, is_verified: true },
    });
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email: second, callback_url: CALLBACK } });
    const res = await call("/auth/otp/sign-in", { ...p.client, body: { code: codeFrom((await waitForMail(second))[0]!) } });
    expect(res.body).toMatchObject({ user_id: user.userId, is_new_user: false });
  });

  it("sign-up disabled: a new email cannot sign up by code (refused at send, as the reference)", async () => {
    const p = await otpProject({ sign_up_enabled: false });
    const email = uniqueEmail("nosignup");
    const res = await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    expect(res.body.code).toBe("SIGN_UP_NOT_ENABLED");
  });

  it("upgrades a current anonymous user in place", async () => {
    const anon = await call("/auth/anonymous/sign-up", { ...internalClient, method: "POST" });
    const email = uniqueEmail("anon-otp");
    await call("/auth/otp/send-sign-in-code", { ...internalClient, body: { email, callback_url: CALLBACK } });
    const [mail] = await waitForOutbox(email);
    const res = await call("/auth/otp/sign-in", {
      ...internalClient,
      accessToken: anon.body.access_token,
      allowAnonymous: true,
      body: { code: codeFrom(mail!) },
    });
    expect(res.body).toMatchObject({ user_id: anon.body.user_id, is_new_user: true });
    const me = await call("/users/me", { ...internalClient, accessToken: res.body.access_token });
    expect(me.body).toMatchObject({ is_anonymous: false, primary_email: email, primary_email_verified: true });
  });

  it("stores codes only as hashes", async () => {
    const { env } = await import("cloudflare:test");
    const p = await otpProject();
    const email = uniqueEmail("hash");
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(email))[0]!);
    const rows = await env.DB.prepare("SELECT code_hash, nonce_hash, data FROM verification_codes WHERE data LIKE ?")
      .bind(`%${email}%`)
      .all<Record<string, string>>();
    expect(rows.results).toHaveLength(1);
    expect(JSON.stringify(rows.results)).not.toContain(code);
    expect(JSON.stringify(rows.results)).not.toContain(code.slice(6));
  });
});
