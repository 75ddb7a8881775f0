/**
 * Emailed links that survive mail scanners: the SDK's check methods do not use the code (the
 * page asks for a click first), and the handler pages' wording for used, expired and untrusted
 * links and for the server-rendered first state.
 */

import { KnownError } from "@doorman/shared/known-errors";
import { describe, expect, it } from "vitest";
import { emailLinkErrorMessage, linkProblem } from "../../sdk/src/react/components/code-messages";
import { ReloadingStore } from "../../sdk/src/react/reloading-store";
import { hasSessionCookie } from "../../web/app/lib/handler-session";
import { uniqueEmail } from "../helpers/api";
import { codeFrom, waitForOutbox } from "../helpers/mail";
import { handlerUrl, internalMemoryApp } from "../helpers/sdk-apps";

const app = internalMemoryApp;
const cb = handlerUrl;
const errorCode = (result: { status: string; error?: { code?: string } }) => (result.status === "error" ? result.error?.code : "ok");

describe("emailed links are checked without being used", () => {
  it("a magic link checked twice (a scanner, then the page) still signs in once", async () => {
    const client = app();
    const email = uniqueEmail("link-magic");
    expect((await client.sendMagicLinkEmail(email, { callbackUrl: cb("magic-link-callback") })).status).toBe("ok");
    const [mail] = await waitForOutbox(email);
    const code = codeFrom(mail!);
    expect(errorCode(await client.checkMagicLinkCode(code))).toBe("ok");
    expect(errorCode(await client.checkMagicLinkCode(code))).toBe("ok");
    expect(errorCode(await client.signInWithMagicLink(code, { noRedirect: true }))).toBe("ok");
    const again = await app().checkMagicLinkCode(code);
    expect(errorCode(again)).toBe("VERIFICATION_CODE_ALREADY_USED");
    expect(again.status === "error" && linkProblem(again.error, "magic-link")).toEqual({
      message: "This link was already used.",
      next: "sign-in",
    });
  });

  it("an email-verification link checked first still verifies on the click", async () => {
    const client = app();
    const email = uniqueEmail("link-verify");
    await client.signUpWithCredential({
      email,
      password: "verify password 1",
      noRedirect: true,
      verificationCallbackUrl: cb("email-verification"),
    });
    const mail = (await waitForOutbox(email)).find((m) => m.subject.startsWith("Verify your email"))!;
    const code = codeFrom(mail);
    expect(errorCode(await client.checkEmailVerificationCode(code))).toBe("ok");
    expect((await client.getUser())?.primaryEmailVerified).toBe(false);
    expect(errorCode(await client.verifyEmail(code))).toBe("ok");
    expect((await client.getUser())?.primaryEmailVerified).toBe(true);
    const used = await client.checkEmailVerificationCode(code);
    expect(used.status === "error" && linkProblem(used.error, "email-verification").next).toBe("account-settings");
  });

  it("an unknown code reads as an invalid link with a way to get a new one", async () => {
    const result = await app().checkMagicLinkCode("a".repeat(45));
    expect(errorCode(result)).toBe("VERIFICATION_CODE_NOT_FOUND");
    expect(result.status === "error" && linkProblem(result.error, "magic-link").next).toBe("new-link");
  });
});

describe("handler page messages", () => {
  it("expired and over-tried links say so and offer a new one; other errors keep their message", () => {
    expect(linkProblem(new KnownError("VERIFICATION_CODE_EXPIRED"), "password-reset")).toEqual({
      message: "This link expired.",
      next: "new-link",
    });
    expect(linkProblem(new KnownError("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED"), "magic-link").next).toBe("new-link");
    expect(linkProblem(new Error("Too many attempts, try again in 12 s."), "magic-link")).toEqual({
      message: "Too many attempts, try again in 12 s.",
      next: "retry",
    });
  });

  it("an untrusted callback names its domain and where to add it", async () => {
    const sent = await app().sendMagicLinkEmail(uniqueEmail("link-untrusted"), {
      callbackUrl: "https://evil.example/handler/magic-link-callback",
    });
    expect(errorCode(sent)).toBe("REDIRECT_URL_NOT_WHITELISTED");
    const message = emailLinkErrorMessage(sent.status === "error" ? sent.error : null, "https://evil.example/handler/magic-link-callback");
    expect(message).toBe(
      "evil.example is not a trusted domain of this project. If you run this site, add evil.example under Domains in the Doorman console.",
    );
    expect(message).not.toMatch(/Stack/);
  });

  it("a session cookie (access or refresh) means the server cannot know the user", () => {
    expect(hasSessionCookie(null)).toBe(false);
    expect(hasSessionCookie("theme=dark; stack-access=; stack-refresh-internal=undefined")).toBe(false);
    expect(hasSessionCookie("theme=dark; stack-refresh-internal=abc")).toBe(true);
    expect(hasSessionCookie("stack-access=eyJ")).toBe(true);
    expect(hasSessionCookie("stack-refresh-other-project=abc")).toBe(false);
  });

  it("a seeded store answers at once and is replaced by a real read", async () => {
    let reads = 0;
    const store = new ReloadingStore<string | null>(
      async () => `user-${++reads}`,
      null,
      "test value",
      () => [],
    );
    store.seed(null);
    expect(store.getSnapshot()).toEqual({ status: "ready", value: null });
    store.seed("ignored");
    expect(store.getSnapshot()).toEqual({ status: "ready", value: null });
    await store.refresh();
    expect(store.getSnapshot()).toEqual({ status: "ready", value: "user-1" });
  });
});
