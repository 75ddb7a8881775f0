/**
 * Sign-out everywhere through the SDK against the real worker: `currentUser.revokeOtherSessions()`
 * keeps this device and signs the others out at their next request (their access token is refused
 * at once, the refresh fails, the SDK drops the session), `serverUser.revokeAllSessions()`, and an
 * admin's `revokeAllProjectSessions()` (every user of the project).
 */
import { describe, expect, it } from "vitest";
import { StackAdminApp, StackClientApp, StackServerApp } from "../../sdk/src";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const, tokenStore: "memory" as const };

async function twoDevices() {
  const p = await createProjectWithKeys();
  const device = () => new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
  const email = uniqueEmail("everywhere");
  const password = "sdk password 1";
  const a = device();
  const b = device();
  await a.signUpWithCredential({ email, password, noRedirect: true });
  expect((await b.signInWithCredential({ email, password, noRedirect: true })).status).toBe("ok");
  // Both devices hold a fresh access token now.
  expect((await a.getUser())?.primaryEmail).toBe(email);
  expect((await b.getUser())?.primaryEmail).toBe(email);
  return { p, a, b };
}

describe("SDK sign out everywhere", () => {
  it("revokeOtherSessions keeps this device and signs the other out on its next request", async () => {
    const { a, b } = await twoDevices();
    const user = (await a.getUser())!;
    await user.revokeOtherSessions();
    // The other device's next read of the user (a page load) finds it signed out: its access token
    // is refused at once, the refresh fails, and the SDK drops the session.
    expect(await b._refreshUser()).toBeNull();
    expect(await b.getUser()).toBeNull();
    expect((await a._refreshUser())?.id).toBe(user.id);
    expect(await user.listSessions()).toHaveLength(1);
  });

  it("a server's revokeAllSessions signs the user out on every device", async () => {
    const { p, a, b } = await twoDevices();
    const server = new StackServerApp({ ...base, projectId: p.projectId, secretServerKey: p.server.secretServerKey });
    const id = (await a.getUser())!.id;
    const user = await server.getUser(id);
    await user!.revokeAllSessions();
    expect(await user!.listSessions()).toEqual([]);
    expect(await a._refreshUser()).toBeNull();
    expect(await b._refreshUser()).toBeNull();
  });

  it("an admin's revokeAllProjectSessions signs every user of the project out", async () => {
    const { p, a, b } = await twoDevices();
    const admin = new StackAdminApp({ ...base, projectId: p.projectId, superSecretAdminKey: p.adminKey.superSecretAdminKey });
    expect(await admin.revokeAllProjectSessions()).toEqual({ endedSessionCount: 2 });
    expect(await a._refreshUser()).toBeNull();
    expect(await b._refreshUser()).toBeNull();
  });
});
