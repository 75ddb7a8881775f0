/**
 * Wire compatibility: the published Stack Auth SDK (@stackframe/js) against a real Doorman
 * worker (wrangler dev on loopback, fresh state). Run by `npm test` via scripts/test.mjs.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { StackClientApp, StackServerApp } from "@stackframe/js";
import { routeInternalMailTo, startMail } from "../e2e/mail.mjs";
import { startWorker } from "../helpers/worker-process.mjs";

const PCK = "this-publishable-client-key-is-for-local-development-only";
const CALLBACK = "http://localhost:8788/handler/email-verification";
let worker;
let baseUrl;
let mailSink;

before(async () => {
  worker = await startWorker();
  baseUrl = worker.url;
  // The email log keeps codes redacted: read the real mail from an SMTP sink, as a recipient would.
  mailSink = await startMail();
  await routeInternalMailTo(baseUrl, mailSink.port);
});
after(async () => {
  await worker?.stop();
  await mailSink?.stop();
});

const email = (tag) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
const clientApp = (projectId, publishableClientKey, tokenStore = "memory") =>
  new StackClientApp({ baseUrl, projectId, publishableClientKey, tokenStore, redirectMethod: "none" });

test("owner flow: sign up on internal, update, create a project, mint keys", async () => {
  const client = clientApp("internal", PCK);
  const address = email("owner");
  const signUp = await client.signUpWithCredential({
    email: address,
    password: "compat password 1",
    noRedirect: true,
    verificationCallbackUrl: CALLBACK,
  });
  assert.equal(signUp.status, "ok");
  const user = await client.getUser({ or: "throw" });
  assert.equal(user.primaryEmail, address);
  assert.equal(user.hasPassword, true);
  await user.update({ displayName: "Compat Owner" });
  assert.equal((await client.getUser()).displayName, "Compat Owner");

  const project = await user.createProject({ displayName: "Compat project" });
  assert.match(project.id, /^[0-9a-f-]{36}$/);
  const owned = await user.listOwnedProjects();
  assert.deepEqual(
    owned.map((p) => p.id),
    [project.id],
  );

  await project.update({ displayName: "Renamed", config: { signUpEnabled: true, credentialEnabled: true } });
  const admin = await project.app.getProject();
  assert.equal(admin.displayName, "Renamed");

  const keys = await project.app.createInternalApiKey({
    description: "compat",
    expiresAt: new Date(Date.now() + 86_400_000),
    hasPublishableClientKey: true,
    hasSecretServerKey: true,
    hasSuperSecretAdminKey: false,
  });
  assert.match(keys.publishableClientKey, /^pck_/);
  assert.match(keys.secretServerKey, /^ssk_/);
  const listed = await project.app.listInternalApiKeys();
  assert.equal(listed.length, 1);

  // A back end manages that project's users with the secret key.
  const server = new StackServerApp({
    baseUrl,
    projectId: project.id,
    publishableClientKey: keys.publishableClientKey,
    secretServerKey: keys.secretServerKey,
    tokenStore: "memory",
  });
  const member = email("member");
  const created = await server.createUser({
    primaryEmail: member,
    password: "member password 1",
    primaryEmailAuthEnabled: true,
    displayName: "Member",
  });
  assert.equal(created.primaryEmail, member);
  await created.update({ serverMetadata: { plan: "pro" } });
  const fetched = await server.getUser(created.id);
  assert.deepEqual(fetched.serverMetadata, { plan: "pro" });
  assert.equal((await server.listUsers({ limit: 10 })).length, 1);
  assert.equal(await server.getUser("6f1a4f0e-3b5d-4c1e-9a7b-000000000000"), null);

  // The data vault: a store of the config, values by key and secret (hashed and encrypted by the SDK).
  await admin.updateConfig({ "dataVault.stores.compat-store": { displayName: "Compat store" } });
  const vault = await server.getDataVaultStore("compat-store");
  await vault.setValue("user:1", "vault value 🔐", { secret: "compat secret" });
  assert.equal(await vault.getValue("user:1", { secret: "compat secret" }), "vault value 🔐");
  assert.equal(await vault.getValue("user:1", { secret: "another secret" }), null);
  assert.equal(await vault.getValue("user:2", { secret: "compat secret" }), null);

  // End users of that project sign in with the publishable key.
  const app = clientApp(project.id, keys.publishableClientKey);
  // A new project starts with new-device verification on (issue 29). The published SDK sends no device token
  // and has no code step, so its password sign-ins wait for an emailed code; it does not know Doorman's
  // DEVICE_VERIFICATION_REQUIRED and throws it ("update your version"). An app on the Stack SDK turns the check off.
  await assert.rejects(
    app.signInWithCredential({ email: member, password: "member password 1", noRedirect: true }),
    /DEVICE_VERIFICATION_REQUIRED/,
  );
  await admin.updateConfig({ "doorman.protection.newDeviceVerification.enabled": false });
  const bad = await app.signInWithCredential({ email: member, password: "wrong password 1", noRedirect: true });
  assert.equal(bad.status, "error");
  assert.equal(bad.error.errorCode, "EMAIL_PASSWORD_MISMATCH");
  const good = await app.signInWithCredential({ email: member, password: "member password 1", noRedirect: true });
  assert.equal(good.status, "ok");
  const me = await app.getUser({ or: "throw" });
  assert.equal(me.id, created.id);

  // A new app holding only the refresh token refreshes through /auth/oauth/token.
  const { refreshToken } = await me.getAuthJson();
  const fromRefresh = clientApp(project.id, keys.publishableClientKey, { accessToken: null, refreshToken });
  assert.equal((await fromRefresh.getUser({ or: "throw" })).id, created.id);

  await me.signOut({ redirectUrl: "/" });
  assert.equal(await app.getUser(), null);
  const dead = clientApp(project.id, keys.publishableClientKey, { accessToken: null, refreshToken });
  assert.equal(await dead.getUser(), null);

  await created.delete();
  assert.equal(await server.getUser(created.id), null);
});

test("duplicate sign-up is USER_EMAIL_ALREADY_EXISTS; anonymous users upgrade in place", async () => {
  const client = clientApp("internal", PCK);
  const address = email("dup");
  assert.equal(
    (
      await client.signUpWithCredential({
        email: address,
        password: "compat password 1",
        noRedirect: true,
        verificationCallbackUrl: CALLBACK,
      })
    ).status,
    "ok",
  );
  const other = clientApp("internal", PCK);
  const dup = await other.signUpWithCredential({
    email: address,
    password: "compat password 1",
    noRedirect: true,
    verificationCallbackUrl: CALLBACK,
  });
  assert.equal(dup.status, "error");
  assert.equal(dup.error.errorCode, "USER_EMAIL_ALREADY_EXISTS");

  const anonApp = clientApp("internal", PCK);
  const anon = await anonApp.getUser({ or: "anonymous" });
  assert.equal(anon.isAnonymous, true);
  const upgraded = await anonApp.signUpWithCredential({
    email: email("anon"),
    password: "compat password 1",
    noRedirect: true,
    verificationCallbackUrl: CALLBACK,
  });
  assert.equal(upgraded.status, "ok");
  const after = await anonApp.getUser({ or: "throw" });
  assert.equal(after.id, anon.id);
  assert.equal(after.isAnonymous, false);
});

/** The newest email to an address (whose subject matches), as the SMTP sink received it. */
function latestEmailTo(address, subject = /./) {
  return mailSink.waitFor(address, subject);
}

