/** API keys through the SDK against the real worker: the user's keys, and back-end validation. */

import { describe, expect, it } from "vitest";
import { StackClientApp, StackServerApp } from "../../sdk/src";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const, tokenStore: "memory" as const };

async function setup() {
  const p = await createProjectWithKeys({ allow_user_api_keys: true, allow_team_api_keys: true });
  const client = new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
  const server = new StackServerApp({ ...base, projectId: p.projectId, secretServerKey: p.server.secretServerKey });
  const signedUp = await client.signUpWithCredential({ email: uniqueEmail("keys"), password: "sdk password 1", noRedirect: true });
  expect(signedUp.status).toBe("ok");
  const user = await client.getUser({ or: "throw" });
  if (!user) throw new Error("no user");
  return { p, client, server, user };
}

describe("SDK API keys", () => {
  it("creates a user key (full value once), lists it by last four, updates and revokes it", async () => {
    const { server, user } = await setup();
    const expiresAt = new Date(Date.now() + 3600_000);
    const first = await user.createApiKey({ description: "laptop", expiresAt });
    expect(first.value).toMatch(/^sk_[0-9a-z]{45}[0-9a-f]{32}user[0-9a-z]574ck4u7h[0-9a-f]{8}$/);
    expect(first).toMatchObject({ type: "user", userId: user.id, description: "laptop", isPublic: false, manuallyRevokedAt: null });
    expect(first.expiresAt?.getTime()).toBe(expiresAt.getTime());
    expect(first.isValid()).toBe(true);

    const [listed] = await user.listApiKeys();
    expect(listed?.id).toBe(first.id);
    expect(listed?.value).toEqual({ lastFour: first.value.slice(-4) });
    expect(listed?.whyInvalid()).toBeNull();

    await listed!.update({ description: "work laptop" });
    const validated = await server.validateUserApiKey(first.value);
    expect(validated).toMatchObject({ id: first.id, userId: user.id, description: "work laptop" });
    expect((await server.getUserByApiKey(first.value))?.id).toBe(user.id);

    await listed!.revoke();
    const [revoked] = await user.listApiKeys();
    expect(revoked?.manuallyRevokedAt).toBeInstanceOf(Date);
    expect(revoked?.whyInvalid()).toBe("manually-revoked");
    expect(revoked?.isValid()).toBe(false);
    // Every API_KEY_NOT_VALID error is "no key".
    expect(await server.validateUserApiKey(first.value)).toBeNull();
    expect(await server.getUserByApiKey(first.value)).toBeNull();
    expect(await server.validateUserApiKey("sk_garbage")).toBeNull();
  });

  it("never-expiring and public keys; expired keys report 'expired' before 'manually-revoked'", async () => {
    const { user } = await setup();
    const forever = await user.createApiKey({ description: "forever", expiresAt: null, isPublic: true });
    expect(forever.value.startsWith("pk_")).toBe(true);
    expect(forever.expiresAt).toBeUndefined();
    expect(forever.isPublic).toBe(true);
    const past = await user.createApiKey({ description: "old", expiresAt: new Date(Date.now() - 1000) });
    expect(past.whyInvalid()).toBe("expired");
    const [pastListed] = (await user.listApiKeys()).filter((k) => k.id === past.id);
    await pastListed!.revoke();
    const [after] = (await user.listApiKeys()).filter((k) => k.id === past.id);
    expect(after?.manuallyRevokedAt).toBeInstanceOf(Date);
    expect(after?.whyInvalid()).toBe("expired");
  });

  it("a team object creates and lists team keys; the server validates them separately from user keys", async () => {
    const { p, server, user } = await setup();
    const created = await call("/teams", { ...p.server, body: { display_name: "SDK team", creator_user_id: user.id } });
    const teamId: string = created.body.id;
    // Granted explicitly, so the test does not depend on the project's default team permissions.
    await call(`/team-permissions/${teamId}/${user.id}/$manage_api_keys`, { ...p.server, method: "POST", body: {} });
    const team = await user.getTeam(teamId);
    if (!team) throw new Error("team not visible to its creator");
    const first = await team.createApiKey({ description: "bot", expiresAt: null });
    expect(first).toMatchObject({ type: "team", teamId, description: "bot" });
    expect(first.value).toMatch(/team[0-9a-z]574ck4u7h[0-9a-f]{8}$/);
    const listed = await team.listApiKeys();
    expect(listed.map((k) => [k.id, k.value.lastFour])).toEqual([[first.id, first.value.slice(-4)]]);

    const teamKey = await server.validateTeamApiKey(first.value);
    expect(teamKey).toMatchObject({ type: "team", teamId, description: "bot" });
    // A team key is not a user key (WRONG_API_KEY_TYPE is in the API_KEY_NOT_VALID family).
    expect(await server.validateUserApiKey(first.value)).toBeNull();
    const userKey = await user.createApiKey({ description: "mine", expiresAt: null });
    expect(await server.validateTeamApiKey(userKey.value)).toBeNull();

    // The server's team object manages keys too.
    const serverTeam = await server.getTeam(teamId);
    await (await serverTeam!.listApiKeys())[0]!.revoke();
    expect(await server.validateTeamApiKey(first.value)).toBeNull();
  });

  it("surfaces the flag gate as an error", async () => {
    const p = await createProjectWithKeys();
    const client = new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
    await client.signUpWithCredential({ email: uniqueEmail("nokeys"), password: "sdk password 1", noRedirect: true });
    const user = await client.getUser({ or: "throw" });
    await expect(user!.createApiKey({ description: "x", expiresAt: null })).rejects.toThrow(
      "User API keys are not enabled for this project.",
    );
  });
});
