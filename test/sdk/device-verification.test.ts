/** SDK new-device verification (issue 29): the device token kept between sign-ins, the code step, a new code. */
import { describe, expect, it } from "vitest";
import { StackClientApp } from "../../sdk/src";
import type { CookieJar } from "../../sdk/src/session/token-store";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { sinkEmailConfig, waitForMail } from "../helpers/mail";
import { workerFetch } from "../helpers/worker-fetch";

const PASSWORD = "device password 1";

function jar(): CookieJar & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return { values, get: (n) => values.get(n) ?? null, set: (n, v) => void values.set(n, v), remove: (n) => void values.delete(n) };
}

async function setUp() {
  const p = await createProjectWithKeys({ email_config: sinkEmailConfig() }, { deviceVerification: true });
  const app = (cookieJar?: CookieJar) =>
    new StackClientApp({
      baseUrl: "http://localhost",
      fetch: (input, init) => workerFetch(input, init),
      redirectMethod: "none",
      projectId: p.projectId,
      publishableClientKey: p.client.publishableClientKey,
      tokenStore: cookieJar ? "cookie" : "memory",
      ...(cookieJar ? { cookieJar } : {}),
    });
  return { p, app };
}

const codeOf = (subject: string) => /: ([0-9A-Z]{6})$/.exec(subject)![1]!;

describe("SDK new-device verification", () => {
  it("the signing-up client is a known device; a new client is asked for the emailed code, then is known", async () => {
    const { app } = await setUp();
    const email = uniqueEmail("sdk-device");
    const cookies = jar();
    const first = app(cookies);
    expect((await first.signUpWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    // Kept in the long-lived cookie of the project, which outlives the sign-out.
    const cookieName = [...cookies.values.keys()].find((k) => k.startsWith("stack-device-"));
    expect(cookieName).toBeTruthy();
    await first.signOut();
    expect((await first.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");

    const second = app();
    const asked = await second.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    expect(asked.status === "error" && asked.error.code).toBe("DEVICE_VERIFICATION_REQUIRED");
    expect(await second.getUser()).toBeNull();
    const [mail] = await waitForMail(email);
    const wrong = await second.verifyDeviceCode(codeOf(mail!.subject) === "AAAAAA" ? "BBBBBB" : "AAAAAA", { noRedirect: true });
    expect(wrong.status === "error" && wrong.error.code).toBe("DEVICE_VERIFICATION_CODE_INVALID");
    // A new code: the first stops working.
    const resent = await second.resendDeviceCode();
    expect(resent.status).toBe("ok");
    const mails = await waitForMail(email, 2);
    expect((await second.verifyDeviceCode(codeOf(mails[1]!.subject), { noRedirect: true })).status).toBe("ok");
    expect((await second.getUser())?.primaryEmail).toBe(email);

    // Known from now on.
    await second.signOut();
    expect((await second.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
  });
});
