/** SDK CLI login: promptCliLogin against the real worker, with the browser side done by a signed-in app. */

import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { describe, expect, it } from "vitest";
import { type FetchLike, KnownError, promptCliLogin, StackClientApp } from "../../sdk/src";
import { uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const APP_URL = "http://app.example";

const clientApp = (tokenStore: ConstructorParameters<typeof StackClientApp>[0]["tokenStore"] = "memory") =>
  new StackClientApp({
    baseUrl: "http://localhost",
    fetch: (input, init) => workerFetch(input, init),
    redirectMethod: "none",
    projectId: "internal",
    publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY,
    tokenStore,
  });

async function signedInBrowser() {
  const app = clientApp();
  const result = await app.signUpWithCredential({ email: uniqueEmail("cli-sdk"), password: "cli password 1", noRedirect: true });
  expect(result.status).toBe("ok");
  const user = await app.getUser({ or: "throw" });
  return { app, userId: user!.id };
}

/** A CLI-side harness: the real worker, a recorded polling code, and an optional rewrite of answers. */
function cli(options: { pollNowMs?: number; rewrite?: (path: string, res: Response) => Promise<Response> } = {}) {
  const seen = { pollingCode: "", link: "", sleeps: [] as number[], polls: 0 };
  const fetchImpl: FetchLike = async (input, init) => {
    const path = new URL(input).pathname;
    const headers = new Headers(init.headers);
    if (path.endsWith("/auth/cli/poll")) {
      seen.polls++;
      if (options.pollNowMs !== undefined) headers.set("x-doorman-test-now", String(options.pollNowMs));
    }
    const res = await workerFetch(input, { ...init, headers });
    if (path.endsWith("/auth/cli")) seen.pollingCode = ((await res.clone().json()) as { polling_code: string }).polling_code;
    return options.rewrite ? options.rewrite(path, res) : res;
  };
  const loginCode = () => new URL(seen.link).searchParams.get("login_code") ?? "";
  const base = {
    appUrl: `${APP_URL}/`,
    baseUrl: "http://localhost",
    projectId: "internal",
    publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY,
    fetch: fetchImpl,
    promptLink: (url: string) => {
      seen.link = url;
    },
  };
  return { seen, loginCode, base };
}

async function rejection(promise: Promise<unknown>): Promise<KnownError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KnownError);
  return error as KnownError;
}

