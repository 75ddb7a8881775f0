/**
 * Runs a project's sign-up rules on one sign-up's context, in the reference's order (priority
 * descending, then id): disabled rules and rules without a condition are skipped; a matching `log`
 * or `restrict` rule is noted and evaluation goes on (the first `restrict` is the one recorded);
 * the first matching `allow` or `reject` decides; when none does, the default action does. A
 * condition that fails to run (a malformed regex, say) does not match.
 */
import type { SignUpRuleContext } from "./cel";
import { evaluateCondition } from "./cel";
import { orderedRules, type SignUpRule, type SignUpRuleActionType } from "./config";

export type SignUpRuleStatus = "matched" | "not_matched" | "disabled" | "missing_condition" | "error";
export type SignUpRuleEvaluation = { ruleId: string; rule: SignUpRule; status: SignUpRuleStatus; error?: string };
export type SignUpRulesOutcome = {
  shouldAllow: boolean;
  decision: "allow" | "reject" | "default-allow" | "default-reject";
  decisionRuleId: string | null;
  restrictedBecauseOfRuleId: string | null;
};
export type SignUpRulesTrace = {
  evaluations: SignUpRuleEvaluation[];
  outcome: SignUpRulesOutcome;
  /** The rules that matched, in order, with their action: what the trigger counters count. */
  triggered: { ruleId: string; action: SignUpRuleActionType }[];
};

export function evaluateSignUpRules(
  rules: Record<string, SignUpRule>,
  defaultAction: "allow" | "reject",
  context: SignUpRuleContext,
): SignUpRulesTrace {
  const evaluations: SignUpRuleEvaluation[] = [];
  const triggered: SignUpRulesTrace["triggered"] = [];
  let restrictedBecauseOfRuleId: string | null = null;
  for (const [ruleId, rule] of orderedRules(rules)) {
    if (!rule.enabled) {
      evaluations.push({ ruleId, rule, status: "disabled" });
      continue;
    }
    if (!rule.condition) {
      evaluations.push({ ruleId, rule, status: "missing_condition" });
      continue;
    }
    const result = evaluateCondition(rule.condition, context);
    if (!result.ok) {
      evaluations.push({ ruleId, rule, status: "error", error: result.error });
      continue;
    }
    evaluations.push({ ruleId, rule, status: result.matches ? "matched" : "not_matched" });
    if (!result.matches) continue;
    const action = rule.action.type;
    triggered.push({ ruleId, action });
    if (action === "restrict") restrictedBecauseOfRuleId ??= ruleId;
    if (action === "allow" || action === "reject") {
      return {
        evaluations,
        triggered,
        outcome: { shouldAllow: action === "allow", decision: action, decisionRuleId: ruleId, restrictedBecauseOfRuleId },
      };
    }
  }
  const shouldAllow = defaultAction !== "reject";
  return {
    evaluations,
    triggered,
    outcome: { shouldAllow, decision: shouldAllow ? "default-allow" : "default-reject", decisionRuleId: null, restrictedBecauseOfRuleId },
  };
}
