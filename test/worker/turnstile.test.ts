/**
 * Bot protection with Turnstile, wire as the reference, against the local siteverify
 * (test/turnstile-fake.mjs): a required flow refuses a missing, invalid, expired and reused token
 * with the reference's errors; the phases (invisible → BOT_CHALLENGE_REQUIRED, visible →
 * BOT_CHALLENGE_FAILED, unavailable); flows that do not require a token; a siteverify outage
 * (HTTP 500, and hanging past the time limit); a token from another hostname or for another
 * action; the four flows; the client view of the keys; 60 concurrent sign-ups with one token.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { withHealthPolls } from "../helpers/health";
import { authorizeUrl, fetchWorker } from "../helpers/oauth";
import { DUMMY_TOKEN, TEST_SECRETS } from "../turnstile-fake.mjs";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
const SITE_KEY = "0x4AAAAAAAfakeSiteKey";
const fake = () => inject("turnstileUrl");

async function token(o: { action: string; hostname?: string; ageSeconds?: number; sitekey?: string }): Promise<string> {
  const res = await fetch(`${fake()}/control/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      sitekey: o.sitekey ?? SITE_KEY,
      action: o.action,
      hostname: o.hostname ?? "localhost",
      age_seconds: o.ageSeconds,
    }),
  });
  return ((await res.json()) as { token: string }).token;
}

async function turnstileProject(o: { secret?: string; require?: Record<string, boolean>; extra?: Record<string, unknown> } = {}) {
  const p = await createProjectWithKeys({
    allow_localhost: true,
    magic_link_enabled: true,
    oauth_providers: [{ id: "github", type: "shared" }],
  });
  const res = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: {
      config_override_string: JSON.stringify({
        "doorman.protection.turnstile.siteKey": SITE_KEY,
        "doorman.protection.turnstile.secretKey": o.secret ?? "real-looking-secret",
        ...Object.fromEntries(Object.entries(o.require ?? {}).map(([flow, on]) => [`doorman.protection.turnstile.require.${flow}`, on])),
        ...o.extra,
      }),
    },
  });
  expect(res.status, res.text).toBe(200);
  return p;
}

const signUpWith = (p: Project, fields: Record<string, unknown> = {}, email = uniqueEmail()) =>
  call("/auth/password/sign-up", { ...p.client, body: { email, password: "correct horse battery", ...fields } });
const signUpToken = () => token({ action: "sign_up_with_credential" });

describe("a flow that requires a token (sign-up)", () => {
  it("passes with a fresh token for its action and host, and records the assessment", async () => {
    const p = await turnstileProject({ require: { signUp: true } });
    const res = await signUpWith(p, { bot_challenge_token: await signUpToken(), bot_challenge_phase: "invisible" });
    expect(res.status, res.text).toBe(200);
    const events = await call(`/internal/events?type=user.created&user_id=${res.body.user_id}`, p.admin);
    expect(events.text).toContain('"turnstile_result":"ok"');
  });

  it("refuses a missing token with BOT_CHALLENGE_REQUIRED (409, the reference's message)", async () => {
    const p = await turnstileProject({ require: { signUp: true } });
    const res = await signUpWith(p);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: "BOT_CHALLENGE_REQUIRED",
      error: "An additional bot challenge is required before sign-up can continue.",
    });
    expect(res.headers.get("x-stack-known-error")).toBe("BOT_CHALLENGE_REQUIRED");
  });

  it.each([
    ["an invalid token", async () => "not-a-token-the-fake-issued"],
    ["an expired token (older than 300 s)", () => token({ action: "sign_up_with_credential", ageSeconds: 301 })],
    ["a token for another action", () => token({ action: "oauth_authenticate" })],
    ["a token solved on an untrusted hostname", () => token({ action: "sign_up_with_credential", hostname: "evil.example" })],
  ])("refuses %s: invisible phase → BOT_CHALLENGE_REQUIRED, visible → BOT_CHALLENGE_FAILED, none → FAILED", async (_name, make) => {
    const p = await turnstileProject({ require: { signUp: true } });
    const invisible = await signUpWith(p, { bot_challenge_token: await make(), bot_challenge_phase: "invisible" });
    expect(invisible.status, invisible.text).toBe(409);
    expect(invisible.body.code).toBe("BOT_CHALLENGE_REQUIRED");
    const visible = await signUpWith(p, { bot_challenge_token: await make(), bot_challenge_phase: "visible" });
    expect(visible.status, visible.text).toBe(400);
    expect(visible.body).toMatchObject({ code: "BOT_CHALLENGE_FAILED", details: { message: "Visible bot challenge verification failed" } });
    const legacy = await signUpWith(p, { bot_challenge_token: await make() });
    expect(legacy.status).toBe(400);
    expect(legacy.body.code).toBe("BOT_CHALLENGE_FAILED");
  });

  it("refuses a reused token (siteverify: timeout-or-duplicate)", async () => {
    const p = await turnstileProject({ require: { signUp: true } });
    const t = await signUpToken();
    expect((await signUpWith(p, { bot_challenge_token: t, bot_challenge_phase: "invisible" })).status).toBe(200);
    const again = await signUpWith(p, { bot_challenge_token: t, bot_challenge_phase: "invisible" });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("BOT_CHALLENGE_REQUIRED");
  });

  it("passes a visible retry after a failed invisible token", async () => {
    const p = await turnstileProject({ require: { signUp: true } });
    const email = uniqueEmail();
    expect((await signUpWith(p, { bot_challenge_token: "bad", bot_challenge_phase: "invisible" }, email)).status).toBe(409);
    const retry = await signUpWith(p, { bot_challenge_token: await signUpToken(), bot_challenge_phase: "visible" }, email);
    expect(retry.status, retry.text).toBe(200);
  });

  it("refuses bot_challenge_unavailable where a token is required, and its contradictions everywhere", async () => {
    const p = await turnstileProject({ require: { signUp: true } });
    const res = await signUpWith(p, { bot_challenge_unavailable: "true" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("BOT_CHALLENGE_FAILED");
    const both = await signUpWith(p, { bot_challenge_unavailable: "true", bot_challenge_token: "x" });
    expect(both.status).toBe(400);
    expect(both.body.details.message).toMatch(/cannot be combined/);
    expect((await signUpWith(p, { bot_challenge_phase: "sideways" })).body.code).toBe("SCHEMA_ERROR");
  });

  it("with Cloudflare's test secrets: 1x passes, 2x fails, 3x is a spent token", async () => {
    const pass = await turnstileProject({ secret: TEST_SECRETS.pass, require: { signUp: true } });
    expect((await signUpWith(pass, { bot_challenge_token: DUMMY_TOKEN, bot_challenge_phase: "visible" })).status).toBe(200);
    const fail = await turnstileProject({ secret: TEST_SECRETS.fail, require: { signUp: true } });
    expect((await signUpWith(fail, { bot_challenge_token: DUMMY_TOKEN, bot_challenge_phase: "visible" })).body.code).toBe(
      "BOT_CHALLENGE_FAILED",
    );
    const spent = await turnstileProject({ secret: TEST_SECRETS.spent, require: { signUp: true } });
    expect((await signUpWith(spent, { bot_challenge_token: DUMMY_TOKEN, bot_challenge_phase: "invisible" })).body.code).toBe(
      "BOT_CHALLENGE_REQUIRED",
    );
  });
});

describe("a flow that does not require a token", () => {
  it("passes without one, and with a bad one (verified and recorded, not refused)", async () => {
    const p = await turnstileProject({ require: { signIn: true } });
    expect((await signUpWith(p)).status).toBe(200);
    const bad = await signUpWith(p, { bot_challenge_token: "bad", bot_challenge_phase: "invisible" });
    expect(bad.status).toBe(200);
    const events = await call(`/internal/events?type=user.created&user_id=${bad.body.user_id}`, p.admin);
    expect(events.text).toContain('"turnstile_result":"invalid"');
  });

  it("a project without keys ignores the fields", async () => {
    const p = await createProjectWithKeys();
    const res = await signUpWith(p, { bot_challenge_token: "whatever", bot_challenge_phase: "visible" });
    expect(res.status).toBe(200);
  });
});

describe("siteverify down (fail closed where required, open elsewhere)", () => {
  it("HTTP 500: invisible → BOT_CHALLENGE_REQUIRED, visible → BOT_CHALLENGE_FAILED (try again); not required → passes", async () => {
    const p = await turnstileProject({ secret: "fake-http500-secret", require: { signUp: true } });
    const invisible = await signUpWith(p, { bot_challenge_token: "t", bot_challenge_phase: "invisible" });
    expect(invisible.body.code).toBe("BOT_CHALLENGE_REQUIRED");
    const visible = await signUpWith(p, { bot_challenge_token: "t", bot_challenge_phase: "visible" });
    expect(visible.status).toBe(400);
    expect(visible.body.details.message).toMatch(/could not be verified right now/);
    const open = await turnstileProject({ secret: "fake-http500-secret" });
    expect((await signUpWith(open, { bot_challenge_token: "t", bot_challenge_phase: "invisible" })).status).toBe(200);
  });

  it("hanging past TURNSTILE_TIMEOUT_MS (2 s in tests): answered within the bound, not a 500", async () => {
    const p = await turnstileProject({ secret: "fake-hang-secret", require: { signUp: true } });
    const started = Date.now();
    // The isolate other projects share keeps answering while siteverify hangs.
    const {
      result: res,
      failures,
      polls,
    } = await withHealthPolls(() => signUpWith(p, { bot_challenge_token: "t", bot_challenge_phase: "visible" }));
    expect(polls).toBeGreaterThan(0);
    expect(failures).toBe(0);
    const took = Date.now() - started;
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("BOT_CHALLENGE_FAILED");
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(took).toBeLessThan(6000);
  });
});

describe("the other flows", () => {
  it("password sign-in (Doorman's action sign_in_with_credential)", async () => {
    const p = await turnstileProject({ require: { signIn: true } });
    const email = uniqueEmail();
    expect((await signUpWith(p, {}, email)).status).toBe(200);
    const body = { email, password: "correct horse battery" };
    expect((await call("/auth/password/sign-in", { ...p.client, body })).body.code).toBe("BOT_CHALLENGE_REQUIRED");
    const wrongAction = await call("/auth/password/sign-in", {
      ...p.client,
      body: { ...body, bot_challenge_token: await signUpToken(), bot_challenge_phase: "visible" },
    });
    expect(wrongAction.body.code).toBe("BOT_CHALLENGE_FAILED");
    const ok = await call("/auth/password/sign-in", {
      ...p.client,
      body: { ...body, bot_challenge_token: await token({ action: "sign_in_with_credential" }), bot_challenge_phase: "invisible" },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it("OTP send-sign-in-code (send_magic_link_email)", async () => {
    const p = await turnstileProject({ require: { otp: true } });
    const body = { email: uniqueEmail(), callback_url: "http://localhost:3000/handler/magic-link-callback" };
    expect((await call("/auth/otp/send-sign-in-code", { ...p.client, body })).body.code).toBe("BOT_CHALLENGE_REQUIRED");
    const ok = await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { ...body, bot_challenge_token: await token({ action: "send_magic_link_email" }), bot_challenge_phase: "invisible" },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it("OAuth authorize takes the fields as query params (oauth_authenticate)", async () => {
    const p = await turnstileProject({ require: { oauth: true } });
    const client = { projectId: p.projectId, publishableClientKey: p.client.publishableClientKey };
    const missing = await fetchWorker(authorizeUrl(client, { responseMode: "json" }));
    expect(missing.status).toBe(409);
    expect(((await missing.json()) as { code: string }).code).toBe("BOT_CHALLENGE_REQUIRED");
    const extra = { bot_challenge_token: await token({ action: "oauth_authenticate" }), bot_challenge_phase: "invisible" };
    const ok = await fetchWorker(authorizeUrl(client, { responseMode: "json", extra }));
    expect(ok.status, await ok.clone().text()).toBe(200);
  });
});

describe("what the client sees", () => {
  it("GET /projects/current names the public keys, the mode, the script and the required flows; never the secret", async () => {
    const p = await turnstileProject({ require: { signUp: true, oauth: true }, extra: { "doorman.protection.turnstile.mode": "managed" } });
    const res = await call("/projects/current", p.client);
    expect(res.body.config.bot_challenge).toEqual({
      site_key: SITE_KEY,
      invisible_site_key: SITE_KEY,
      mode: "managed",
      script_url: `${fake()}/turnstile/v0/api.js?render=explicit`,
      required_flows: ["sign_up", "oauth"],
    });
    expect(res.text).not.toContain("real-looking-secret");
    const none = await createProjectWithKeys();
    expect((await call("/projects/current", none.client)).body.config.bot_challenge).toBeNull();
  });

  it("a new site key drops the stored secret (it belongs to the old widget)", async () => {
    const p = await turnstileProject({ require: { signUp: true } });
    const res = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "doorman.protection.turnstile.siteKey": "0x4AAAAAAAnewWidget" }) },
    });
    expect(res.status, res.text).toBe(200);
    expect((await call("/projects/current", p.client)).body.config.bot_challenge).toBeNull();
    // Without a secret nothing can be verified, so nothing is demanded.
    expect((await signUpWith(p)).status).toBe(200);
  });
});

describe("the risk score's seam (riskDemands)", () => {
  it("demands a token on a flow that does not require one, only when the project has keys", async () => {
    const { makeDeps } = await import("../../worker/services/deps");
    const { findProjectById } = await import("../../worker/db/queries/projects");
    const { checkBotChallenge } = await import("../../worker/services/protection/bot-challenge");
    const deps = makeDeps(env as never, { origin: "http://localhost" });
    const keyed = await findProjectById(deps.db, (await turnstileProject()).projectId);
    const bare = await findProjectById(deps.db, (await createProjectWithKeys()).projectId);
    if (!keyed || !bare) throw new Error("projects not found");
    expect(await checkBotChallenge(deps, keyed, "signUp", {})).toEqual({ ok: true, assessment: { status: "invalid" } });
    expect(await checkBotChallenge(deps, keyed, "signUp", {}, { riskDemands: true })).toMatchObject({
      ok: false,
      reason: "bot_challenge_required",
    });
    const fields = { bot_challenge_token: await signUpToken(), bot_challenge_phase: "invisible" as const };
    expect(await checkBotChallenge(deps, keyed, "signUp", fields, { riskDemands: true })).toEqual({
      ok: true,
      assessment: { status: "ok" },
    });
    expect(await checkBotChallenge(deps, bare, "signUp", {}, { riskDemands: true })).toEqual({ ok: true, assessment: null });
  });
});

describe("the risk score decides where the flow does not (risk.challengeAt)", () => {
  it("a disposable address on a project that challenges at 15 needs a token; an ordinary one does not", async () => {
    // disposable_domain weighs 15 (risk.ts): at challengeAt 15 the request's own signals demand a token.
    const p = await turnstileProject({ extra: { "doorman.protection.risk.challengeAt": 15 } });
    const risky = await signUpWith(p, {}, `x${Date.now()}@mailinator.com`);
    expect(risky.status, risky.text).toBe(409);
    expect(risky.body.code).toBe("BOT_CHALLENGE_REQUIRED");
    // The same address with a solved challenge goes through; an ordinary address needs none.
    const solved = await signUpWith(
      p,
      { bot_challenge_token: await signUpToken(), bot_challenge_phase: "invisible" },
      `y${Date.now()}@mailinator.com`,
    );
    expect(solved.status, solved.text).toBe(200);
    expect((await signUpWith(p)).status).toBe(200);
    // Sign-in and OTP ask the same question of the typed address.
    const signIn = await call("/auth/password/sign-in", {
      ...p.client,
      body: { email: `z${Date.now()}@mailinator.com`, password: "whatever-it-is" },
    });
    expect(signIn.body.code).toBe("BOT_CHALLENGE_REQUIRED");
  });
});

describe("burst", () => {
  it("60 concurrent sign-ups with one token: exactly one passes (siteverify spends a token once)", async () => {
    const p = await turnstileProject({ require: { signUp: true } });
    const t = await signUpToken();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call("/auth/password/sign-up", {
          ...p.client,
          // Each from its own address, so the per-IP sign-up limit does not decide the outcome.
          headers: { "cf-connecting-ip": `203.0.113.${i + 1}` },
          body: { email: uniqueEmail(), password: "correct horse battery", bot_challenge_token: t, bot_challenge_phase: "invisible" },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(59);
  });
});
