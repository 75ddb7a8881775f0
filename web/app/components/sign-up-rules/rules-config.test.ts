import { describe, expect, it } from "vitest";
import { emptyForm, orderRules, placeRuleError, ruleOverride, ruleProblems, rulesFromConfig } from "./rules-config";

describe("sign-up rules in the console", () => {
  it("lists the rules in evaluation order (priority descending, then id) with the reference's defaults", () => {
    const state = rulesFromConfig({
      auth: {
        signUpRules: {
          b: { enabled: true, priority: 5, condition: "true", action: { type: "log" } },
          a: { enabled: true, priority: 5, condition: "true", action: { type: "reject" } },
          z: { priority: 9, condition: "false" },
          low: { enabled: true, condition: "true", action: { type: "allow" } },
        },
        signUpRulesDefaultAction: "reject",
      },
    });
    expect(state.rules.map((r) => r.id)).toEqual(["z", "a", "b", "low"]);
    expect(state.rules[0]).toMatchObject({ enabled: false, action: "allow", displayName: "" });
    expect(state.defaultAction).toBe("reject");
    expect(rulesFromConfig({}).defaultAction).toBe("allow");
    expect(orderRules([])).toEqual([]);
  });

  it("checks the form before saving", () => {
    const form = { ...emptyForm(), id: "-bad", condition: " ", priority: "1.5" };
    expect(ruleProblems(form, [], true)).toEqual({
      id: expect.stringMatching(/letters, digits/),
      condition: expect.stringMatching(/CEL condition/),
      priority: expect.stringMatching(/whole number/),
    });
    expect(ruleProblems({ ...emptyForm(), id: "taken", condition: "true" }, ["taken"], true).id).toMatch(/exists/);
    expect(ruleProblems({ ...emptyForm(), id: "taken", condition: "true" }, ["taken"], false)).toEqual({});
  });

  it("writes one rule as a dotted key, keeping the owners' note", () => {
    const form = {
      id: "no-spam",
      displayName: " Spam ",
      condition: ' email.contains("spam") ',
      action: "reject" as const,
      priority: "3",
      enabled: true,
    };
    expect(ruleOverride(form, "note")).toEqual({
      "auth.signUpRules.no-spam": {
        enabled: true,
        displayName: "Spam",
        priority: 3,
        condition: 'email.contains("spam")',
        action: { type: "reject", message: "note" },
      },
    });
    expect(ruleOverride({ ...form, displayName: "" })["auth.signUpRules.no-spam"]).not.toHaveProperty("displayName");
  });

  it("puts the API's CEL error on the condition field, others on the form", () => {
    expect(placeRuleError("Invalid config value at auth.signUpRules.x.condition: invalid CEL condition: Unknown variable: phone")).toEqual({
      field: "condition",
      message: "Unknown variable: phone",
    });
    const total = "Invalid config value at auth.signUpRules: the enabled sign-up rules together may cost too much";
    expect(placeRuleError(total)).toEqual({ field: null, message: total });
  });
});
