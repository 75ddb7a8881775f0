/** TOTP second factor: enabling, every first factor answering MFA-required, the second step. */
import { env } from "cloudflare:test";
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";

const SECRET = new Uint8Array(Array.from({ length: 20 }, (_, i) => i * 7 + 3));
const SECRET_B64 = btoa(String.fromCharCode(...SECRET));
const totpAt = (ms: number) => generateHOTP(SECRET, BigInt(Math.floor(ms / 30_000)), 6);

async function mfaUser(p: Awaited<ReturnType<typeof createProjectWithKeys>>) {
  const user = await signUp(p.client);
  const res = await call("/users/me", {
    ...p.client,
    accessToken: user.accessToken,
    method: "PATCH",
    body: { totp_secret_base64: SECRET_B64 },
  });
  expect(res.body.requires_totp_mfa).toBe(true);
  return user;
}

describe("TOTP MFA", () => {
  it("stores the secret sealed, never as given", async () => {
    const p = await createProjectWithKeys();
    const user = await mfaUser(p);
    const row = await env.DB.prepare("SELECT totp_secret FROM users WHERE id = ?").bind(user.userId).first<{ totp_secret: string }>();
    expect(row?.totp_secret).toMatch(/^v1\./);
    expect(row?.totp_secret).not.toContain(SECRET_B64);
  });

  it("password sign-in asks for the second factor; a right TOTP completes it once", async () => {
    const p = await createProjectWithKeys();
    const user = await mfaUser(p);
    const first = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    expect(first.status).toBe(400);
    expect(first.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    const attempt = first.body.details.attempt_code as string;
    expect(attempt).toHaveLength(45);

    const wrong = await call("/auth/mfa/sign-in", {
      ...p.client,
      body: { type: "totp", totp: "000000" === totpAt(Date.now()) ? "111111" : "000000", code: attempt },
    });
    expect(wrong.body.code).toBe("INVALID_TOTP_CODE");
    const right = await call("/auth/mfa/sign-in", { ...p.client, body: { type: "totp", totp: totpAt(Date.now()), code: attempt } });
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ user_id: user.userId, is_new_user: false });
    expect((await call("/users/me", { ...p.client, accessToken: right.body.access_token })).body.id).toBe(user.userId);
    const replay = await call("/auth/mfa/sign-in", { ...p.client, body: { type: "totp", totp: totpAt(Date.now()), code: attempt } });
    expect(replay.body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
  });

  it("the attempt code lasts 5 minutes; a TOTP from the previous step still counts", async () => {
    const p = await createProjectWithKeys();
    const user = await mfaUser(p);
    const first = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    const attempt = first.body.details.attempt_code;
    const later = Date.now() + 6 * 60_000;
    const expired = await call("/auth/mfa/sign-in", {
      ...p.client,
      body: { type: "totp", totp: totpAt(later), code: attempt },
      nowMs: later,
    });
    expect(expired.body.code).toBe("VERIFICATION_CODE_EXPIRED");
    const again = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    const drift = await call("/auth/mfa/sign-in", {
      ...p.client,
      body: { type: "totp", totp: totpAt(Date.now() - 30_000), code: again.body.details.attempt_code },
    });
    expect(drift.status).toBe(200);
  });

  it("a TOTP works once: the same code or an earlier step is refused like a wrong one, also when requests race", async () => {
    const p = await createProjectWithKeys();
    const user = await mfaUser(p);
    const attempt = async () =>
      (await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } })).body.details
        .attempt_code as string;
    // The clock is set to the middle of a step, so no step boundary passes between the codes and the requests.
    const t = Math.floor(Date.now() / 30_000) * 30_000 + 15_000;
    const mfa = (code: string, totp: string, nowMs: number) =>
      call("/auth/mfa/sign-in", { ...p.client, body: { type: "totp", totp, code }, nowMs });

    expect((await mfa(await attempt(), totpAt(t), t)).status).toBe(200);
    const second = await attempt();
    const reused = await mfa(second, totpAt(t), t);
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe("INVALID_TOTP_CODE");
    // The previous step is inside the ±1 window but before the used one: refused too.
    expect((await mfa(second, totpAt(t - 30_000), t)).body.code).toBe("INVALID_TOTP_CODE");
    // The refusals did not use the attempt up: the next step's code finishes it.
    expect((await mfa(second, totpAt(t + 30_000), t + 30_000)).status).toBe(200);

    // Five sign-ins race with one fresh code, each with its own attempt code: the step is used up once.
    const attempts = [];
    for (let i = 0; i < 5; i++) attempts.push(await attempt());
    const raced = await Promise.all(attempts.map((a) => mfa(a, totpAt(t + 60_000), t + 60_000)));
    expect(raced.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of raced.filter((x) => x.status !== 200)) expect(r.body.code, r.text).toBe("INVALID_TOTP_CODE");
    const row = await env.DB.prepare("SELECT totp_last_step FROM users WHERE id = ?").bind(user.userId).first<{ totp_last_step: number }>();
    expect(row?.totp_last_step).toBe(Math.floor((t + 60_000) / 30_000));
  });

  it("sign-in by emailed code asks for the second factor too", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true, email_config: sinkEmailConfig() });
    const email = uniqueEmail("otp-mfa");
    await call("/users", {
      ...p.server,
      body: { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, totp_secret_base64: SECRET_B64 },
    });
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: "http://localhost:3000/cb" } });
    const res = await call("/auth/otp/sign-in", { ...p.client, body: { code: codeFrom((await waitForMail(email))[0]!) } });
    expect(res.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    const done = await call("/auth/mfa/sign-in", {
      ...p.client,
      body: { type: "totp", totp: totpAt(Date.now()), code: res.body.details.attempt_code },
    });
    expect(done.status).toBe(200);
  });

  it("turning TOTP off (null) restores one-step sign-in; bad secrets are refused", async () => {
    const p = await createProjectWithKeys();
    const user = await mfaUser(p);
    const off = await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { totp_secret_base64: null } });
    expect(off.body.requires_totp_mfa).toBe(false);
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } })).status).toBe(200);
    for (const bad of ["not base64!", btoa("short")]) {
      const res = await call("/users/me", {
        ...p.client,
        accessToken: user.accessToken,
        method: "PATCH",
        body: { totp_secret_base64: bad },
      });
      expect(res.body.code).toBe("SCHEMA_ERROR");
    }
  });

  it("/auth/mfa/sign-in validates its body", async () => {
    const p = await createProjectWithKeys();
    expect((await call("/auth/mfa/sign-in", { ...p.client, body: { type: "sms", totp: "123456", code: "x".repeat(45) } })).body.code).toBe(
      "SCHEMA_ERROR",
    );
    expect((await call("/auth/mfa/sign-in", { ...p.client, body: { type: "totp", totp: "123456", code: "x".repeat(45) } })).body.code).toBe(
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });
});
