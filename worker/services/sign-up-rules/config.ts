/**
 * The sign-up rules keys of the config, the reference's: `auth.signUpRules.<ruleId>` ({ enabled,
 * displayName, priority, condition, action: { type, message } }) and `auth.signUpRulesDefaultAction`.
 * A condition is compiled when the config is written (cel.ts), so a bad one is a 400 then, never a
 * failure at sign-up. `orderedRules` is the reference's evaluation order.
 */
import { userIdSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";
import { compileCondition } from "./cel";
import { MAX_RULES_COST } from "./cost";

export const SIGN_UP_RULE_ACTIONS = ["allow", "reject", "restrict", "log"] as const;
export type SignUpRuleActionType = (typeof SIGN_UP_RULE_ACTIONS)[number];
/** Rules a project may have: each runs on every sign-up. */
export const MAX_SIGN_UP_RULES = 100;

const conditionSchema = z.string().superRefine((condition, ctx) => {
  const compiled = compileCondition(condition);
  if (!compiled.ok) ctx.addIssue({ code: "custom", message: `invalid CEL condition: ${compiled.message}` });
});

/** One rule; absent fields take the reference's defaults (a rule set without `enabled` is off). */
export const signUpRuleSchema = z.strictObject({
  enabled: z.boolean().default(false),
  displayName: z.string().max(256).optional(),
  // Higher runs first; equal priorities run by id.
  priority: z.number().int().min(0).max(1_000_000).default(0),
  condition: conditionSchema.optional(),
  action: z
    .strictObject({
      type: z.enum(SIGN_UP_RULE_ACTIONS),
      // For the owner's records only: never shown to the one signing up.
      message: z.string().max(1024).optional(),
    })
    .default({ type: "allow" }),
});
export type SignUpRule = z.infer<typeof signUpRuleSchema>;

export const signUpRulesSchema = z
  .record(userIdSchema, signUpRuleSchema)
  .refine((rules) => Object.keys(rules).length <= MAX_SIGN_UP_RULES, `a project may have at most ${MAX_SIGN_UP_RULES} sign-up rules`)
  // Every sign-up runs all enabled rules: their summed cost bound is what one sign-up may pay.
  .refine(
    (rules) => enabledRulesCost(rules) <= MAX_RULES_COST,
    `the enabled sign-up rules together may cost too much to run on each sign-up (at most ${MAX_RULES_COST}): simplify or disable some`,
  );
export const signUpRulesDefaultActionSchema = z.enum(["allow", "reject"]);

export const defaultSignUpRules = (): Record<string, SignUpRule> => ({});
export const DEFAULT_SIGN_UP_RULES_ACTION = "allow" as const;

/** The summed cost bound (cost.ts) of the enabled rules' conditions. */
export function enabledRulesCost(rules: Record<string, SignUpRule>): number {
  let total = 0;
  for (const rule of Object.values(rules)) {
    if (!rule.enabled || !rule.condition) continue;
    const compiled = compileCondition(rule.condition);
    if (compiled.ok) total += compiled.cost;
  }
  return total;
}

/** The rules in the reference's order: priority descending, then id ascending (disabled ones kept, for the tester). */
export function orderedRules(rules: Record<string, SignUpRule>): [string, SignUpRule][] {
  return Object.entries(rules).sort(([idA, a], [idB, b]) => b.priority - a.priority || (idA < idB ? -1 : idA > idB ? 1 : 0));
}
