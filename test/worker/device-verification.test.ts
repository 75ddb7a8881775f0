/**
 * New-device verification and risk signals (issue 29), through the front door: the emailed code step of
 * a password sign-in from an unknown device, the device token, each risk signal, sign-up risk scores,
 * the events, and the attempt limit under a burst of wrong codes.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { sinkEmailConfig, waitForMail } from "../helpers/mail";

const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const PASSWORD = "correct horse battery staple";
const BERLIN = { "x-doorman-dev-latitude": "52.52", "x-doorman-dev-longitude": "13.40", "cf-ipcountry": "DE" };
const SYDNEY = { "x-doorman-dev-latitude": "-33.87", "x-doorman-dev-longitude": "151.21", "cf-ipcountry": "AU" };

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

async function project(deviceVerification = true, config: Record<string, unknown> = {}): Promise<Project> {
  return createProjectWithKeys({ email_config: sinkEmailConfig(), ...config }, { deviceVerification });
}

function headers(device: string | null, extra: Record<string, string> = {}, userAgent = CHROME_MAC): Record<string, string> {
  return { "user-agent": userAgent, ...(device ? { "x-doorman-device-token": device } : {}), ...extra };
}

async function signUpUser(p: Project, email = uniqueEmail("device"), extra: Record<string, string> = {}) {
  const res = await call("/auth/password/sign-up", { ...p.client, headers: headers(null, extra), body: { email, password: PASSWORD } });
  expect(res.status, res.text).toBe(200);
  return { email, userId: res.body.user_id as string, deviceToken: res.body.device_token as string };
}

function signIn(p: Project, email: string, device: string | null, extra: Record<string, string> = {}, userAgent = CHROME_MAC) {
  return call("/auth/password/sign-in", { ...p.client, headers: headers(device, extra, userAgent), body: { email, password: PASSWORD } });
}

/** The 6 characters of the n-th device code mailed to `email`. */
async function mailedCode(email: string, n = 1): Promise<string> {
  const mails = await waitForMail(email, n);
  const mail = mails[n - 1]!;
  const code = /: ([0-9A-Z]{6})$/.exec(mail.subject)?.[1];
  if (!code) throw new Error(`no code in ${mail.subject}`);
  return code;
}

async function eventsOf(projectId: string, type: string): Promise<{ userId: string | null; data: any }[]> {
  const rows = await env.DB.prepare("SELECT user_id, data FROM events WHERE project_id = ? AND type = ? ORDER BY created_at")
    .bind(projectId, type)
    .all<{ user_id: string | null; data: string | null }>();
  return rows.results.map((r) => ({ userId: r.user_id, data: r.data ? JSON.parse(r.data) : null }));
}

