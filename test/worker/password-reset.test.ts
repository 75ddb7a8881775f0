/** Password reset by emailed code: the "maybe" answer, the real email, reset, check-code, replay. */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";

const CALLBACK = "http://localhost:3000/handler/password-reset";

describe("password reset", () => {
  it("answers the same for unknown emails and sends nothing", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const res = await call("/auth/password/send-reset-code", {
      ...p.client,
      body: { email: uniqueEmail("ghost"), callback_url: CALLBACK },
    });
    expect(res.body).toEqual({ success: "maybe, only if user with e-mail exists" });
  });

  it("emails a link; the code checks without being used, resets once, ends every session", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    const res = await call("/auth/password/send-reset-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    expect(res.body).toEqual({ success: "maybe, only if user with e-mail exists" });
    const [mail] = await waitForMail(user.email);
    expect(mail!.subject).toBe("Reset your password at Test project");
    const code = codeFrom(mail!);
    expect((await call("/auth/password/reset/check-code", { ...p.client, body: { code } })).body).toEqual({ is_code_valid: true });
    expect((await call("/auth/password/reset", { ...p.client, body: { code, password: "short" } })).body.code).toBe("PASSWORD_TOO_SHORT");
    expect((await call("/auth/password/reset", { ...p.client, body: { code, password: "a brand new password" } })).body).toEqual({
      success: true,
    });
    expect((await call("/auth/password/reset", { ...p.client, body: { code, password: "another new password" } })).body.code).toBe(
      "VERIFICATION_CODE_ALREADY_USED",
    );
    expect((await call("/auth/sessions/current/refresh", { ...p.client, method: "POST", refreshToken: user.refreshToken })).status).toBe(
      401,
    );
    expect(
      (await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: "a brand new password" } })).status,
    ).toBe(200);
  });

  it("a newer reset link retires the older one", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    await call("/auth/password/send-reset-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    await waitForMail(user.email, 1);
    await call("/auth/password/send-reset-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    const mails = await waitForMail(user.email, 2);
    expect((await call("/auth/password/reset/check-code", { ...p.client, body: { code: codeFrom(mails[0]!) } })).body.code).toBe(
      "VERIFICATION_CODE_ALREADY_USED",
    );
    expect((await call("/auth/password/reset/check-code", { ...p.client, body: { code: codeFrom(mails[1]!) } })).status).toBe(200);
  });

  it("racing resets with one code: exactly one wins", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    await call("/auth/password/send-reset-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(user.email))[0]!);
    const results = await Promise.all(
      [1, 2, 3].map((i) => call("/auth/password/reset", { ...p.client, body: { code, password: `racing password ${i}` } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });

  it("expired codes and untrusted callback URLs are refused", async () => {
    const p = await createProjectWithKeys({
      email_config: sinkEmailConfig(),
      allow_localhost: false,
      domains: [{ domain: "https://app.example.com", handler_path: "/h" }],
    });
    expect(
      (await call("/auth/password/send-reset-code", { ...p.client, body: { email: uniqueEmail(), callback_url: CALLBACK } })).body.code,
    ).toBe("REDIRECT_URL_NOT_WHITELISTED");
    const q = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(q.client);
    await call("/auth/password/send-reset-code", { ...q.client, body: { email: user.email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(user.email))[0]!);
    const expired = await call("/auth/password/reset", {
      ...q.client,
      body: { code, password: "too late password" },
      nowMs: Date.now() + 8 * 24 * 3600_000,
    });
    expect(expired.body.code).toBe("VERIFICATION_CODE_EXPIRED");
  });
});
