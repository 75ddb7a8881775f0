/** The SDK's `listActivity` (current user and server user) against the real worker: camelCase items, newest first, paged. */
import { describe, expect, it } from "vitest";
import { StackClientApp, StackServerApp } from "../../sdk/src";
import { activityLabel, countryName, deviceOf, relativeTime } from "../../sdk/src/react/components/activity-labels";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const base = {
  baseUrl: "http://localhost",
  fetch: (input: string, init: RequestInit) => workerFetch(input, init),
  redirectMethod: "none" as const,
};

describe("listActivity", () => {
  it("the signed-in user reads their own activity; the server reads the same for any user", async () => {
    const p = await createProjectWithKeys();
    const app = new StackClientApp({
      ...base,
      projectId: p.projectId,
      publishableClientKey: p.client.publishableClientKey,
      tokenStore: "memory",
    });
    const email = uniqueEmail("activity");
    expect((await app.signUpWithCredential({ email, password: "first password 1", noRedirect: true })).status).toBe("ok");
    const wrong = await app.signInWithCredential({ email, password: "not my password", noRedirect: true });
    expect(wrong.status).toBe("error");
    const user = (await app.getUser({ or: "throw" }))!;
    expect((await user.updatePassword({ oldPassword: "first password 1", newPassword: "second password 2" })).status).toBe("ok");

    const page = await user.listActivity();
    expect(page.items.map((i) => i.type)).toEqual(["password.changed", "sign_in.failed", "sign_in.succeeded"]);
    expect(page.nextCursor).toBeNull();
    const failed = page.items[1]!;
    expect(failed.createdAt).toBeInstanceOf(Date);
    // With the request's risk signals (issue 29): none here.
    expect(failed.data).toEqual({ method: "password", reason: "EMAIL_PASSWORD_MISMATCH", risk: { score: 0, signals: [] } });
    expect(Object.keys(failed).sort()).toEqual(["countryCode", "createdAt", "data", "id", "ip", "type", "userAgent"]);

    const first = await user.listActivity({ limit: 2 });
    expect(first.items.map((i) => i.id)).toEqual(page.items.slice(0, 2).map((i) => i.id));
    const rest = await user.listActivity({ limit: 2, cursor: first.nextCursor! });
    expect(rest.items.map((i) => i.id)).toEqual([page.items[2]!.id]);
    expect(rest.nextCursor).toBeNull();

    const server = new StackServerApp({
      ...base,
      projectId: p.projectId,
      publishableClientKey: p.client.publishableClientKey,
      secretServerKey: p.server.secretServerKey,
      tokenStore: "memory",
    });
    const serverUser = (await server.getUser(user.id))!;
    expect((await serverUser.listActivity()).items.map((i) => i.id)).toEqual(page.items.map((i) => i.id));
  });
});

describe("activity in plain words", () => {
  const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
  const SAFARI_IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
  const EDGE_WINDOWS =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68";
  const FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0";

  it("names each event", () => {
    expect(activityLabel({ type: "sign_in.succeeded", data: { method: "password" } })).toBe("Signed in with password");
    expect(activityLabel({ type: "sign_in.succeeded", data: { method: "oauth", provider: "github" } })).toBe("Signed in with GitHub");
    expect(activityLabel({ type: "sign_in.succeeded", data: { method: "password", mfa: true } })).toBe(
      "Signed in with password and a two-factor code",
    );
    expect(activityLabel({ type: "sign_in.failed", data: { method: "password", reason: "EMAIL_PASSWORD_MISMATCH" } })).toBe(
      "Failed sign-in attempt (wrong password)",
    );
    expect(activityLabel({ type: "session.token_reused", data: null })).toBe(
      "Someone reused an old sign-in token — that session was ended",
    );
    expect(activityLabel({ type: "mfa.removed", data: null })).toBe("Two-factor authentication turned off");
    expect(activityLabel({ type: "oauth_account.linked", data: { provider: "github" } })).toBe("GitHub account linked");
    expect(activityLabel({ type: "password.changed", data: { removed: false } })).toBe("Password changed");
  });

  it("reads browser and system from a user agent, a country name from its code, and a relative time", () => {
    expect(deviceOf(CHROME_LINUX)).toBe("Chrome on Linux");
    expect(deviceOf(SAFARI_IPHONE)).toBe("Safari on iOS");
    expect(deviceOf(EDGE_WINDOWS)).toBe("Edge on Windows");
    expect(deviceOf(FIREFOX_MAC)).toBe("Firefox on macOS");
    expect(deviceOf("curl/8.5.0")).toBe("curl");
    expect(deviceOf("something/1.0")).toBeNull();
    expect(deviceOf(null)).toBeNull();
    expect(countryName("DE", "en")).toBe("Germany");
    expect(countryName(null)).toBeNull();
    expect(countryName("not a code")).toBeNull();
    const now = Date.UTC(2025, 0, 10, 12);
    expect(relativeTime(new Date(now - 10_000), now, "en")).toBe("just now");
    expect(relativeTime(new Date(now - 5 * 60_000), now, "en")).toBe("5 minutes ago");
    expect(relativeTime(new Date(now - 26 * 3600_000), now, "en")).toBe("yesterday");
  });
});
