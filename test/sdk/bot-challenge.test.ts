/**
 * The SDK's bot-challenge flow (sdk/src/apps/bot-challenge.ts) against the real worker and the local
 * siteverify: the invisible token first, the visible retry on BOT_CHALLENGE_REQUIRED, "unavailable"
 * when no widget can be had, and no challenge at all for a project without keys. The browser widget
 * module is replaced by one that asks the fake for tokens (the Chromium e2e runs the real one).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { StackClientApp } from "../../sdk/src";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const SITE_KEY = "0x4AAAAAAAsdkSiteKey";
const widget = vi.hoisted(() => ({
  invisible: [] as string[],
  visible: [] as string[],
  invisibleFails: false,
  visibleFails: false,
}));

async function fakeToken(action: string): Promise<string> {
  const res = await fetch(`${inject("turnstileUrl")}/control/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sitekey: SITE_KEY, action, hostname: "localhost" }),
  });
  return ((await res.json()) as { token: string }).token;
}

vi.mock("../../sdk/src/apps/turnstile-widget", () => ({
  widgetToken: async (_settings: unknown, action: string, _slot: unknown, visible: boolean) => {
    if (!visible) {
      widget.invisible.push(action);
      if (widget.invisibleFails) return "a-token-siteverify-refuses";
      return fakeToken(action);
    }
    widget.visible.push(action);
    if (widget.visibleFails) throw new Error("widget could not load");
    return fakeToken(action);
  },
}));

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
const sent: Record<string, unknown>[] = [];

function appOf(p: Project) {
  return new StackClientApp({
    baseUrl: "http://localhost",
    fetch: async (input, init) => {
      const url = new URL(String(input));
      if (url.pathname.includes("/auth/")) {
        const body = typeof init?.body === "string" ? JSON.parse(init.body) : Object.fromEntries(url.searchParams);
        sent.push({
          path: url.pathname,
          phase: body.bot_challenge_phase,
          unavailable: body.bot_challenge_unavailable,
          token: body.bot_challenge_token,
        });
      }
      return workerFetch(input, init);
    },
    redirectMethod: "none",
    projectId: p.projectId,
    publishableClientKey: p.client.publishableClientKey,
    tokenStore: "memory",
  });
}

async function project(require: Record<string, boolean>) {
  const p = await createProjectWithKeys({
    allow_localhost: true,
    magic_link_enabled: true,
    oauth_providers: [{ id: "github", type: "shared" }],
  });
  const override = {
    "doorman.protection.turnstile.siteKey": SITE_KEY,
    "doorman.protection.turnstile.secretKey": "sdk-test-secret",
    ...Object.fromEntries(Object.entries(require).map(([k, v]) => [`doorman.protection.turnstile.require.${k}`, v])),
  };
  const res = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: { config_override_string: JSON.stringify(override) },
  });
  expect(res.status, res.text).toBe(200);
  return p;
}

beforeAll(() => {
  // The flow runs only in a browser; the widget module is mocked, so an empty window is enough.
  vi.stubGlobal("window", { location: { href: "http://localhost/handler/sign-up", origin: "http://localhost" } });
  // OAuth keeps its PKCE verifier in a cookie.
  vi.stubGlobal("document", { cookie: "" });
});
afterAll(() => vi.unstubAllGlobals());
beforeEach(() => {
  sent.length = 0;
  widget.invisible.length = 0;
  widget.visible.length = 0;
  widget.invisibleFails = false;
  widget.visibleFails = false;
});

describe("the client app's bot-challenge flow", () => {
  it("signs up with an invisible token (one request, phase invisible)", async () => {
    const app = appOf(await project({ signUp: true }));
    const result = await app.signUpWithCredential({ email: uniqueEmail(), password: "correct horse battery", noRedirect: true });
    expect(result.status).toBe("ok");
    expect(sent).toEqual([expect.objectContaining({ path: "/api/v1/auth/password/sign-up", phase: "invisible" })]);
    expect(widget.visible).toEqual([]);
  });

  it("on BOT_CHALLENGE_REQUIRED runs the visible widget and retries with phase visible", async () => {
    const app = appOf(await project({ signUp: true }));
    widget.invisibleFails = true;
    const result = await app.signUpWithCredential({ email: uniqueEmail(), password: "correct horse battery", noRedirect: true });
    expect(result.status).toBe("ok");
    expect(sent.map((s) => s.phase)).toEqual(["invisible", "visible"]);
    expect(widget.visible).toEqual(["sign_up_with_credential"]);
  });

  it("a visible widget that cannot load ends as BOT_CHALLENGE_FAILED (the server's answer to unavailable)", async () => {
    const app = appOf(await project({ signUp: true }));
    widget.invisibleFails = true;
    widget.visibleFails = true;
    const result = await app.signUpWithCredential({ email: uniqueEmail(), password: "correct horse battery", noRedirect: true });
    expect(result.status).toBe("error");
    if (result.status === "error") expect(result.error.code).toBe("BOT_CHALLENGE_FAILED");
    expect(sent.map((s) => s.unavailable ?? s.phase)).toEqual(["invisible", "true"]);
  });

  it("sign-in, magic link and OAuth send their own actions (OAuth in the query)", async () => {
    const p = await project({ signIn: true, otp: true, oauth: true });
    const app = appOf(p);
    const email = uniqueEmail();
    expect((await app.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true })).status).toBe("ok");
    expect((await app.signInWithCredential({ email, password: "correct horse battery", noRedirect: true })).status).toBe("ok");
    expect((await app.sendMagicLinkEmail(uniqueEmail(), { callbackUrl: "http://localhost/handler/magic-link-callback" })).status).toBe(
      "ok",
    );
    const oauth = await import("../../sdk/src/apps/oauth");
    const location = await oauth.startOAuth(app, "github", { redirectUrl: "http://localhost/handler/oauth-callback" });
    expect(location).toMatch(/^http/);
    expect(widget.invisible).toEqual(["sign_up_with_credential", "sign_in_with_credential", "send_magic_link_email", "oauth_authenticate"]);
    expect(sent.at(-1)).toMatchObject({ path: "/api/v1/auth/oauth/authorize/github", phase: "invisible" });
  });

  it("a project without keys: no widget, no fields", async () => {
    const app = appOf(await createProjectWithKeys());
    expect((await app.signUpWithCredential({ email: uniqueEmail(), password: "correct horse battery", noRedirect: true })).status).toBe(
      "ok",
    );
    expect(widget.invisible).toEqual([]);
    expect(sent).toEqual([expect.objectContaining({ phase: undefined, token: undefined })]);
  });
});
