/** Issue 25: TOTP recovery codes, a required second factor, and the account lockout that leaves other ways in. */
import { env } from "cloudflare:test";
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";

const SECRET = new Uint8Array(Array.from({ length: 20 }, (_, i) => i * 11 + 5));
const SECRET_B64 = btoa(String.fromCharCode(...SECRET));
const totpNow = () => generateHOTP(SECRET, BigInt(Math.floor(Date.now() / 30_000)), 6);
type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

async function totpUserWithCodes(p: Project) {
  const user = await signUp(p.client);
  await call("/users/me", { ...p.client, accessToken: user.accessToken, method: "PATCH", body: { totp_secret_base64: SECRET_B64 } });
  const made = await call("/auth/mfa/recovery-codes", { ...p.client, accessToken: user.accessToken, body: {} });
  expect(made.status).toBe(200);
  return { user, codes: made.body.recovery_codes as string[] };
}

async function attemptFor(p: Project, user: { email: string; password: string }) {
  const first = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
  expect(first.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
  return first.body.details.attempt_code as string;
}

const withRecovery = (p: Project, code: string, recovery: string) =>
  call("/auth/mfa/sign-in", { ...p.client, body: { type: "recovery_code", recovery_code: recovery, code } });

describe("recovery codes", () => {
  it("ten codes, hashed at rest, each signs in past MFA once, and its use is an event", async () => {
    const p = await createProjectWithKeys();
    const { user, codes } = await totpUserWithCodes(p);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const rows = await env.DB.prepare("SELECT code_hash FROM mfa_recovery_codes WHERE user_id = ?")
      .bind(user.userId)
      .all<{ code_hash: string }>();
    expect(rows.results).toHaveLength(10);
    for (const row of rows.results) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      for (const code of codes) expect(row.code_hash).not.toContain(code.replace(/-/g, ""));
    }

    const ok = await withRecovery(p, await attemptFor(p, user), codes[0]!.toUpperCase());
    expect(ok.status).toBe(200);
    expect(ok.body.user_id).toBe(user.userId);
    const again = await withRecovery(p, await attemptFor(p, user), codes[0]!);
    expect(again.body.code).toBe("INVALID_TOTP_CODE");

    const activity = await call(`/users/${user.userId}/activity`, { ...p.server });
    const used = (activity.body.items ?? activity.body).filter((e: { type: string }) => e.type === "mfa.recovery_code_used");
    expect(used).toHaveLength(1);
    expect(used[0].data).toMatchObject({ remaining: 9 });
    const left = await call("/auth/mfa/recovery-codes", { ...p.client, method: "GET", accessToken: ok.body.access_token });
    expect(left.body).toEqual({ remaining: 9 });
  });

  it("codes carry 120 bits (24 characters, 4 groups of 6), are read in any case with or without dashes, and 60-bit codes made before still work", async () => {
    const p = await createProjectWithKeys();
    const { user, codes } = await totpUserWithCodes(p);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{6}(-[0-9a-hjkmnp-tv-z]{6}){3}$/);
    // Upper case with spaces for dashes, and without any separator.
    expect((await withRecovery(p, await attemptFor(p, user), codes[0]!.toUpperCase().replace(/-/g, " "))).status).toBe(200);
    expect((await withRecovery(p, await attemptFor(p, user), codes[1]!.replace(/-/g, ""))).status).toBe(200);
    // A shorter or longer code is refused without a lookup.
    expect((await withRecovery(p, await attemptFor(p, user), codes[2]!.slice(0, 20))).body.code).toBe("INVALID_TOTP_CODE");
    // A code of the earlier format (12 characters, xxxx-xxxx-xxxx): its stored hash is of the same normalised form.
    const legacy = "7k2m-9qrt-x4ab";
    const hash = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`doorman-recovery:${user.userId}:7k2m9qrtx4ab`))),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    await env.DB.prepare("INSERT INTO mfa_recovery_codes (id, project_id, user_id, code_hash, created_at) VALUES (?, ?, ?, ?, ?)")
      .bind(crypto.randomUUID(), p.projectId, user.userId, hash, Date.now())
      .run();
    expect((await withRecovery(p, await attemptFor(p, user), legacy.toUpperCase())).status).toBe(200);
    expect((await withRecovery(p, await attemptFor(p, user), legacy)).body.code).toBe("INVALID_TOTP_CODE");
  });

  it("regenerating invalidates the old set; turning TOTP off deletes them", async () => {
    const p = await createProjectWithKeys();
    const { user, codes } = await totpUserWithCodes(p);
    const fresh = await call("/auth/mfa/recovery-codes", { ...p.client, accessToken: user.accessToken, body: {} });
    expect(fresh.body.recovery_codes).toHaveLength(10);
    expect((await withRecovery(p, await attemptFor(p, user), codes[1]!)).body.code).toBe("INVALID_TOTP_CODE");
    expect((await withRecovery(p, await attemptFor(p, user), fresh.body.recovery_codes[1])).status).toBe(200);

    await call("/users/me", { ...p.client, accessToken: user.accessToken, method: "PATCH", body: { totp_secret_base64: null } });
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM mfa_recovery_codes WHERE user_id = ?")
      .bind(user.userId)
      .first<{ n: number }>();
    expect(count?.n).toBe(0);
    const none = await call("/auth/mfa/recovery-codes", { ...p.client, accessToken: user.accessToken, body: {} });
    expect(none.status).toBe(400);
  });
});

