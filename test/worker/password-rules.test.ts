/**
 * The password rules beyond length (ASVS 6.1.2, 6.2.4, 6.2.11): the most common passwords and the
 * context-specific words are refused as PASSWORD_REQUIREMENTS_NOT_MET wherever a new password is
 * accepted; an imported password hash is not checked.
 */

import { KnownError, PASSWORD_RULE_MESSAGES } from "@doorman/shared/known-errors";
import { describe, expect, it } from "vitest";
import { errorsFromResult } from "../../sdk/src/react/components/credential-errors";
import { COMMON_PASSWORD_COUNT } from "../../worker/crypto/common-passwords.generated";
import { contextWords, isCommonPassword } from "../../worker/services/auth/password-rules";
import { type CallResult, call, createProjectWithKeys, internalClient, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";

const CALLBACK = "http://localhost:3000/handler/password-reset";
const GOOD = "quiet lantern orbit 42";
const TOO_COMMON = {
  code: "PASSWORD_REQUIREMENTS_NOT_MET",
  error: PASSWORD_RULE_MESSAGES.tooCommon,
  details: { message: PASSWORD_RULE_MESSAGES.tooCommon },
};
const CONTEXT_WORD = {
  code: "PASSWORD_REQUIREMENTS_NOT_MET",
  error: PASSWORD_RULE_MESSAGES.contextWord,
  details: { message: PASSWORD_RULE_MESSAGES.contextWord },
};

function expectRefused(res: CallResult, body: { code: string; error: string; details: { message: string } }) {
  expect(res.status).toBe(400);
  expect(res.headers.get("x-stack-known-error")).toBe("PASSWORD_REQUIREMENTS_NOT_MET");
  expect(res.body).toEqual(body);
}

/** A local part no other test uses, without digits-only runs that could look like a common password. */
const localPart = (name: string) => `${name}${Math.random().toString(36).slice(2, 8).replace(/\d/g, "q")}`;

describe("common passwords (ASVS 6.2.4)", () => {
  it("the bundled list holds 10,000 passwords of 8+ characters, checked without case", () => {
    expect(COMMON_PASSWORD_COUNT).toBe(10_000);
    for (const common of ["password", "12345678", "password123", "iloveyou", "qwertyuiop", "trustno1"]) {
      expect(isCommonPassword(common)).toBe(true);
    }
    expect(isCommonPassword(GOOD)).toBe(false);
  });

  it("sign-up refuses a common password with the exact error, in any case, and accepts a good one", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("common");
    for (const password of ["password123", "PassWord123", "iloveyou", "12345678"]) {
      expectRefused(await call("/auth/password/sign-up", { ...p.client, body: { email, password } }), TOO_COMMON);
    }
    // Refused, the address is still free: the good password signs it up.
    const ok = await call("/auth/password/sign-up", { ...p.client, body: { email, password: GOOD } });
    expect(ok.status).toBe(200);
    // Length comes first, as before.
    expect((await call("/auth/password/sign-up", { ...p.client, body: { email: uniqueEmail(), password: "1234567" } })).body.code).toBe(
      "PASSWORD_TOO_SHORT",
    );
  });

  it("password update, PATCH /users/me and set refuse a common password", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const update = await call("/auth/password/update", {
      ...p.client,
      accessToken: user.accessToken,
      body: { old_password: user.password, new_password: "football" },
    });
    expectRefused(update, TOO_COMMON);
    const me = await call("/users/me", { ...p.server, method: "PATCH", accessToken: user.accessToken, body: { password: "sunshine1" } });
    expectRefused(me, TOO_COMMON);
    // The old password still works: nothing was changed.
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } })).status).toBe(200);
    const changed = await call("/auth/password/update", {
      ...p.client,
      accessToken: user.accessToken,
      body: { old_password: user.password, new_password: GOOD },
    });
    expect(changed.body).toEqual({ success: true });

    const created = await call("/users", { ...p.server, body: { primary_email: uniqueEmail("nopw") } });
    const session = await call("/auth/sessions", { ...p.server, body: { user_id: created.body.id } });
    const set = (password: string) =>
      call("/auth/password/set", { ...p.client, accessToken: session.body.access_token, body: { password } });
    expectRefused(await set("baseball1"), TOO_COMMON);
    expect((await set(GOOD)).body).toEqual({ success: true });
  });

  it("server create and update refuse a common password; an imported hash is not checked", async () => {
    const p = await createProjectWithKeys();
    expectRefused(await call("/users", { ...p.server, body: { primary_email: uniqueEmail(), password: "qwertyuiop" } }), TOO_COMMON);
    const created = await call("/users", { ...p.server, body: { primary_email: uniqueEmail(), password: GOOD } });
    expect(created.status).toBe(201);
    expectRefused(await call(`/users/${created.body.id}`, { ...p.server, method: "PATCH", body: { password: "letmein1" } }), TOO_COMMON);
    // A bcrypt hash (of anything) is an import, not a password typed here.
    const hash = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.xG5N0fTgXQXf5tXbP5w5wQ2cJXnq";
    expect((await call("/users", { ...p.server, body: { primary_email: uniqueEmail(), password_hash: hash } })).status).toBe(201);
    // More than 2^16 rounds would make each sign-in a denial of service: refused as the wire does.
    const costly = await call("/users", {
      ...p.server,
      body: { primary_email: uniqueEmail(), password_hash: hash.replace("$10$", "$17$") },
    });
    expect([costly.status, costly.text]).toEqual([
      400,
      "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.",
    ]);
  });

  it("reset refuses a common password without using the link up", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    await call("/auth/password/send-reset-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(user.email))[0]!);
    expectRefused(await call("/auth/password/reset", { ...p.client, body: { code, password: "password1" } }), TOO_COMMON);
    expect((await call("/auth/password/reset/check-code", { ...p.client, body: { code } })).body).toEqual({ is_code_valid: true });
    expect((await call("/auth/password/reset", { ...p.client, body: { code, password: GOOD } })).body).toEqual({ success: true });
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: GOOD } })).status).toBe(200);
  });
});

