/**
 * Server-side user management through the SDK against the real worker: list filters (restricted,
 * anonymous, search by id), contact channels of another user, revoking one session, and the
 * impersonation session a client app can use with a memory token store.
 */

import { describe, expect, it } from "vitest";
import { StackClientApp, StackServerApp } from "../../sdk/src";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const, tokenStore: "memory" as const };

async function setup(config: Record<string, unknown> = {}) {
  const p = await createProjectWithKeys(config);
  const server = new StackServerApp({ ...base, projectId: p.projectId, secretServerKey: p.server.secretServerKey });
  return { p, server };
}

describe("SDK server users", () => {
  it("a created user's primary email signs in unless primaryEmailAuthEnabled is false (the API's default is off)", async () => {
    const { server } = await setup();
    const user = await server.createUser({ primaryEmail: uniqueEmail("sdk-auth"), password: "created password" });
    expect(user.primaryEmailAuthEnabled).toBe(true);
    const off = await server.createUser({ primaryEmail: uniqueEmail("sdk-off"), primaryEmailAuthEnabled: false });
    expect(off.primaryEmailAuthEnabled).toBe(false);
    const noEmail = await server.createUser({ displayName: "No email" });
    expect(noEmail.primaryEmailAuthEnabled).toBe(false);
  });

  it("lists restricted and anonymous users only when asked, and finds a user by id", async () => {
    const { p, server } = await setup({ require_email_verification: true });
    const verified = await server.createUser({ primaryEmail: uniqueEmail("ok"), primaryEmailVerified: true });
    const unverified = await server.createUser({ primaryEmail: uniqueEmail("unverified") });
    const client = new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
    const anon = await client.getUser({ or: "anonymous" });

    const ids = async (options: Parameters<typeof server.listUsers>[0]) => (await server.listUsers(options)).map((u) => u.id);
    expect(await ids({})).toEqual([verified.id]);
    expect(await ids({ includeRestricted: true })).toEqual([verified.id, unverified.id]);
    expect(await ids({ onlyAnonymous: true })).toEqual([anon?.id]);
    expect(await ids({ includeRestricted: true, query: unverified.id })).toEqual([unverified.id]);
    expect(await ids({ includeRestricted: true, desc: true, orderBy: "signedUpAt" })).toEqual([unverified.id, verified.id]);

    await verified.update({ restrictedByAdmin: true, restrictedByAdminReason: "Chargeback", restrictedByAdminPrivateDetails: "case 42" });
    const restricted = await server.getUser(verified.id);
    expect(restricted).toMatchObject({
      isRestricted: true,
      restrictedByAdmin: true,
      restrictedByAdminReason: "Chargeback",
      restrictedByAdminPrivateDetails: "case 42",
    });
    expect(await ids({})).toEqual([]);
  });

  it("lists by display name or primary email, a page at a time", async () => {
    const { server } = await setup();
    const zed = await server.createUser({ primaryEmail: uniqueEmail("a-zed"), displayName: "zed" });
    const amy = await server.createUser({ primaryEmail: uniqueEmail("c-amy"), displayName: "Amy" });
    const nameless = await server.createUser({ primaryEmail: uniqueEmail("b-nameless") });
    const first = await server.listUsers({ orderBy: "displayName", limit: 2 });
    expect(first.map((u) => u.id)).toEqual([amy.id, zed.id]);
    const rest = await server.listUsers({ orderBy: "displayName", limit: 2, cursor: first.nextCursor ?? undefined });
    expect(rest.map((u) => u.id)).toEqual([nameless.id]);
    expect(rest.nextCursor).toBeNull();
    const byEmail = await server.listUsers({ orderBy: "primaryEmail", desc: true });
    expect(byEmail.map((u) => u.id)).toEqual([amy.id, nameless.id, zed.id]);
  });

  it("manages another user's contact channels, verified or not", async () => {
    const { server } = await setup();
    const email = uniqueEmail("primary");
    const user = await server.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true });
    const work = uniqueEmail("work");
    const added = await user.createContactChannel({ value: work, usedForAuth: false, isVerified: true });
    expect(added).toMatchObject({ value: work, isVerified: true, isPrimary: false, usedForAuth: false, userId: user.id });

    const channels = await user.listContactChannels();
    expect(channels.map((c) => [c.value, c.isPrimary])).toEqual(
      expect.arrayContaining([
        [email, true],
        [work, false],
      ]),
    );
    await channels.find((c) => c.value === email)!.update({ isVerified: true });
    expect((await server.getUser(user.id))?.primaryEmailVerified).toBe(true);
    await added.delete();
    expect((await user.listContactChannels()).map((c) => c.value)).toEqual([email]);
  });

  it("an impersonation session works in a memory-store client app and can be revoked by id", async () => {
    const { p, server } = await setup();
    const user = await server.createUser({ primaryEmail: uniqueEmail("imp"), displayName: "Imp" });
    const tokens = await user.createSession({ isImpersonation: true });
    const client = new StackClientApp({ ...base, projectId: p.projectId, tokenStore: tokens });
    expect((await client.getUser())?.displayName).toBe("Imp");

    const [session] = await user.listSessions();
    expect(session?.isImpersonation).toBe(true);
    await user.revokeSession(session!.id);
    expect(await user.listSessions()).toEqual([]);
    const other = await server.createUser({ primaryEmail: uniqueEmail("other") });
    await expect(other.revokeSession(session!.id)).rejects.toThrow();
    // The impersonating tab's "End impersonation" after the owner revoked the session: no error.
    const started = Date.now();
    await client.signOut();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await client.getUser()).toBeNull();
  });
});
