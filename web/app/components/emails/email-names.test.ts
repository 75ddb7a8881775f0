import { describe, expect, it } from "vitest";
import { activeThemeId, isBuiltInTemplate, templateName, templateWhen, themeChoiceFrom, themeChoiceValue } from "./email-names";

const LIGHT = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
const DARK = "a0172b5d-cff0-463b-83bb-85124697373a";

describe("email names", () => {
  it("names built-in templates in plain words and keeps the owner's names", () => {
    expect(templateName({ id: "a70fb3a4-56c1-4e42-af25-49d25603abd0", displayName: "password_reset" })).toBe("Password reset");
    expect(templateName({ id: "mine", displayName: "Weekly digest" })).toBe("Weekly digest");
    expect(templateWhen("mine")).toBeNull();
    expect(isBuiltInTemplate("a70fb3a4-56c1-4e42-af25-49d25603abd0")).toBe(true);
    expect(isBuiltInTemplate("toString")).toBe(false);
  });
  it("reads the active theme, legacy names included, falling back to Default Light", () => {
    const themes = [{ id: LIGHT }, { id: DARK }, { id: "custom" }];
    expect(activeThemeId({ emailTheme: "default-dark" }, themes)).toBe(DARK);
    expect(activeThemeId({ emailTheme: "custom" }, themes)).toBe("custom");
    expect(activeThemeId({ emailTheme: "gone" }, themes)).toBe(LIGHT);
    expect(activeThemeId({}, themes)).toBe(LIGHT);
  });
  it("round-trips a theme choice through a select value", () => {
    for (const choice of [false, null, "custom"] as const) expect(themeChoiceFrom(themeChoiceValue(choice))).toBe(choice);
  });
});