describe("promptCliLogin", () => {
  it("shows the confirm link, polls every 2 s until the browser confirms, and returns a working refresh token", async () => {
    const browser = await signedInBrowser();
    const { seen, loginCode, base } = cli();
    const refreshToken = await promptCliLogin({
      ...base,
      sleep: async (ms) => {
        seen.sleeps.push(ms);
        // The person confirms in the browser while the CLI waits (after the second poll).
        if (seen.sleeps.length === 2) expect((await browser.app.confirmCliLogin(loginCode())).status).toBe("ok");
      },
    });
    expect(seen.link).toMatch(/^http:\/\/app\.example\/handler\/cli-auth-confirm\?login_code=[0-9a-z]{45}$/);
    expect(seen.sleeps).toEqual([2000, 2000]);
    expect(seen.polls).toBe(3);
    const cliApp = clientApp({ refreshToken, accessToken: null });
    expect((await cliApp.getUser())?.id).toBe(browser.userId);
    // The browser's own session is untouched: the CLI has a session of its own.
    expect((await browser.app.getUser())?.id).toBe(browser.userId);
  });

  it("expired → CLI_AUTH_EXPIRED_ERROR with the exact message", async () => {
    const { base } = cli({ pollNowMs: Date.now() + 3 * 3600_000 });
    const error = await rejection(promptCliLogin({ ...base, sleep: async () => undefined }));
    expect(error.code).toBe("CLI_AUTH_EXPIRED_ERROR");
    expect(error.message).toBe("CLI authentication request expired. Please try again.");
  });

  it("used (another poller took the token) → CLI_AUTH_USED_ERROR with the exact message", async () => {
    const browser = await signedInBrowser();
    const { seen, loginCode, base } = cli();
    const error = await rejection(
      promptCliLogin({
        ...base,
        sleep: async () => {
          expect((await browser.app.confirmCliLogin(loginCode())).status).toBe("ok");
          const thief = await workerFetch("http://localhost/api/v1/auth/cli/poll", {
            method: "POST",
            headers: { "content-type": "application/json", "x-stack-project-id": "internal", "x-stack-access-type": "client" },
            body: JSON.stringify({ polling_code: seen.pollingCode }),
          });
          expect(thief.status).toBe(201);
        },
      }),
    );
    expect(error.code).toBe("CLI_AUTH_USED_ERROR");
    expect(error.message).toBe("This authentication token has already been used.");
  });

  it("gives up after maxAttempts with 'Timed out waiting for CLI authentication.'", async () => {
    const { seen, base } = cli();
    const error = await rejection(
      promptCliLogin({ ...base, maxAttempts: 3, waitTimeMillis: 10, sleep: async (ms) => void seen.sleeps.push(ms) }),
    );
    expect(error.code).toBe("CLI_AUTH_ERROR");
    expect(error.message).toBe("Timed out waiting for CLI authentication.");
    expect(seen.polls).toBe(3);
    expect(seen.sleeps).toEqual([10, 10]);
  });

  it("a success that is not a 201 is an error, not a token", async () => {
    const browser = await signedInBrowser();
    const { loginCode, base } = cli({
      rewrite: async (path, res) =>
        path.endsWith("/poll") && res.status === 201 ? new Response(res.body, { status: 200, headers: res.headers }) : res,
    });
    const error = await rejection(promptCliLogin({ ...base, sleep: async () => void (await browser.app.confirmCliLogin(loginCode())) }));
    expect(error.code).toBe("CLI_AUTH_ERROR");
    expect(error.message).toMatch(/^Unexpected status from CLI auth polling: success/);
  });
});

describe("the confirm page's client methods", () => {
  it("check, confirm, and their failures as values", async () => {
    const browser = await signedInBrowser();
    const start = await workerFetch("http://localhost/api/v1/auth/cli", {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": "internal", "x-stack-access-type": "client" },
      body: "{}",
    });
    const { login_code } = (await start.json()) as { login_code: string };
    expect(await browser.app.checkCliLogin(login_code)).toEqual({ status: "ok", data: "none" });
    const bad = await browser.app.confirmCliLogin("z".repeat(45));
    expect(bad.status === "error" && bad.error.code).toBe("CLI_AUTH_ERROR");
    expect(bad.status === "error" && bad.error.message).toBe("The CLI login code is invalid.");
    expect((await browser.app.confirmCliLogin(login_code)).status).toBe("ok");
    const again = await browser.app.checkCliLogin(login_code);
    expect(again.status === "error" && again.error.message).toBe("This CLI login has already been completed.");
  });

  it("claimCliAnonymousSession signs the browser in as the CLI's anonymous user", async () => {
    const cliSide = clientApp();
    const anonymous = await cliSide.getUser({ or: "anonymous" });
    const start = await workerFetch("http://localhost/api/v1/auth/cli", {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": "internal", "x-stack-access-type": "client" },
      body: JSON.stringify({ anon_refresh_token: cliSide._session.tokens().refreshToken }),
    });
    const { login_code } = (await start.json()) as { login_code: string };
    const browser = clientApp();
    expect(await browser.checkCliLogin(login_code)).toEqual({ status: "ok", data: "anonymous" });
    expect((await browser.claimCliAnonymousSession(login_code)).status).toBe("ok");
    expect((await browser.getUser({ or: "anonymous" }))?.id).toBe(anonymous?.id);
    expect((await browser.claimCliAnonymousSession(login_code)).status).toBe("error");
  });
});
