/**
 * The hosted pages' session handoff (issue 28), through the front door: an app on another origin
 * (its own token store and cookie jar) sends the user to the hosted sign-up page with a PKCE
 * challenge; the hosted page (another token store: the hosted origin's) signs up, hands its session
 * over with POST /auth/oauth/cross-domain/authorize, and the app redeems the code and ends with a
 * working session of the same user. Replayed codes, unknown states and untrusted returns are refused.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StackClientApp } from "../../sdk/src";
import { handOff, handoffRequestOf } from "../../sdk/src/apps/hosted-handoff";
import { getUserStore } from "../../sdk/src/react/user-store";
import type { CookieJar } from "../../sdk/src/session/token-store";
import { KnownError } from "../../sdk/src/shared/known-errors";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const APP_ORIGIN = "https://app.example.com";
const APP_PAGE = `${APP_ORIGIN}/dashboard?tab=billing`;
const g = globalThis as { window?: unknown };
/** The address bar of the simulated browser tab, and what replaceState wrote into it. */
let shown: string[] = [];

function visit(href: string) {
  shown = [];
  g.window = {
    location: new URL(href),
    history: { state: null, replaceState: (_state: unknown, _title: string, url: string) => void shown.push(url) },
  };
}

function memoryJar(): CookieJar & { all: Map<string, string> } {
  const all = new Map<string, string>();
  return { all, get: (n) => all.get(n) ?? null, set: (n, v) => void all.set(n, v), remove: (n) => void all.delete(n) };
}

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

/** The app on its own origin: hosted pages, its own cookies. */
function appClient(p: Project, jar = memoryJar()) {
  const visited: string[] = [];
  const app = new StackClientApp({
    projectId: p.projectId,
    publishableClientKey: p.client.publishableClientKey,
    baseUrl: "http://localhost",
    tokenStore: "memory",
    cookieJar: jar,
    hostedPages: true,
    fetch: (input, init) => workerFetch(input, init),
    redirectMethod: { navigate: (url) => void visited.push(url) },
  });
  return { app, jar, visited };
}

/** The hosted page on Doorman's origin: another token store, the one the hosted session lives in. */
function hostedPage(p: Project) {
  const visited: string[] = [];
  const app = new StackClientApp({
    projectId: p.projectId,
    publishableClientKey: p.client.publishableClientKey,
    baseUrl: "http://localhost",
    tokenStore: "memory",
    cookieJar: memoryJar(),
    urls: { handler: `/p/${p.projectId}/handler` },
    trustedOrigins: [APP_ORIGIN],
    fetch: (input, init) => workerFetch(input, init),
    redirectMethod: { navigate: (url) => void visited.push(url) },
  });
  return { app, visited };
}

const trustingProject = () => createProjectWithKeys({ allow_localhost: true, domains: [{ domain: APP_ORIGIN, handler_path: "/handler" }] });

/** The app sends the user to hosted sign-up; the hosted page signs up and hands the session back. */
async function signUpThroughHostedPages(p: Project, app = appClient(p)) {
  visit(APP_PAGE);
  await app.app.redirectToSignUp();
  const hostedUrl = app.visited.at(-1)!;
  visit(hostedUrl);
  const hosted = hostedPage(p);
  const email = uniqueEmail("handoff");
  const result = await hosted.app.signUpWithCredential({ email, password: "handoff password 1" });
  expect(result.status).toBe("ok");
  return { app, hosted, hostedUrl, email, back: hosted.visited.at(-1)! };
}

beforeEach(() => visit(APP_PAGE));
afterEach(() => {
  delete g.window;
  vi.restoreAllMocks();
});