describe("the error in the SDK", () => {
  it("rebuilds PASSWORD_REQUIREMENTS_NOT_MET from the wire and shows its message under the password field", async () => {
    const res = await call("/auth/password/sign-up", { ...internalClient, body: { email: uniqueEmail(), password: "whatever1" } });
    expectRefused(res, TOO_COMMON);
    const error = new KnownError(res.body.code, res.body.details, res.body.error);
    expect(error.status).toBe(400);
    expect(error.message).toBe(PASSWORD_RULE_MESSAGES.tooCommon);
    expect(error.is("PASSWORD_REQUIREMENTS_NOT_MET")).toBe(true);
    expect(errorsFromResult(error)).toEqual({ password: PASSWORD_RULE_MESSAGES.tooCommon });
  });
});

describe("context-specific words (ASVS 6.1.2, 6.2.11)", () => {
  it("the documented list: product names, project name, trusted domains' and email's labels, email local part; 4+ characters", () => {
    const words = contextWords({
      project: {
        displayName: "Acme Corp",
        config: { domains: [{ domain: "https://*.shop.acmewidgets.com", handler_path: "/handler" }, { domain: "http://10.0.0.1:3000" }] },
      },
      email: "Jo.Hansen+news@Mail.Example.org",
    });
    expect(words.sort()).toEqual(
      ["acmecorp", "acmewidgets", "doorman", "example", "johansen", "mail", "shop", "stack", "stackauth"].sort(),
    );
    // Short names ban nothing: "Zed" and "bo@ab.io" add no word.
    expect(contextWords({ project: { displayName: "Zed", config: {} }, email: "bo@ab.io" }).sort()).toEqual([
      "doorman",
      "stack",
      "stackauth",
    ]);
  });

  it("sign-up refuses a password containing the project's name, a trusted domain or the email (any case, any separators)", async () => {
    const p = await createProjectWithKeys({ domains: [{ domain: "https://app.lanternworks.dev", handler_path: "/handler" }] });
    const local = localPart("hildegard");
    const email = `${local}@fjordmail.test`;
    // Another address for each try of the project's words: SIGN_UP_PER_EMAIL counts refused sign-ups too.
    for (const password of [
      "My Test-Project rocks!", // the project's display name, "Test project"
      "LanternWorks forever", // a trusted domain's label
      "doorman guards me", // the product's name
    ]) {
      expectRefused(await call("/auth/password/sign-up", { ...p.client, body: { email: uniqueEmail(), password } }), CONTEXT_WORD);
    }
    for (const password of [
      `${local.toUpperCase()} is me`, // the email's local part
      "fjordmail is great", // the email's domain label
    ]) {
      expectRefused(await call("/auth/password/sign-up", { ...p.client, body: { email, password } }), CONTEXT_WORD);
    }
    expect((await call("/auth/password/sign-up", { ...p.client, body: { email, password: GOOD } })).status).toBe(200);
  });

  it("update, server update and reset check the account's own email", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const local = localPart("rosalind");
    const user = await signUp(p.client, `${local}@example.com`, GOOD);
    const withLocal = `${local}-2024!`;
    expectRefused(
      await call("/auth/password/update", {
        ...p.client,
        accessToken: user.accessToken,
        body: { old_password: GOOD, new_password: withLocal },
      }),
      CONTEXT_WORD,
    );
    expectRefused(await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { password: withLocal } }), CONTEXT_WORD);
    // A new email in the same update is the one checked.
    expect(
      (await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { primary_email: uniqueEmail(), password: withLocal } }))
        .status,
    ).toBe(200);
    const other = await signUp(p.client, `${localPart("ottoline")}@example.com`, GOOD);
    await call("/auth/password/send-reset-code", { ...p.client, body: { email: other.email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(other.email))[0]!);
    expectRefused(
      await call("/auth/password/reset", { ...p.client, body: { code, password: `${other.email.split("@")[0]}99` } }),
      CONTEXT_WORD,
    );
    expect((await call("/auth/password/reset/check-code", { ...p.client, body: { code } })).body).toEqual({ is_code_valid: true });
  });

  it("the internal project refuses its own name too", async () => {
    expectRefused(
      await call("/auth/password/sign-up", { ...internalClient, body: { email: uniqueEmail(), password: "my StackAuth login" } }),
      CONTEXT_WORD,
    );
  });
});
