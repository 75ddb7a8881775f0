/**
 * Every single-use code, redeemed by 20 concurrent requests: exactly one succeeds and the other
 * 19 answer the code's known "already used" error (never a 5xx, never a second session).
 * The CLI hand-out and passkey challenges have their own burst tests (cli-auth, passkeys).
 */
import { env } from "cloudflare:test";
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { type CallResult, call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail, waitForOutbox } from "../helpers/mail";
import { exchangeCode, oauthFlow, randomVerifier, s256 } from "../helpers/oauth";
import { asUser, teamProject, teamWithMember } from "../helpers/teams";

const CALLBACK = "http://localhost:3000/handler/callback";
const RACERS = 20;

/** Fires `send` RACERS times at once; returns the answers. */
function burst(send: () => Promise<CallResult>): Promise<CallResult[]> {
  return Promise.all(Array.from({ length: RACERS }, send));
}

function expectOneWinner(results: CallResult[], loserCode: string | string[] = "VERIFICATION_CODE_ALREADY_USED") {
  const statuses = results.map((r) => r.status);
  expect(
    statuses.filter((s) => s >= 500),
    JSON.stringify(statuses),
  ).toEqual([]);
  expect(results.filter((r) => r.status >= 200 && r.status < 300)).toHaveLength(1);
  for (const r of results.filter((x) => x.status >= 300)) expect([loserCode].flat(), r.text).toContain(r.body.code);
}

const sessionCount = async (userId: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").bind(userId).first<{ n: number }>())?.n ?? 0;

describe(`single-use codes under ${RACERS} concurrent redemptions`, () => {
  it("OTP / magic-link sign-in code", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true, email_config: sinkEmailConfig() });
    const email = uniqueEmail("otp-race");
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(email))[0]!);
    const results = await burst(() => call("/auth/otp/sign-in", { ...p.client, body: { code } }));
    expectOneWinner(results);
    const winner = results.find((r) => r.status === 200)!;
    expect(await sessionCount(winner.body.user_id)).toBe(1);
  });

  it("password reset code", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    await call("/auth/password/send-reset-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(user.email))[0]!);
    let n = 0;
    expectOneWinner(await burst(() => call("/auth/password/reset", { ...p.client, body: { code, password: `racing password ${++n}` } })));
  });

  it("email verification code", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const email = uniqueEmail("verify-race");
    await call("/auth/password/sign-up", {
      ...p.client,
      body: { email, password: "verify password", verification_callback_url: CALLBACK },
    });
    const code = codeFrom((await waitForMail(email))[0]!);
    expectOneWinner(await burst(() => call("/contact-channels/verify", { ...p.client, body: { code } })));
  });

  it("team invitation code: one success, one membership", async () => {
    const p = await teamProject();
    const { teamId } = await teamWithMember(p);
    const email = uniqueEmail("invitee-race");
    await call("/team-invitations/send-code", { ...p.server, body: { team_id: teamId, email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForOutbox(email))[0]!);
    const invitee = await signUp(p.client, email);
    expectOneWinner(await burst(() => call("/team-invitations/accept", { ...asUser(p, invitee), body: { code } })));
    const rows = await env.DB.prepare("SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?").bind(teamId, invitee.userId).all();
    expect(rows.results).toHaveLength(1);
  });

  it("MFA attempt code", async () => {
    const p = await createProjectWithKeys();
    const secret = new Uint8Array(Array.from({ length: 20 }, (_, i) => i * 5 + 1));
    const user = await signUp(p.client);
    await call("/users/me", {
      ...p.client,
      accessToken: user.accessToken,
      method: "PATCH",
      body: { totp_secret_base64: btoa(String.fromCharCode(...secret)) },
    });
    const first = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    const attempt = first.body.details.attempt_code as string;
    const totp = generateHOTP(secret, BigInt(Math.floor(Date.now() / 30_000)), 6);
    const before = await sessionCount(user.userId);
    const mfaResults = await burst(() => call("/auth/mfa/sign-in", { ...p.client, body: { type: "totp", totp, code: attempt } }));
    // A loser finds the attempt used, or (having read it before the winner used it) the TOTP's step used: a reused TOTP answers as a wrong one.
    expectOneWinner(mfaResults, ["VERIFICATION_CODE_ALREADY_USED", "INVALID_TOTP_CODE"]);
    expect(await sessionCount(user.userId)).toBe(before + 1);
  });

  it("OAuth authorization code (code grant with PKCE)", async () => {
    const p = await createProjectWithKeys({ oauth_providers: [{ id: "github", type: "shared" }] });
    const client = { projectId: p.projectId, publishableClientKey: p.client.publishableClientKey };
    const verifier = randomVerifier();
    const flow = await oauthFlow(client, uniqueEmail("oauth-race"), { method: "S256", challenge: await s256(verifier) });
    expect(flow.callback.status).toBe(303);
    const results = await burst(() => exchangeCode(client, flow.code, verifier));
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    // At most one exchange is answered; the other 19 are replays of a used code. A replay means
    // the code was intercepted, so what it bought is revoked too (ASVS 10.4.2, RFC 6749 §4.1.2).
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code).toBe("INVALID_AUTHORIZATION_CODE");
    const userId = (
      await env.DB.prepare("SELECT user_id FROM oauth_accounts WHERE project_id = ?").bind(p.projectId).first<{ user_id: string }>()
    )?.user_id;
    expect(userId).toBeTruthy();
    expect(await sessionCount(userId!)).toBe(0);
  });
});