describe("required second factor", () => {
  it("off by default; on, a user without TOTP gets no session until they enrol, then TOTP works", async () => {
    const off = await createProjectWithKeys();
    const plain = await signUp(off.client);
    const fine = await call("/auth/password/sign-in", { ...off.client, body: { email: plain.email, password: plain.password } });
    expect(fine.status).toBe(200);

    const p = await createProjectWithKeys({ require_mfa: true });
    const email = uniqueEmail("req");
    const up = await call("/auth/password/sign-up", { ...p.client, body: { email, password: "correct horse battery" } });
    expect(up.status).toBe(400);
    expect(up.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect(up.body.details.enrollment_required).toBe(true);
    expect(up.body.access_token).toBeUndefined();
    const attempt = up.body.details.attempt_code as string;

    // A TOTP cannot finish an enrolment attempt; a wrong first code does not enrol.
    expect((await call("/auth/mfa/sign-in", { ...p.client, body: { type: "totp", totp: totpNow(), code: attempt } })).body.code).toBe(
      "INVALID_TOTP_CODE",
    );
    const wrong = totpNow() === "000000" ? "111111" : "000000";
    const bad = await call("/auth/mfa/enroll", { ...p.client, body: { code: attempt, totp_secret_base64: SECRET_B64, totp: wrong } });
    expect(bad.body.code).toBe("INVALID_TOTP_CODE");

    const enrolled = await call("/auth/mfa/enroll", {
      ...p.client,
      body: { code: attempt, totp_secret_base64: SECRET_B64, totp: totpNow() },
    });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.recovery_codes).toHaveLength(10);
    const me = await call("/users/me", { ...p.client, accessToken: enrolled.body.access_token });
    expect(me.body.requires_totp_mfa).toBe(true);
    // The attempt is used up.
    const replay = await call("/auth/mfa/enroll", {
      ...p.client,
      body: { code: attempt, totp_secret_base64: SECRET_B64, totp: totpNow() },
    });
    expect(replay.status).not.toBe(200);

    const next = await call("/auth/password/sign-in", { ...p.client, body: { email, password: "correct horse battery" } });
    expect(next.body.details.enrollment_required).toBe(false);
    // The enrolment used its code's time step up (a TOTP works once): the next sign-in needs the next step's code.
    const later = Date.now() + 30_000;
    const done = await call("/auth/mfa/sign-in", {
      ...p.client,
      body: { type: "totp", totp: generateHOTP(SECRET, BigInt(Math.floor(later / 30_000)), 6), code: next.body.details.attempt_code },
      nowMs: later,
    });
    expect(done.status).toBe(200);
    // An ordinary attempt cannot replace an enrolled secret.
    const again = await attemptFor(p, { email, password: "correct horse battery" });
    const swap = await call("/auth/mfa/enroll", { ...p.client, body: { code: again, totp_secret_base64: SECRET_B64, totp: totpNow() } });
    expect(swap.body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
  });
});

describe("account lockout", () => {
  // The rule is SIGN_IN_PER_EMAIL (default 100/3600); the project sets 5 so the test hashes 5 wrong passwords, not 100.
  it("failures over the account cap lock password sign-in; an emailed code still signs in; the owner is emailed once", async () => {
    const p = await createProjectWithKeys({
      magic_link_enabled: true,
      email_config: sinkEmailConfig(),
      rate_limits: { SIGN_IN_PER_EMAIL: "5/3600" },
    });
    // A verified address: sign-in by code refuses an unverified one (docs/security.md).
    const user = { email: uniqueEmail("locked"), password: "correct horse battery" };
    const created = await call("/users", {
      ...p.server,
      body: { primary_email: user.email, primary_email_verified: true, primary_email_auth_enabled: true, password: user.password },
    });
    expect(created.status).toBe(201);
    const wrong = { ...p.client, body: { email: user.email, password: "not the password" } };
    for (let i = 0; i < 5; i++) expect((await call("/auth/password/sign-in", wrong)).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await call("/auth/password/sign-in", wrong)).status).toBe(429);
    const right = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    expect(right.status).toBe(429);

    await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { email: user.email, callback_url: "http://localhost:3000/handler/magic-link-callback" },
    });
    const mails = await waitForMail(user.email, 2);
    const codeMail = mails.find((m) => /Your code is/.test(m.subject))!;
    const otp = await call("/auth/otp/sign-in", { ...p.client, body: { code: codeFrom(codeMail) } });
    expect(otp.status).toBe(200);

    const notices = await env.DB.prepare("SELECT COUNT(*) AS n FROM email_outbox WHERE project_id = ? AND built_in_kind = 'sign_in_locked'")
      .bind(p.projectId)
      .first<{ n: number }>();
    expect(notices?.n).toBe(1);
    expect(mails.some((m) => /Too many wrong passwords/.test(m.subject))).toBe(true);
  });
});
