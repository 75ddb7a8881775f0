/**
 * The sign-up rules as the console edits them: read from the rendered config (`auth.signUpRules`,
 * `auth.signUpRulesDefaultAction`), ordered as the worker evaluates them (priority descending, then
 * id), the form's checks, the dotted keys written back with updateConfig, and the API's refusal put
 * on the field it is about (a bad CEL condition on the condition field).
 */
import type { SignUpRule, SignUpRuleActionType } from "@doorman/sdk";
import type { OwnedProject } from "../../lib/dashboard-types";

export type RuleEntry = {
  id: string;
  enabled: boolean;
  displayName: string;
  priority: number;
  condition: string;
  action: SignUpRuleActionType;
  message: string;
};
export type DefaultAction = "allow" | "reject";
export type RulesState = { rules: RuleEntry[]; defaultAction: DefaultAction };

export const ACTIONS: { value: SignUpRuleActionType; label: string; hint: string }[] = [
  { value: "reject", label: "Reject", hint: "The sign-up is refused; later rules do not run." },
  { value: "allow", label: "Allow", hint: "The sign-up goes ahead; later rules do not run." },
  {
    value: "restrict",
    label: "Restrict",
    hint: "The user is created restricted (your app sees them as signed out); later rules still run.",
  },
  { value: "log", label: "Log", hint: "Only counted in the stats; later rules still run." },
];

/** The worker's rule id rule: letters, digits, _ and -, not starting with -. */
export const RULE_ID = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,62}$/;

/** The rules in evaluation order: priority descending, then id. */
export function orderRules(rules: RuleEntry[]): RuleEntry[] {
  return [...rules].sort((a, b) => b.priority - a.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function rulesFromConfig(config: Record<string, unknown>): RulesState {
  const auth = (config.auth ?? {}) as { signUpRules?: Record<string, SignUpRule>; signUpRulesDefaultAction?: DefaultAction };
  const rules = Object.entries(auth.signUpRules ?? {}).map(([id, r]) => ({
    id,
    enabled: r.enabled ?? false,
    displayName: r.displayName ?? "",
    priority: r.priority ?? 0,
    condition: r.condition ?? "",
    action: r.action?.type ?? "allow",
    // The owners' own note: never shown to the one signing up; kept when the rule is edited here.
    message: r.action?.message ?? "",
  }));
  return { rules: orderRules(rules), defaultAction: auth.signUpRulesDefaultAction === "reject" ? "reject" : "allow" };
}

export async function loadRules(project: OwnedProject): Promise<RulesState> {
  return rulesFromConfig(await project.getConfig());
}

export type RuleForm = {
  id: string;
  displayName: string;
  condition: string;
  action: SignUpRuleActionType;
  priority: string;
  enabled: boolean;
};

export const emptyForm = (): RuleForm => ({ id: "", displayName: "", condition: "", action: "reject", priority: "0", enabled: true });

export const formOf = (rule: RuleEntry): RuleForm => ({
  id: rule.id,
  displayName: rule.displayName,
  condition: rule.condition,
  action: rule.action,
  priority: String(rule.priority),
  enabled: rule.enabled,
});

/** Field errors keyed by field name (id, condition, priority). */
export type RuleErrors = Partial<Record<"id" | "condition" | "priority" | "displayName", string>>;

export function ruleProblems(form: RuleForm, existingIds: string[], isNew: boolean): RuleErrors {
  const errors: RuleErrors = {};
  if (isNew) {
    if (!RULE_ID.test(form.id.trim())) errors.id = "Use letters, digits, _ and - (up to 63), not starting with -.";
    else if (existingIds.includes(form.id.trim())) errors.id = "A rule with this id exists: pick another.";
  }
  if (!form.condition.trim()) errors.condition = 'Enter a CEL condition, like emailDomain == "example.com".';
  const priority = Number(form.priority);
  if (!/^\d+$/.test(form.priority.trim()) || priority > 1_000_000) errors.priority = "Use a whole number from 0 to 1000000.";
  if (form.displayName.length > 256) errors.displayName = "At most 256 characters.";
  return errors;
}

/** The override that writes one rule (the message is the owners' own note: kept when editing). */
export function ruleOverride(form: RuleForm, message?: string): Record<string, unknown> {
  const displayName = form.displayName.trim();
  return {
    [`auth.signUpRules.${form.id.trim()}`]: {
      enabled: form.enabled,
      ...(displayName ? { displayName } : {}),
      priority: Number(form.priority),
      condition: form.condition.trim(),
      action: { type: form.action, ...(message ? { message } : {}) },
    },
  };
}

/**
 * Where the API's refusal of a rule goes: "Invalid config value at auth.signUpRules.<id>.condition:
 * invalid CEL condition: …" is the condition field's error (the CEL reason only); anything else is
 * the form's.
 */
export function placeRuleError(message: string): { field: keyof RuleErrors | null; message: string } {
  const match = /^Invalid config value at auth\.signUpRules\.[^.\s]+\.(condition|priority|displayName): (.*)$/s.exec(message.trim());
  if (!match) return { field: null, message };
  const [, field, reason] = match as unknown as [string, keyof RuleErrors, string];
  return { field, message: field === "condition" ? reason.replace(/^invalid CEL condition: /, "") : reason };
}
