/** SDK second factor: enable TOTP on the user, sign in, finish with a TOTP. */

import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { StackClientApp } from "../../sdk/src";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const app = () =>
  new StackClientApp({
    baseUrl: "http://localhost",
    fetch: (input, init) => workerFetch(input, init),
    redirectMethod: "none",
    projectId: "internal",
    publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY,
    tokenStore: "memory",
  });

describe("SDK MFA", () => {
  it("turns TOTP on, then a sign-in needs the second factor", async () => {
    const secret = crypto.getRandomValues(new Uint8Array(20));
    const totp = () => generateHOTP(secret, BigInt(Math.floor(Date.now() / 30_000)), 6);
    const email = uniqueEmail("sdk-mfa");
    const first = app();
    await first.signUpWithCredential({ email, password: "mfa password 1", noRedirect: true });
    const user = (await first.getUser({ or: "throw" }))!;
    await user.update({ totpMultiFactorSecret: secret });
    expect((await first.getUser())?.isMultiFactorRequired).toBe(true);

    const second = app();
    const result = await second.signInWithCredential({ email, password: "mfa password 1", noRedirect: true });
    expect(result.status).toBe("error");
    if (result.status !== "error") return;
    expect(result.error.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    const attemptCode = String(result.error.details?.attempt_code);
    expect(await second.getUser()).toBeNull();
    const wrong = await second.signInWithMfa(totp() === "000000" ? "111111" : "000000", { attemptCode, noRedirect: true });
    expect(wrong.status === "error" && wrong.error.code).toBe("INVALID_TOTP_CODE");
    expect((await second.signInWithMfa(totp(), { attemptCode, noRedirect: true })).status).toBe("ok");
    expect((await second.getUser())?.id).toBe(user.id);

    await user.update({ totpMultiFactorSecret: null });
    expect((await app().signInWithCredential({ email, password: "mfa password 1", noRedirect: true })).status).toBe("ok");
  });

  it("recovery codes: generated on the user, one finishes a sign-in once (Doorman)", async () => {
    const secret = crypto.getRandomValues(new Uint8Array(20));
    const email = uniqueEmail("sdk-recovery");
    const first = app();
    await first.signUpWithCredential({ email, password: "mfa password 2", noRedirect: true });
    const user = (await first.getUser({ or: "throw" }))!;
    await user.update({ totpMultiFactorSecret: secret });
    const codes = await user.generateRecoveryCodes();
    expect(codes).toHaveLength(10);

    const signIn = async () => {
      const second = app();
      const result = await second.signInWithCredential({ email, password: "mfa password 2", noRedirect: true });
      return { second, attemptCode: result.status === "error" ? String(result.error.details?.attempt_code) : "" };
    };
    const a = await signIn();
    expect((await a.second.signInWithRecoveryCode(codes[3]!, { attemptCode: a.attemptCode, noRedirect: true })).status).toBe("ok");
    expect((await a.second.getUser())?.id).toBe(user.id);
    const b = await signIn();
    const reused = await b.second.signInWithRecoveryCode(codes[3]!, { attemptCode: b.attemptCode, noRedirect: true });
    expect(reused.status === "error" && reused.error.code).toBe("INVALID_TOTP_CODE");
  });

  it("a required second factor: the sign-in asks to enrol; enrollMfa signs in and returns the recovery codes (Doorman)", async () => {
    const p = await createProjectWithKeys({ require_mfa: true });
    const client = new StackClientApp({
      baseUrl: "http://localhost",
      fetch: (input, init) => workerFetch(input, init),
      redirectMethod: "none",
      projectId: p.projectId,
      publishableClientKey: p.client.publishableClientKey,
      tokenStore: "memory",
    });
    const up = await client.signUpWithCredential({ email: uniqueEmail("sdk-enrol"), password: "mfa password 3", noRedirect: true });
    expect(up.status === "error" && up.error.details?.enrollment_required).toBe(true);
    expect(await client.getUser()).toBeNull();
    const attemptCode = up.status === "error" ? String(up.error.details?.attempt_code) : "";
    const secret = crypto.getRandomValues(new Uint8Array(20));
    const totp = generateHOTP(secret, BigInt(Math.floor(Date.now() / 30_000)), 6);
    const enrolled = await client.enrollMfa(secret, totp, { attemptCode, noRedirect: true });
    expect(enrolled.status === "ok" && enrolled.data).toHaveLength(10);
    expect((await client.getUser())?.isMultiFactorRequired).toBe(true);
  });
});
