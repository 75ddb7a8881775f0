/**
 * The SDK's `hostedPages` option (issue 28): an app without a handler of its own sends users to the
 * project's hosted pages (redirectToSignIn() and friends) with its current URL to come back to, and
 * its email callbacks point at the hosted pages, which the worker trusts for that project only.
 * Also the one function that chooses where a project's emails link (projectPageUrl).
 */
import { projectPageUrl } from "@doorman/shared/hosted-pages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StackClientApp } from "../../sdk/src";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { waitForOutbox } from "../helpers/mail";
import { workerFetch } from "../helpers/worker-fetch";

const APP_PAGE = "https://app.example.com/dashboard?tab=billing";
const g = globalThis as { window?: unknown };

function hostedApp(projectId: string, options: { hostedPages: true | "custom-domain"; baseUrl: string }, visited: string[]) {
  return new StackClientApp({
    projectId,
    baseUrl: options.baseUrl,
    tokenStore: "memory",
    cookieJar: { get: () => null, set: () => {}, remove: () => {} },
    hostedPages: options.hostedPages,
    fetch: (input, init) => workerFetch(input, init),
    redirectMethod: { navigate: (url) => void visited.push(url) },
  });
}

/** A hosted URL without the session handoff request (its values are random). */
function withoutHandoff(href: string): string {
  const url = new URL(href);
  url.searchParams.delete("cross_domain_code_challenge");
  url.searchParams.delete("cross_domain_state");
  return url.toString();
}

beforeEach(() => {
  g.window = { location: new URL(APP_PAGE) };
});
afterEach(() => {
  delete g.window;
});

describe("hostedPages sends users to the project's hosted pages", () => {
  it("redirects to sign-in, sign-up, account settings and sign-out with the current URL to return to", async () => {
    const visited: string[] = [];
    const app = hostedApp("3f9c-project", { hostedPages: true, baseUrl: "https://auth.doorman.dev/" }, visited);
    await app.redirectToSignIn();
    await app.redirectToSignUp();
    await app.redirectToAccountSettings();
    await app.redirectToSignOut();
    const back = `after_auth_return_to=${encodeURIComponent(APP_PAGE)}`;
    // Sign-in and sign-up also ask for the session back (hosted-handoff.test.ts).
    for (const i of [0, 1]) expect(new URL(visited[i]!).searchParams.get("cross_domain_state")).toBeTruthy();
    expect(visited.map(withoutHandoff)).toEqual([
      `https://auth.doorman.dev/p/3f9c-project/handler/sign-in?${back}`,
      `https://auth.doorman.dev/p/3f9c-project/handler/sign-up?${back}`,
      `https://auth.doorman.dev/p/3f9c-project/handler/account-settings?${back}`,
      `https://auth.doorman.dev/p/3f9c-project/handler/sign-out?${back}`,
    ]);
    expect(app.urls.emailVerification).toBe("https://auth.doorman.dev/p/3f9c-project/handler/email-verification");
    // The app's own pages stay the app's.
    expect(app.urls.home).toBe("/");
  });

  it("uses the custom domain's own /handler when baseUrl is the project's custom domain", async () => {
    const visited: string[] = [];
    const app = hostedApp("3f9c-project", { hostedPages: "custom-domain", baseUrl: "https://auth.example.com" }, visited);
    await app.redirectToSignIn();
    expect(visited.map(withoutHandoff)).toEqual([
      `https://auth.example.com/handler/sign-in?after_auth_return_to=${encodeURIComponent(APP_PAGE)}`,
    ]);
  });

  it("an app with its own handler keeps same-origin paths", async () => {
    const visited: string[] = [];
    const app = new StackClientApp({
      projectId: "3f9c-project",
      baseUrl: "https://auth.doorman.dev",
      tokenStore: "memory",
      redirectMethod: { navigate: (url) => void visited.push(url) },
    });
    await app.redirectToSignIn();
    await app.redirectToSignOut();
    expect(visited).toEqual([`/handler/sign-in?after_auth_return_to=${encodeURIComponent("/dashboard?tab=billing")}`, "/handler/sign-out"]);
  });

  it("a sign-up's verification email links to the project's hosted page, which the worker trusts", async () => {
    const p = await createProjectWithKeys({ allow_localhost: false });
    const app = hostedApp(p.projectId, { hostedPages: true, baseUrl: "http://localhost" }, []);
    const email = uniqueEmail("hosted-sdk");
    const result = await app.signUpWithCredential({ email, password: "hosted password 1", noRedirect: true });
    expect(result.status).toBe("ok");
    const mail = (await waitForOutbox(email)).find((m) => m.subject.startsWith("Verify your email"));
    expect(mail?.text).toContain(`http://localhost/p/${p.projectId}/handler/email-verification?code=`);

    // Another project's hosted pages are not this project's: the same SDK call is refused.
    const other = await createProjectWithKeys({ allow_localhost: false });
    const wrong = await app.signUpWithCredential({
      email: uniqueEmail("hosted-sdk-wrong"),
      password: "hosted password 1",
      noRedirect: true,
      verificationCallbackUrl: `http://localhost/p/${other.projectId}/handler/email-verification`,
    });
    expect(wrong.status === "error" && wrong.error.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
  });
});

describe("projectPageUrl: where a project's emails link", () => {
  const base = { projectId: "p1", hostedOrigin: "https://auth.doorman.dev/" };
  it("prefers the app's handler on its first plain trusted domain", () => {
    const domains = [
      { domain: "https://*.example.org", handlerPath: "/handler" },
      { domain: "https://app.example.com/", handlerPath: "/auth/" },
    ];
    expect(projectPageUrl({ ...base, domains, customDomain: "auth.example.com" }, "sign-in")).toBe("https://app.example.com/auth/sign-in");
  });
  it("else the custom domain's hosted pages, else the hosted pages on Doorman's origin", () => {
    expect(projectPageUrl({ ...base, domains: [], customDomain: "auth.example.com" }, "team-invitation")).toBe(
      "https://auth.example.com/handler/team-invitation",
    );
    expect(projectPageUrl({ ...base, domains: [] }, "sign-in")).toBe("https://auth.doorman.dev/p/p1/handler/sign-in");
    expect(projectPageUrl({ ...base, projectId: "internal", domains: [] }, "sign-in")).toBe("https://auth.doorman.dev/handler/sign-in");
  });
});
