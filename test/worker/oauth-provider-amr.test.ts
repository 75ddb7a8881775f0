/**
 * sessions.amr, written at sign-in (RFC 8176 values; worker/services/auth/session-amr.ts), and how it
 * reaches the OpenID provider's tokens: a password is pwd, an emailed code otp, a TOTP second factor
 * adds otp and mfa (and the tokens then carry acr multi-factor); sessions no sign-in made have none.
 */
import { env } from "cloudflare:test";
import { generateHOTP } from "@oslojs/otp";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";
import { ACR_MFA, codeFlow, insertClient, providerProject } from "../helpers/oauth-provider";

const SECRET = new Uint8Array(Array.from({ length: 20 }, (_, i) => i * 5 + 1));
const totpNow = () => generateHOTP(SECRET, BigInt(Math.floor(Date.now() / 30_000)), 6);

const sessionOf = (accessToken: string) => decodeJwt(accessToken).refresh_token_id as string;
async function amrOf(sessionId: string): Promise<string[] | null> {
  const row = await env.DB.prepare("SELECT amr FROM sessions WHERE id = ?").bind(sessionId).first<{ amr: string | null }>();
  return row?.amr ? (JSON.parse(row.amr) as string[]) : null;
}

describe("sessions.amr (RFC 8176) and the provider's tokens", () => {
  it("a password, then a TOTP: pwd, otp, mfa; the ID token says so, with acr multi-factor", async () => {
    const p = await providerProject();
    const user = await signUp(p.client);
    expect(await amrOf(sessionOf(user.accessToken))).toEqual(["pwd"]);
    await call("/users/me", {
      ...p.client,
      accessToken: user.accessToken,
      method: "PATCH",
      body: { totp_secret_base64: btoa(String.fromCharCode(...SECRET)) },
    });
    const first = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    expect(first.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    const second = await call("/auth/mfa/sign-in", {
      ...p.client,
      body: { type: "totp", totp: totpNow(), code: first.body.details.attempt_code },
    });
    expect(second.status, second.text).toBe(200);
    const sessionId = sessionOf(second.body.access_token);
    expect(await amrOf(sessionId)).toEqual(["pwd", "otp", "mfa"]);

    const client = await insertClient(p.projectId);
    const { res } = await codeFlow(p, client, { userId: user.userId, sessionId });
    expect(res.status, res.text).toBe(200);
    const id = decodeJwt((res.body as { id_token: string }).id_token);
    expect(id).toMatchObject({ amr: ["pwd", "otp", "mfa"], acr: ACR_MFA });
  });

  it("an emailed code is otp; a guest has no factor; a session the back end made has no amr", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true, email_config: sinkEmailConfig() });
    const email = uniqueEmail("amr-otp");
    const sent = await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { email, callback_url: "http://localhost:3000/handler/magic-link-callback" },
    });
    expect(sent.status, sent.text).toBe(200);
    const code = codeFrom((await waitForMail(email))[0]!);
    const signedIn = await call("/auth/otp/sign-in", { ...p.client, body: { code } });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(await amrOf(sessionOf(signedIn.body.access_token))).toEqual(["otp"]);

    const guest = await call("/auth/anonymous/sign-up", { ...p.client, body: {} });
    expect(guest.status, guest.text).toBe(200);
    expect(await amrOf(sessionOf(guest.body.access_token))).toEqual([]);

    const user = await signUp(p.client);
    const made = await call("/auth/sessions", { ...p.server, body: { user_id: user.userId } });
    expect(made.status, made.text).toBe(200);
    expect(await amrOf(sessionOf(made.body.access_token))).toBeNull();
  });
});
