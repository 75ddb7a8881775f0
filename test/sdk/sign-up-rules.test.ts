/**
 * The admin app's sign-up rules and protection surface the console uses: rules written as config
 * (project.updateConfig), the tester and the trigger counts in camelCase, and the Turnstile secret
 * key shown only as "stored" (hasTurnstileSecretKey), never read back.
 */
import { describe, expect, it } from "vitest";
import type { StackAdminApp } from "../../sdk/src";
import { uniqueEmail } from "../helpers/api";
import { internalMemoryApp } from "../helpers/sdk-apps";

async function ownedProject(): Promise<StackAdminApp> {
  const owner = internalMemoryApp();
  await owner.signUpWithCredential({ email: uniqueEmail("rules-owner"), password: "owner password 1", noRedirect: true });
  const project = await (await owner.getUser({ or: "throw" }))!.createProject({ displayName: "SDK rules" });
  return project.app;
}

describe("sign-up rules through the admin app", () => {
  it("tests the rules on a described sign-up (counting nothing) and reads the counts", async () => {
    const admin = await ownedProject();
    const project = await admin.getProject();
    await project.updateConfig({
      "auth.signUpRules.throwaway": {
        enabled: true,
        displayName: "Throwaway mail",
        priority: 2,
        condition: "emailDomainDisposable",
        action: { type: "reject" },
      },
      "auth.signUpRules.watch": { enabled: true, priority: 1, condition: 'authMethod == "password"', action: { type: "log" } },
    });
    const tested = await admin.testSignUpRules({ email: "x@mailinator.com", authMethod: "password", countryCode: "de" });
    expect(tested).toMatchObject({
      shouldAllow: false,
      decision: "reject",
      decisionRuleId: "throwaway",
      restrictedBecauseOfRuleId: null,
      context: { email: "x@mailinator.com", emailDomain: "mailinator.com", emailDomainDisposable: true, countryCode: "DE" },
    });
    expect(tested.evaluations.map((e) => [e.ruleId, e.status])).toEqual([["throwaway", "matched"]]);

    // The tester counts nothing (real sign-ups are counted: test/worker/sign-up-rules.test.ts).
    const before = await admin.getSignUpRulesStats();
    expect(before).toEqual({
      rules: [],
      analyticsHours: 48,
      totalTriggers: 0,
      triggersByAction: { allow: 0, reject: 0, restrict: 0, log: 0 },
    });
    await admin.createUser({ primaryEmail: uniqueEmail() }); // server-created: not checked, not counted
    const stats = await admin.getSignUpRulesStats();
    expect(stats.totalTriggers).toBe(0);

    // The console deletes a rule with a null key: the rule is gone from the rendered config.
    await project.updateConfig({ "auth.signUpRules.watch": null });
    const rules = ((await project.getConfig()) as { auth: { signUpRules: Record<string, unknown> } }).auth.signUpRules;
    expect(Object.keys(rules)).toEqual(["throwaway"]);
  });

  it("says whether a Turnstile secret key is stored, never the key", async () => {
    const admin = await ownedProject();
    const project = await admin.getProject();
    expect(project.config.hasTurnstileSecretKey).toBe(false);
    await project.updateConfig({ "doorman.protection.turnstile.secretKey": "0x4AAAAAAA-secret" });
    const after = await admin.getProject();
    expect(after.config.hasTurnstileSecretKey).toBe(true);
    expect(JSON.stringify(after.config)).not.toContain("0x4AAAAAAA-secret");
    expect(JSON.stringify(await after.getConfig())).not.toContain("0x4AAAAAAA-secret");
  });
});
