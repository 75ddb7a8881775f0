/** SDK email flows against the real worker: magic link, reset, verification, channels, notifications. */

import { describe, expect, it } from "vitest";
import { StackClientApp } from "../../sdk/src";
import { uniqueEmail } from "../helpers/api";
import { codeFrom, waitForOutbox } from "../helpers/mail";
import { handlerUrl, internalMemoryApp } from "../helpers/sdk-apps";
import { workerFetch } from "../helpers/worker-fetch";

const app = internalMemoryApp;
const cb = handlerUrl;

describe("SDK email flows", () => {
  it("magic link: typed OTP + nonce signs up, then the link signs in", async () => {
    const client = app();
    const email = uniqueEmail("sdk-magic");
    const sent = await client.sendMagicLinkEmail(email, { callbackUrl: cb("magic-link-callback") });
    expect(sent.status).toBe("ok");
    const [mail] = await waitForOutbox(email);
    const otp = /Your code is ([A-Z0-9]{6})/.exec(mail!.subject)![1]!;
    const wrong = await client.signInWithMagicLink(`zzzzzz${sent.status === "ok" ? sent.data.nonce : ""}`, { noRedirect: true });
    expect(wrong.status === "error" && wrong.error.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    const signed = await client.signInWithMagicLink(`${otp}${sent.status === "ok" ? sent.data.nonce : ""}`, { noRedirect: true });
    expect(signed.status).toBe("ok");
    const user = await client.getUser({ or: "throw" });
    expect(user?.primaryEmail).toBe(email);
    expect(user?.primaryEmailVerified).toBe(true);

    const other = app();
    await other.sendMagicLinkEmail(email, { callbackUrl: cb("magic-link-callback") });
    const mails = await waitForOutbox(email, 2);
    expect((await other.signInWithMagicLink(codeFrom(mails[1]!), { noRedirect: true })).status).toBe("ok");
    expect((await other.getUser())?.id).toBe(user?.id);
  });

  it("forgot password: check, reset, replay is a value", async () => {
    const client = app();
    const email = uniqueEmail("sdk-reset");
    await client.signUpWithCredential({
      email,
      password: "old password 1",
      noRedirect: true,
      verificationCallbackUrl: cb("email-verification"),
    });
    expect((await client.sendForgotPasswordEmail(email, { callbackUrl: cb("password-reset") })).status).toBe("ok");
    let resetMail: { subject: string; text: string } | undefined;
    for (let i = 0; i < 50 && !resetMail; i++) {
      resetMail = (await waitForOutbox(email)).find((m) => m.subject.startsWith("Reset your password"));
      if (!resetMail) await new Promise((r) => setTimeout(r, 100));
    }
    const code = codeFrom(resetMail as never);
    expect((await client.verifyPasswordResetCode(code)).status).toBe("ok");
    expect((await client.resetPassword({ code, password: "new password 2" })).status).toBe("ok");
    const replay = await client.resetPassword({ code, password: "new password 3" });
    expect(replay.status === "error" && replay.error.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    expect((await app().signInWithCredential({ email, password: "new password 2", noRedirect: true })).status).toBe("ok");
  });

  it("contact channels: add, verify by link, make primary, remove; notifications toggle", async () => {
    const client = app();
    const email = uniqueEmail("sdk-channels");
    await client.signUpWithCredential({
      email,
      password: "channel password",
      noRedirect: true,
      verificationCallbackUrl: cb("email-verification"),
    });
    const user = (await client.getUser({ or: "throw" }))!;
    const verifyMail = (await waitForOutbox(email)).find((m) => m.subject.startsWith("Verify your email"))!;
    expect((await client.verifyEmail(codeFrom(verifyMail))).status).toBe("ok");
    expect((await client.getUser())?.primaryEmailVerified).toBe(true);

    const extra = uniqueEmail("sdk-extra");
    const channel = await user.createContactChannel({ value: extra, usedForAuth: false });
    expect(channel.isVerified).toBe(false);
    expect((await channel.sendVerificationEmail({ callbackUrl: cb("email-verification") })).status).toBe("ok");
    const [extraMail] = await waitForOutbox(extra);
    expect((await client.verifyEmail(codeFrom(extraMail!))).status).toBe("ok");
    await channel.update({ isPrimary: true });
    expect((await client.getUser())?.primaryEmail).toBe(extra);
    const channels = await user.listContactChannels();
    expect(channels.map((c) => [c.value, c.isPrimary, c.isVerified])).toEqual([
      [email, false, true],
      [extra, true, true],
    ]);
    await channels[0]!.delete();
    expect(await user.listContactChannels()).toHaveLength(1);

    const categories = await user.listNotificationCategories();
    const marketing = categories.find((c) => c.canDisable)!;
    await marketing.setEnabled(true);
    expect((await user.listNotificationCategories()).find((c) => c.id === marketing.id)?.enabled).toBe(true);
  });
});

describe("admin email log", () => {
  it("lists a project's emails newest first through the owner's admin app", async () => {
    const owner = app();
    await owner.signUpWithCredential({ email: uniqueEmail("log-owner"), password: "owner password 1", noRedirect: true });
    const project = await (await owner.getUser({ or: "throw" }))!.createProject({
      displayName: "Log project",
      config: { magicLinkEnabled: true },
    });
    const keys = await project.app.createInternalApiKey({
      description: "k",
      expiresAt: new Date(Date.now() + 86_400_000),
      hasPublishableClientKey: true,
      hasSecretServerKey: false,
      hasSuperSecretAdminKey: false,
    });
    const endUser = new StackClientApp({
      baseUrl: "http://localhost",
      fetch: (input, init) => workerFetch(input, init),
      redirectMethod: "none",
      projectId: project.id,
      publishableClientKey: keys.publishableClientKey,
      tokenStore: "memory",
    });
    const first = uniqueEmail("log-a");
    const second = uniqueEmail("log-b");
    await endUser.sendMagicLinkEmail(first, { callbackUrl: cb("magic-link-callback") });
    await endUser.sendMagicLinkEmail(second, { callbackUrl: cb("magic-link-callback") });
    await waitForOutbox(second);
    let log = await project.app.listSentEmails();
    for (let i = 0; i < 20 && log.some((e) => e.status === "queued"); i++) log = await project.app.listSentEmails();
    expect(log.map((e) => e.to[0])).toEqual([second, first]);
    expect(log[0]).toMatchObject({ status: "sent", error: null });
    expect(log[0]!.subject).toMatch(/^Sign in to Log project: Your code is /);
  });
});