test("magic link and password reset through the Stack SDK", async () => {
  const client = clientApp("internal", PCK);
  const address = email("magic");
  const sent = await client.sendMagicLinkEmail(address, { callbackUrl: "http://localhost:8788/handler/magic-link-callback" });
  assert.equal(sent.status, "ok");
  const mail = await latestEmailTo(address);
  assert.match(mail.subject, /^Sign in to Doorman: Your code is [A-Z0-9]{6}$/);
  const code = /[?&]code=([a-z0-9]+)/.exec(mail.text)[1];
  assert.equal(code.slice(6), sent.data.nonce);
  const signedIn = await client.signInWithMagicLink(code, { noRedirect: true });
  assert.equal(signedIn.status, "ok");
  const user = await client.getUser({ or: "throw" });
  assert.equal(user.primaryEmail, address);
  assert.equal(user.primaryEmailVerified, true);

  // Reset: the user has no password yet; set one via reset, then sign in with it.
  const forgot = await client.sendForgotPasswordEmail(address, { callbackUrl: "http://localhost:8788/handler/password-reset" });
  assert.equal(forgot.status, "ok");
  const resetMail = await latestEmailTo(address, /^Reset your password/);
  const resetCode = /[?&]code=([a-z0-9]+)/.exec(resetMail.text)[1];
  assert.equal((await client.verifyPasswordResetCode(resetCode)).status, "ok");
  assert.equal((await client.resetPassword({ code: resetCode, password: "reset via sdk 1" })).status, "ok");
  const replay = await client.resetPassword({ code: resetCode, password: "reset via sdk 2" });
  assert.equal(replay.status, "error");
  assert.equal(replay.error.errorCode, "VERIFICATION_CODE_ALREADY_USED");
  const fresh = clientApp("internal", PCK);
  assert.equal((await fresh.signInWithCredential({ email: address, password: "reset via sdk 1", noRedirect: true })).status, "ok");
});
