/**
 * The sign-up rules at a sign-up: every path that creates a user for someone signing up (password,
 * OTP / magic link, OAuth, and an anonymous user's upgrade by any of them) asks `checkSignUpRules`
 * first. Anonymous sign-ups and users created by the server or an admin are not checked, as in the
 * reference. A rejection creates nothing; a `restrict` rule creates the user restricted, with the
 * reference's private details; every matched rule is counted (stats.ts).
 */
import type { ProjectRow } from "../../db/queries/projects";
import { countRuleTriggers } from "../../db/queries/sign-up-rule-triggers";
import type { Deps } from "../deps";
import { renderedConfigOf } from "../project-config/cache";
import { assessSignUp, type SignUpRiskScores } from "../protection/risk";
import { fail, type Problem } from "../result";
import { normalizeCountryCode, type SignUpFacts, signUpRuleContext } from "./context";
import { evaluateSignUpRules } from "./evaluate";

/** What a restrict rule sets on the new user (the reason stays empty: the user is not told). */
export type SignUpRestriction = { restrictedByAdmin: true; restrictedByAdminPrivateDetails: string };

export const HOUR_MS = 3_600_000;

/** A user's stored `risk_scores`, as the reference's wire field. */
export type StoredRiskScores = { sign_up: SignUpRiskScores };

/**
 * `countryCode`: where the sign-up comes from (the request's country unless the flow says otherwise,
 * e.g. OTP's send-code request); the new user keeps it as its country_code, as the wire.
 */
export async function checkSignUpRules(
  deps: Deps,
  project: ProjectRow,
  facts: SignUpFacts,
): Promise<
  | { ok: true; restriction: SignUpRestriction | null; countryCode: string | null; riskScores: StoredRiskScores }
  | Problem<"sign_up_rejected">
> {
  const auth = renderedConfigOf(project).auth;
  const countryCode = normalizeCountryCode(facts.countryCode !== undefined ? facts.countryCode : deps.audit.signUpCountryCode) || null;
  // Every sign-up is scored (the new user keeps it as risk_scores.sign_up), and the rules read the scores.
  const scores = facts.riskScores ?? (await assessSignUp(deps, project, facts.email)).scores;
  const riskScores = { sign_up: scores };
  if (Object.keys(auth.signUpRules).length === 0 && auth.signUpRulesDefaultAction === "allow")
    return { ok: true, restriction: null, countryCode, riskScores };
  const context = signUpRuleContext({ ...facts, countryCode, riskScores: scores });
  const trace = evaluateSignUpRules(auth.signUpRules, auth.signUpRulesDefaultAction, context);
  // Counted before answering, rejected or not: an upsert per rule, exact under concurrent sign-ups.
  if (trace.triggered.length > 0) {
    const hourStart = Math.floor(deps.now() / HOUR_MS) * HOUR_MS;
    await countRuleTriggers(deps.db, project.id, trace.triggered, hourStart);
  }
  if (!trace.outcome.shouldAllow) return fail("sign_up_rejected");
  const ruleId = trace.outcome.restrictedBecauseOfRuleId;
  if (ruleId === null) return { ok: true, restriction: null, countryCode, riskScores };
  const displayName = auth.signUpRules[ruleId]?.displayName ?? "";
  return {
    ok: true,
    countryCode,
    riskScores,
    restriction: {
      restrictedByAdmin: true,
      restrictedByAdminPrivateDetails: `Restricted by sign-up rule: ${ruleId}${displayName ? ` (${displayName})` : ""}`,
    },
  };
}