describe("hosted pages hand the session to a hostedPages app on another origin", () => {
  it("signs the app in as the same user, with the hosted session, and cleans the address", async () => {
    const p = await trustingProject();
    const { app, hosted, hostedUrl, email, back } = await signUpThroughHostedPages(p);

    // The app asked the hosted page for its session: a challenge and a state, the verifier kept in its own cookie.
    const asked = new URL(hostedUrl);
    expect(`${asked.origin}${asked.pathname}`).toBe(`http://localhost/p/${p.projectId}/handler/sign-up`);
    expect(asked.searchParams.get("after_auth_return_to")).toBe(APP_PAGE);
    const state = asked.searchParams.get("cross_domain_state")!;
    expect(asked.searchParams.get("cross_domain_code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(app.jar.all.get(`stack-oauth-outer-${state}`)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The hosted page went back to the app with a code for its session.
    const landing = new URL(back);
    expect(`${landing.origin}${landing.pathname}`).toBe(`${APP_ORIGIN}/dashboard`);
    expect(landing.searchParams.get("tab")).toBe("billing");
    expect(landing.searchParams.get("stack_cross_domain_auth")).toBe("1");
    expect(landing.searchParams.get("state")).toBe(state);
    expect(landing.searchParams.get("code")).toBeTruthy();

    // Before the callback the app has no session: it lives on the hosted origin.
    visit(back);
    expect(await app.app.getUser()).toBeNull();
    const result = await app.app.callHostedPagesCallback();
    expect(result).toEqual({ status: "ok", data: true });
    expect(shown).toEqual([APP_PAGE]);
    expect(app.jar.all.has(`stack-oauth-outer-${state}`)).toBe(false);
    const user = await app.app.getUser();
    expect(user?.primaryEmail).toBe(email);
    // The same session on both origins (the code grant answers the hosted session's refresh token).
    expect(app.app._session.tokens().refreshToken).toBe(hosted.app._session.tokens().refreshToken);
    // The app's session works: it refreshes its own access token.
    await app.app._session.markAccessTokenExpired();
    const me = await app.app._userRequest<{ primary_email: string }>("/users/me");
    expect(me.primary_email).toBe(email);
  });

  it("refuses a replayed code: no session for the replay, and the replay ends the handed-over session", async () => {
    const p = await trustingProject();
    const first = appClient(p);
    const { back } = await signUpThroughHostedPages(p, first);
    const state = new URL(back).searchParams.get("state")!;
    const verifier = first.jar.all.get(`stack-oauth-outer-${state}`)!;
    visit(back);
    expect((await first.app.callHostedPagesCallback()).status).toBe("ok");

    // Another tab of the same browser (same stored state) loading the same address: the code is used.
    const replay = appClient(p, memoryJar());
    replay.jar.set(`stack-oauth-outer-${state}`, verifier, 3600);
    visit(back);
    const again = await replay.app.callHostedPagesCallback();
    expect(again.status === "error" && again.error.code).toBe("INVALID_AUTHORIZATION_CODE");
    expect(shown).toEqual([APP_PAGE]);
    expect(await replay.app.getUser()).toBeNull();
    // A replay means the code leaked: the handed-over session is ended (worker/services/oauth/code-grant.ts).
    await expect(first.app._session.markAccessTokenExpired()).resolves.toBeNull();
    // The browser that redeemed it no longer holds the state: a reload is refused too.
    const reload = await first.app.callHostedPagesCallback({ href: back });
    expect(reload.status === "error" && reload.error.code).toBe("OUTER_OAUTH_TIMEOUT");
  });

  it("refuses a state this browser did not start: a known error, no session, the address cleaned", async () => {
    const p = await trustingProject();
    const { back } = await signUpThroughHostedPages(p);
    // Someone else's handoff (their code and state) opened in this browser: login CSRF.
    const victim = appClient(p);
    const forged = new URL(back);
    visit(forged.toString());
    const result = await victim.app.callHostedPagesCallback();
    expect(result.status === "error" && result.error.code).toBe("OUTER_OAUTH_TIMEOUT");
    expect(shown).toEqual([APP_PAGE]);
    expect(await victim.app.getUser()).toBeNull();

    // A state that does not match the one stored (tampered): the same.
    const other = appClient(p);
    const started = await signUpThroughHostedPages(p, other);
    const tampered = new URL(started.back);
    tampered.searchParams.set("state", "not-the-state-this-browser-stored");
    visit(tampered.toString());
    const refused = await other.app.callHostedPagesCallback();
    expect(refused.status === "error" && refused.error.code).toBe("OUTER_OAUTH_TIMEOUT");
    expect(await other.app.getUser()).toBeNull();
  });

  it("an address without a handoff is not touched", async () => {
    const p = await trustingProject();
    const { app } = appClient(p);
    visit(`${APP_PAGE}&code=the-apps-own-code&state=the-apps-own-state`);
    expect(await app.callHostedPagesCallback()).toEqual({ status: "ok", data: false });
    expect(shown).toEqual([]);
  });

  it("refuses an untrusted return URL: no code, and the hosted page returns without handing over", async () => {
    const p = await createProjectWithKeys({ allow_localhost: false, domains: [{ domain: APP_ORIGIN, handler_path: "/handler" }] });
    const hosted = hostedPage(p);
    visit(`http://localhost/p/${p.projectId}/handler/sign-up`);
    expect(
      (await hosted.app.signUpWithCredential({ email: uniqueEmail("handoff-evil"), password: "handoff password 1", noRedirect: true }))
        .status,
    ).toBe("ok");
    const evil = new URL(`http://localhost/p/${p.projectId}/handler/sign-in`);
    evil.searchParams.set("after_auth_return_to", "https://evil.example.net/steal");
    evil.searchParams.set("cross_domain_code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    evil.searchParams.set("cross_domain_state", "evil-state");
    const request = handoffRequestOf(evil.toString())!;
    const refused = await handOff(hosted.app, request).catch((error: unknown) => error);
    expect(refused instanceof KnownError && refused.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await hosted.app.handOffSession({ href: evil.toString() })).toBe(false);
    expect(hosted.visited).toEqual([]);
  });

  it("StackProvider's user store redeems the handoff before the first read", async () => {
    const p = await trustingProject();
    const app = appClient(p);
    const { back, email } = await signUpThroughHostedPages(p, app);
    visit(back);
    const store = getUserStore(app.app);
    await store.load();
    const snapshot = store.getSnapshot();
    expect(snapshot.status === "ready" && snapshot.value?.primaryEmail).toBe(email);
    expect(shown).toEqual([APP_PAGE]);
  });
});