describe("new-device verification", () => {
  it("asks an unknown device for the emailed code; the code makes the session and the device known", async () => {
    const p = await project();
    const user = await signUpUser(p);
    expect(user.deviceToken).toMatch(/^[0-9a-z]{43}$/);

    const first = await signIn(p, user.email, null);
    expect(first.status, first.text).toBe(400);
    expect(first.body.code).toBe("DEVICE_VERIFICATION_REQUIRED");
    expect(first.headers.get("x-stack-known-error")).toBe("DEVICE_VERIFICATION_REQUIRED");
    expect(first.body.details.attempt_code).toHaveLength(39);
    expect(first.body.details.sent_to).toMatch(/^d•••@/);
    const code = await mailedCode(user.email);

    const wrong = await call("/auth/device-verification/verify", {
      ...p.client,
      headers: headers(null),
      body: { attempt_code: first.body.details.attempt_code, code: code === "AAAAAA" ? "BBBBBB" : "AAAAAA" },
    });
    expect(wrong.body.code).toBe("DEVICE_VERIFICATION_CODE_INVALID");

    const verified = await call("/auth/device-verification/verify", {
      ...p.client,
      headers: headers(null),
      body: { attempt_code: first.body.details.attempt_code, code: code.toLowerCase() },
    });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.user_id).toBe(user.userId);
    expect(verified.body.access_token).toBeTruthy();
    const device = verified.body.device_token as string;
    expect(device).toMatch(/^[0-9a-z]{43}$/);

    // Used up: the same code again is refused.
    const again = await call("/auth/device-verification/verify", {
      ...p.client,
      headers: headers(null),
      body: { attempt_code: first.body.details.attempt_code, code },
    });
    expect(again.body.code).toBe("VERIFICATION_CODE_ALREADY_USED");

    // The device is known now: no code.
    const second = await signIn(p, user.email, device);
    expect(second.status, second.text).toBe(200);
    expect(second.body.device_token).toBe(device);

    // Same token, another browser family: asked again.
    const otherBrowser = await signIn(p, user.email, device, {}, FIREFOX_LINUX);
    expect(otherBrowser.body.code).toBe("DEVICE_VERIFICATION_REQUIRED");

    // The stored device is a hash, never the token.
    const stored = await env.DB.prepare("SELECT device_hash, ua_family FROM known_devices WHERE user_id = ?").bind(user.userId).all();
    expect(stored.results.length).toBe(2);
    expect(JSON.stringify(stored.results)).not.toContain(device);
    expect(stored.results.map((r) => r.ua_family).sort()).toEqual(["Chrome/macOS", "Chrome/macOS"]);

    const required = await eventsOf(p.projectId, "device.verification_required");
    expect(required.length).toBe(2);
    expect(required[0]!.userId).toBe(user.userId);
    expect(required[0]!.data.risk.signals).toContain("new_device");
    expect((await eventsOf(p.projectId, "device.verification_failed")).map((e) => e.data.reason)).toEqual([
      "DEVICE_VERIFICATION_CODE_INVALID",
      "VERIFICATION_CODE_ALREADY_USED",
    ]);
    expect((await eventsOf(p.projectId, "device.verification_succeeded")).length).toBe(1);
    // The verified device (a sign-up's own device is the account's first: no "added" event).
    expect((await eventsOf(p.projectId, "device.added")).length).toBe(1);
    const signIns = await eventsOf(p.projectId, "sign_in.succeeded");
    expect(signIns.some((e) => e.data.device_verified === true)).toBe(true);

    // And the user's own activity lists them.
    const activity = await call(`/users/${user.userId}/activity`, { ...p.client, accessToken: second.body.access_token });
    expect(activity.status, activity.text).toBe(200);
    const types = (activity.body.items as { type: string }[]).map((i) => i.type);
    expect(types).toEqual(expect.arrayContaining(["device.verification_required", "device.verification_succeeded", "device.added"]));
  });

  it("a sign-up's device signs in again without a code", async () => {
    const p = await project();
    const user = await signUpUser(p);
    const res = await signIn(p, user.email, user.deviceToken);
    expect(res.status, res.text).toBe(200);
  });

  it("a TOTP user is asked for the second factor, not a device code", async () => {
    const p = await project();
    const user = await signUpUser(p);
    const patched = await call(`/users/${user.userId}`, {
      ...p.server,
      method: "PATCH",
      body: { totp_secret_base64: "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA=" },
    });
    expect(patched.status, patched.text).toBe(200);
    const res = await signIn(p, user.email, null);
    expect(res.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
  });

  it("a project with it off never asks (a low-risk sign-in from an unknown device)", async () => {
    const p = await project(false);
    const user = await signUpUser(p);
    const res = await signIn(p, user.email, null);
    expect(res.status, res.text).toBe(200);
    expect(res.body.device_token).toMatch(/^[0-9a-z]{43}$/);
  });

  it("a high risk score asks even on a known device with the switch off (new country + impossible travel)", async () => {
    const p = await project(false);
    const user = await signUpUser(p, uniqueEmail("travel"), BERLIN);
    const home = await signIn(p, user.email, user.deviceToken, BERLIN);
    expect(home.status, home.text).toBe(200);
    const far = await signIn(p, user.email, user.deviceToken, SYDNEY);
    expect(far.body.code, far.text).toBe("DEVICE_VERIFICATION_REQUIRED");
    const [required] = await eventsOf(p.projectId, "device.verification_required");
    expect(required!.data.risk.signals.sort()).toEqual(["impossible_travel", "new_country"]);
    expect(required!.data.risk.score).toBe(75);
  });

  it("resend mails a new code; the old attempt stops working; at most three resends", async () => {
    const p = await project();
    const user = await signUpUser(p);
    const first = await signIn(p, user.email, null);
    const oldAttempt = first.body.details.attempt_code as string;
    await mailedCode(user.email);
    const resent = await call("/auth/device-verification/resend", { ...p.client, body: { attempt_code: oldAttempt } });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.attempt_code).not.toBe(oldAttempt);
    const code = await mailedCode(user.email, 2);
    const stale = await call("/auth/device-verification/resend", { ...p.client, body: { attempt_code: oldAttempt } });
    expect(stale.body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    let attempt = resent.body.attempt_code as string;
    for (let i = 0; i < 2; i++) {
      const r = await call("/auth/device-verification/resend", { ...p.client, body: { attempt_code: attempt } });
      expect(r.status, r.text).toBe(200);
      attempt = r.body.attempt_code;
    }
    const capped = await call("/auth/device-verification/resend", { ...p.client, body: { attempt_code: attempt } });
    expect(capped.body.code).toBe("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
    // The last code still works with its own attempt code.
    const last = await mailedCode(user.email, 4);
    expect(last).not.toBe(code);
    const ok = await call("/auth/device-verification/verify", { ...p.client, body: { attempt_code: attempt, code: last } });
    expect(ok.status, ok.text).toBe(200);
  });

  it("60 concurrent wrong codes: the attempt limit holds, and the right code is refused afterwards", async () => {
    const p = await project();
    const user = await signUpUser(p);
    const first = await signIn(p, user.email, null);
    const attempt = first.body.details.attempt_code as string;
    const code = await mailedCode(user.email);
    const wrong = Array.from({ length: 60 }, (_, i) => {
      let guess = `ZZZ${String(i).padStart(3, "0")}`;
      if (guess === code) guess = "YYYYYY";
      return call("/auth/device-verification/verify", { ...p.client, body: { attempt_code: attempt, code: guess } });
    });
    const answers = await Promise.all(wrong);
    expect(answers.every((a) => a.status === 400)).toBe(true);
    expect(answers.some((a) => a.status === 200)).toBe(false);
    const right = await call("/auth/device-verification/verify", { ...p.client, body: { attempt_code: attempt, code } });
    expect(right.body.code).toBe("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
  });
});

describe("risk signals", () => {
  async function signalsOfLastSignIn(projectId: string): Promise<string[]> {
    const signIns = await eventsOf(projectId, "sign_in.succeeded");
    return signIns.at(-1)!.data.risk.signals;
  }

  it("new device and new country", async () => {
    const p = await project(false);
    const user = await signUpUser(p, uniqueEmail("country"), BERLIN);
    // Same place, no token: only new_device.
    await signIn(p, user.email, null, { "cf-ipcountry": "DE" });
    expect(await signalsOfLastSignIn(p.projectId)).toEqual(["new_device"]);
    await signIn(p, user.email, user.deviceToken, { "cf-ipcountry": "FR" });
    expect(await signalsOfLastSignIn(p.projectId)).toEqual(["new_country"]);
  });

  it("impossible travel: two sign-ins far apart a minute apart", async () => {
    const p = await project(false);
    const user = await signUpUser(p, uniqueEmail("far"), BERLIN);
    const now = Date.now();
    await call("/auth/password/sign-in", {
      ...p.client,
      nowMs: now,
      headers: headers(user.deviceToken, { ...BERLIN }),
      body: { email: user.email, password: PASSWORD },
    });
    // New York, a minute later, same country code so only the travel fires.
    const res = await call("/auth/password/sign-in", {
      ...p.client,
      nowMs: now + 60_000,
      headers: headers(user.deviceToken, { "x-doorman-dev-latitude": "40.71", "x-doorman-dev-longitude": "-74.00", "cf-ipcountry": "DE" }),
      body: { email: user.email, password: PASSWORD },
    });
    expect(res.status, res.text).toBe(200);
    expect(await signalsOfLastSignIn(p.projectId)).toEqual(["impossible_travel"]);
    // A day later the same trip is possible.
    await call("/auth/password/sign-in", {
      ...p.client,
      nowMs: now + 26 * 3600_000,
      headers: headers(user.deviceToken, { ...BERLIN }),
      body: { email: user.email, password: PASSWORD },
    });
    expect(await signalsOfLastSignIn(p.projectId)).toEqual([]);
  });

  it("many failures for the account from the address", async () => {
    const p = await project(false);
    const user = await signUpUser(p);
    const ip = { "cf-connecting-ip": "203.0.113.7" };
    for (let i = 0; i < 3; i++) {
      const bad = await call("/auth/password/sign-in", {
        ...p.client,
        headers: headers(user.deviceToken, ip),
        body: { email: user.email, password: "wrong password!" },
      });
      expect(bad.body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    }
    // Each failure sees only the ones before it: none of the three is "many" yet.
    const failed = await eventsOf(p.projectId, "sign_in.failed");
    expect(failed.map((e) => e.data.risk.signals)).toEqual([[], [], []]);
    await signIn(p, user.email, user.deviceToken, ip);
    expect(await signalsOfLastSignIn(p.projectId)).toEqual(["many_failures"]);
  });

  it("disposable domain and Tor (Cloudflare's T1 country, by the development header)", async () => {
    const p = await project(false);
    const user = await signUpUser(p, `someone-${crypto.randomUUID().slice(0, 8)}@mailinator.com`);
    await signIn(p, user.email, user.deviceToken, { "cf-ipcountry": "T1" });
    expect((await signalsOfLastSignIn(p.projectId)).sort()).toEqual(["disposable_domain", "tor_exit"]);
  });

  it("sign-up stores risk_scores.sign_up: disposable domain, Tor, address reuse", async () => {
    const p = await project(false);
    const plain = await signUpUser(p);
    expect((await call(`/users/${plain.userId}`, p.server)).body.risk_scores).toEqual({ sign_up: { bot: 0, free_trial_abuse: 0 } });
    const disposable = await signUpUser(p, `x-${crypto.randomUUID().slice(0, 8)}@mailinator.com`, { "cf-ipcountry": "T1" });
    expect((await call(`/users/${disposable.userId}`, p.server)).body.risk_scores).toEqual({ sign_up: { bot: 60, free_trial_abuse: 90 } });
    const ip = { "cf-connecting-ip": "198.51.100.9" };
    const users = [];
    for (let i = 0; i < 4; i++) users.push(await signUpUser(p, uniqueEmail("reuse"), ip));
    const scores = await Promise.all(users.map(async (u) => (await call(`/users/${u.userId}`, p.server)).body.risk_scores.sign_up));
    expect(scores.slice(0, 3)).toEqual([0, 0, 0].map(() => ({ bot: 0, free_trial_abuse: 0 })));
    expect(scores[3]).toEqual({ bot: 30, free_trial_abuse: 40 });
  });

  it("the sign-up rules read the scores", async () => {
    const p = await project(false);
    const rule = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: {
        config_override_string: JSON.stringify({
          "auth.signUpRules.abuse": {
            enabled: true,
            displayName: "Abuse",
            priority: 1,
            condition: "riskScores.free_trial_abuse >= 50",
            action: { type: "reject" },
          },
        }),
      },
    });
    expect(rule.status, rule.text).toBe(200);
    const refused = await call("/auth/password/sign-up", {
      ...p.client,
      body: { email: `y-${crypto.randomUUID().slice(0, 8)}@mailinator.com`, password: PASSWORD },
    });
    expect(refused.body.code).toBe("SIGN_UP_REJECTED");
    await signUpUser(p);
  });
});
