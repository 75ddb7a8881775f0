import { describe, expect, it } from "vitest";
import {
  placeProtectionError,
  protectionFromConfig,
  riskOverride,
  riskProblems,
  turnstileFormOf,
  turnstileOverride,
  turnstileProblems,
} from "./protection-config";

describe("protection settings in the console", () => {
  it("reads doorman.protection with the worker's defaults for what is not answered", () => {
    const p = protectionFromConfig({
      doorman: { protection: { turnstile: { siteKey: "1x00", require: { signUp: true } }, risk: { challengeAt: 30 } } },
    });
    expect(p.turnstile).toEqual({ siteKey: "1x00", mode: "invisible", require: { signUp: true, signIn: false, otp: false, oauth: false } });
    expect(p.risk).toEqual({ challengeAt: 30, verifyDeviceAt: 70 });
    expect(protectionFromConfig({}).breachedPasswords.enabled).toBe(true);
  });

  it("sends the secret key only when typed, null when removed, and never reads it", () => {
    const form = turnstileFormOf(protectionFromConfig({}));
    expect(form.secretKey).toBe("");
    expect(turnstileOverride(form)).not.toHaveProperty(["doorman.protection.turnstile.secretKey"]);
    expect(turnstileOverride({ ...form, secretKey: "s3cret" })["doorman.protection.turnstile.secretKey"]).toBe("s3cret");
    expect(turnstileOverride({ ...form, removeSecret: true, secretKey: "x" })["doorman.protection.turnstile.secretKey"]).toBeNull();
    expect(turnstileOverride({ ...form, siteKey: " " })["doorman.protection.turnstile.siteKey"]).toBeNull();
  });

  it("requiring a token needs a site key and a secret (stored or typed)", () => {
    const form = { ...turnstileFormOf(protectionFromConfig({})), require: { signUp: true, signIn: false, otp: false, oauth: false } };
    expect(turnstileProblems(form, false)).toEqual({ "turnstile-site-key": expect.stringMatching(/site key/) });
    expect(turnstileProblems({ ...form, siteKey: "1x" }, false)).toEqual({ "turnstile-secret-key": expect.stringMatching(/secret key/) });
    expect(turnstileProblems({ ...form, siteKey: "1x" }, true)).toEqual({});
    expect(turnstileProblems({ ...form, siteKey: "1x", removeSecret: true }, true)).toHaveProperty("turnstile-secret-key");
  });

  it("checks the thresholds and places the API's refusal on its field", () => {
    expect(riskProblems({ challengeAt: "102", verifyDeviceAt: "x" })).toEqual({
      "risk-challenge-at": expect.any(String),
      "risk-verify-device-at": expect.any(String),
    });
    expect(riskOverride({ challengeAt: " 40", verifyDeviceAt: "101" })).toEqual({
      "doorman.protection.risk.challengeAt": 40,
      "doorman.protection.risk.verifyDeviceAt": 101,
    });
    expect(placeProtectionError("Invalid config value at doorman.protection.turnstile.siteKey: Too big")).toEqual({
      field: "turnstile-site-key",
      message: "Too big",
    });
    expect(placeProtectionError("Could not save.")).toEqual({ field: null, message: "Could not save." });
  });
});
