/** The SDK's apps against the real worker (inside workerd, through workerFetch). */

import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { describe, expect, it } from "vitest";
import { StackAdminApp, StackClientApp, StackServerApp } from "../../sdk/src";
import { DEV_SECRET_SERVER_KEY } from "../../worker/internal-seed";
import { uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const };
const internalClient = () =>
  new StackClientApp({ ...base, projectId: "internal", publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY, tokenStore: "memory" });

describe("client app", () => {
  it("signs up, reads and updates the user, signs out", async () => {
    const app = internalClient();
    const email = uniqueEmail("sdk");
    const result = await app.signUpWithCredential({
      email,
      password: "sdk password 1",
      noRedirect: true,
      verificationCallbackUrl: "http://localhost/handler/email-verification",
    });
    expect(result.status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect(user?.primaryEmail).toBe(email);
    expect(user?.selectedTeam?.displayName).toBe(`${email}'s Team`);
    await user!.update({ displayName: "Ada", clientMetadata: { theme: "dark" } });
    const again = await app.getUser();
    expect(again?.displayName).toBe("Ada");
    expect(again?.clientMetadata).toEqual({ theme: "dark" });
    const sessions = await again!.listSessions();
    expect(sessions.filter((s) => s.isCurrentSession)).toHaveLength(1);
    await app.signOut();
    expect(await app.getUser()).toBeNull();
  });

  it("returns expected failures as values with known-error codes", async () => {
    const app = internalClient();
    const email = uniqueEmail("sdk");
    const wrong = await app.signInWithCredential({ email, password: "nobody has this", noRedirect: true });
    expect(wrong.status).toBe("error");
    if (wrong.status === "error") {
      expect(wrong.error.code).toBe("EMAIL_PASSWORD_MISMATCH");
      expect(wrong.error.is("EMAIL_PASSWORD_MISMATCH")).toBe(true);
    }
    const short = await app.signUpWithCredential({ email, password: "short", noRedirect: true });
    expect(short.status === "error" && short.error.code).toBe("PASSWORD_TOO_SHORT");
    expect(short.status === "error" && short.error.details).toEqual({ min_length: 8 });
  });

  it("implements the four getUser options and one anonymous sign-up in flight", async () => {
    const app = internalClient();
    expect(await app.getUser()).toBeNull();
    expect(await app.getUser({ or: "return-null" })).toBeNull();
    await expect(app.getUser({ or: "throw" })).rejects.toThrow("User is not signed in but getUser was called with { or: 'throw' }");
    const [a, b] = await Promise.all([app.getUser({ or: "anonymous" }), app.getUser({ or: "anonymous" })]);
    expect(a?.isAnonymous).toBe(true);
    expect(a?.id).toBe(b?.id);
    // Anonymous users count as signed out unless asked for.
    expect(await app.getUser()).toBeNull();
  });

  it("refreshes an expired access token from the refresh token", async () => {
    const first = internalClient();
    await first.signUpWithCredential({ email: uniqueEmail("refresh"), password: "sdk password 1", noRedirect: true });
    const { refreshToken } = first._session.tokens();
    const second = new StackClientApp({
      ...base,
      projectId: "internal",
      publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY,
      tokenStore: { accessToken: null, refreshToken },
    });
    const user = await second.getUser({ or: "throw" });
    expect(user?.id).toBe((await first.getUser())?.id);
    expect(second._session.tokens().accessToken).toBeTruthy();
  });

  it("treats a dead refresh token as signed out and clears both tokens", async () => {
    const app = new StackClientApp({ ...base, projectId: "internal", tokenStore: { accessToken: null, refreshToken: "a".repeat(45) } });
    expect(await app.getUser()).toBeNull();
    expect(app._session.tokens()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("reads tokens from a request's x-stack-auth header", async () => {
    const app = internalClient();
    await app.signUpWithCredential({ email: uniqueEmail("ssr"), password: "sdk password 1", noRedirect: true });
    const headers = await (await app.getUser())!.getAuthHeaders();
    const request = new Request("http://app.example/page", { headers });
    const ssr = new StackClientApp({ ...base, projectId: "internal", tokenStore: request });
    expect((await ssr.getUser())?.id).toBe((await app.getUser())?.id);
  });

  it("refuses to sign in without a persistent token store", async () => {
    const app = new StackClientApp({ ...base, projectId: "internal", tokenStore: null });
    await expect(app.signInWithCredential({ email: uniqueEmail(), password: "whatever123", noRedirect: true })).rejects.toThrow(
      /persistent token store/,
    );
  });

  it("reads the project's public configuration", async () => {
    const project = await internalClient().getProject();
    expect(project.id).toBe("internal");
    expect(project.config.sign_up_enabled).toBe(true);
  });
});

describe("owners, admin and server apps", () => {
  it("creates a project as an owner, mints keys, and manages its users with them", async () => {
    const owner = internalClient();
    await owner.signUpWithCredential({ email: uniqueEmail("owner"), password: "owner password 1", noRedirect: true });
    const me = (await owner.getUser({ or: "throw" }))!;
    const project = await me.createProject({ displayName: "SDK project", config: { signUpEnabled: true } });
    expect((await me.listOwnedProjects()).map((p) => p.id)).toEqual([project.id]);

    await project.update({ displayName: "Renamed", config: { clientUserDeletionEnabled: true } });
    const fresh = await project.app.getProject();
    expect(fresh.displayName).toBe("Renamed");
    expect(fresh.config.clientUserDeletionEnabled).toBe(true);

    const keys = await project.app.createInternalApiKey({
      description: "sdk",
      expiresAt: new Date(Date.now() + 86_400_000),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: true,
    });
    expect(keys.publishableClientKey).toMatch(/^pck_/);
    const listed = await project.app.listInternalApiKeys();
    expect(listed[0]?.secretServerKey?.lastFour).toBe(keys.secretServerKey!.slice(-4));
    expect(listed[0]?.isValid()).toBe(true);

    const server = new StackServerApp({ ...base, projectId: project.id, secretServerKey: keys.secretServerKey!, tokenStore: "memory" });
    const created = await server.createUser({ primaryEmail: uniqueEmail("managed"), password: "managed password", displayName: "Managed" });
    await created.update({ serverMetadata: { plan: "pro" } });
    expect((await server.getUser(created.id))?.serverMetadata).toEqual({ plan: "pro" });
    expect(await server.getUser("6f1a4f0e-3b5d-4c1e-9a7b-000000000000")).toBeNull();
    const tokens = await created.createSession({ isImpersonation: true });
    expect(tokens.refreshToken).toHaveLength(45);
    expect((await created.listSessions())[0]?.isImpersonation).toBe(true);

    for (let i = 0; i < 3; i++) await server.createUser({ primaryEmail: uniqueEmail("page") });
    const page1 = await server.listUsers({ limit: 2 });
    expect(page1).toHaveLength(2);
    expect(page1.nextCursor).toBeTruthy();
    const page2 = await server.listUsers({ limit: 2, cursor: page1.nextCursor! });
    expect(page2).toHaveLength(2);
    expect(page2.nextCursor).toBeNull();

    const adminByKey = new StackAdminApp({ ...base, projectId: project.id, superSecretAdminKey: keys.superSecretAdminKey! });
    expect((await adminByKey.getProject()).id).toBe(project.id);
    await created.delete();
    expect(await adminByKey.getUser(created.id)).toBeNull();

    await listed[0]!.revoke();
    await expect(server.listUsers()).rejects.toMatchObject({ code: "INVALID_SECRET_SERVER_KEY" });
  });

  it("an owner reads and overrides the config with dotted keys, sees the overview counts, and invites by email", async () => {
    const owner = internalClient();
    await owner.signUpWithCredential({ email: uniqueEmail("config-owner"), password: "owner password 1", noRedirect: true });
    const me = (await owner.getUser({ or: "throw" }))!;
    const project = await me.createProject({
      displayName: "Config project",
      config: { domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }] },
    });
    await project.updateConfig({ "auth.passkey.allowSignIn": true, "teams.allowClientTeamCreation": true });
    const config = (await project.getConfig()) as { auth: { passkey: { allowSignIn: boolean } } };
    expect(config.auth.passkey.allowSignIn).toBe(true);
    const fresh = await project.app.getProject();
    expect(fresh.config.passkeyEnabled).toBe(true);
    expect(fresh.config.clientTeamCreationEnabled).toBe(true);
    // A config error is a plain-text 400, as the reference answers it (no known-error code).
    await expect(project.updateConfig({ "auth.nope": true })).rejects.toMatchObject({ status: 400, body: "Unknown config key: auth.nope" });
    await project.resetConfigOverrideKeys("environment", ["auth.passkey"]);
    expect(((await project.getConfig()) as { auth: { passkey: { allowSignIn: boolean } } }).auth.passkey.allowSignIn).toBe(false);
    expect(await project.getPushedConfigSource()).toEqual({ type: "unlinked" });
    await project.unlinkPushedConfigSource();

    expect(await project.app.getProjectStats()).toEqual({
      userCount: 0,
      anonymousUserCount: 0,
      teamCount: 0,
      signUpsToday: 0,
      activeSessionCount: 0,
      aiUsage: { requests: 0, promptTokens: 0, completionTokens: 0 },
      // No model configured (no Workers AI binding in tests, none in the project's settings).
      aiConfigured: false,
    });
    await project.app.sendSignInInvitation({ email: uniqueEmail("invitee"), callbackUrl: "https://app.example.com/welcome" });
    // The invitation goes through the outbox: its log entry appears once the queue has sent it.
    let sent = await project.app.listSentEmails();
    for (let i = 0; i < 100 && sent.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      sent = await project.app.listSentEmails();
    }
    expect(sent[0]?.subject).toBe("You have been invited to Config project");
    await expect(
      project.app.sendSignInInvitation({ email: uniqueEmail(), callbackUrl: "https://elsewhere.example.net/" }),
    ).rejects.toMatchObject({
      code: "REDIRECT_URL_NOT_WHITELISTED",
    });
  });

  it("the internal project's server key manages internal users", async () => {
    const server = new StackServerApp({ ...base, projectId: "internal", secretServerKey: DEV_SECRET_SERVER_KEY, tokenStore: "memory" });
    const user = await server.createUser({ primaryEmail: uniqueEmail("internal") });
    expect(user.selectedTeam).not.toBeNull();
  });
});

describe("password management", () => {
  it("updates the password with a Result and reports a wrong old password as a value", async () => {
    const app = internalClient();
    const email = uniqueEmail("pw");
    await app.signUpWithCredential({ email, password: "first password 1", noRedirect: true });
    const user = (await app.getUser({ or: "throw" }))!;
    const wrong = await user.updatePassword({ oldPassword: "not the password", newPassword: "second password 2" });
    expect(wrong.status === "error" && wrong.error.code).toBe("PASSWORD_CONFIRMATION_MISMATCH");
    expect((await user.updatePassword({ oldPassword: "first password 1", newPassword: "second password 2" })).status).toBe("ok");
    // A user who already has a password cannot "set" one: a plain 400 on the wire, so the SDK throws.
    await expect(user.setPassword({ password: "third password 3" })).rejects.toThrow(/already has a password/);
    const again = internalClient();
    expect((await again.signInWithCredential({ email, password: "second password 2", noRedirect: true })).status).toBe("ok");
  });
});
