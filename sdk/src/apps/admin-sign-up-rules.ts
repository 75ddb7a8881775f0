/**
 * The admin app's sign-up rules calls: the tester (would this sign-up be allowed, and which rule
 * decided?) and the trigger counts. The rules themselves are config (`project.updateConfig`, keys
 * `auth.signUpRules.<id>` and `auth.signUpRulesDefaultAction`). StackAdminApp's methods delegate here.
 */
// Types only: the wire module's zod schemas stay out of the SDK bundle.
import type { SignUpRuleActionType, SignUpRulesStats, SignUpRulesTestResult } from "../shared/wire-sign-up-rules";

type Request = <T>(path: string, options?: { method?: string; body?: unknown }) => Promise<T>;

export type SignUpAuthMethod = "password" | "otp" | "oauth" | "passkey";
export type SignUpRiskScores = { bot: number; freeTrialAbuse: number };

/** A sign-up to try the rules on; a country left out is the request's own. */
export type SignUpRulesTestInput = {
  email: string | null;
  authMethod: SignUpAuthMethod;
  oauthProvider?: string | null;
  /** ISO 3166-1 alpha-2 ("DE"); null or absent: the caller's own country. */
  countryCode?: string | null;
  riskScores?: SignUpRiskScores;
};

export type SignUpRuleEvaluation = {
  ruleId: string;
  displayName: string;
  enabled: boolean;
  condition: string;
  status: "matched" | "not_matched" | "disabled" | "missing_condition" | "error";
  action: { type: SignUpRuleActionType; message?: string };
  error?: string;
};

export type SignUpRulesTestOutcome = {
  /** The context the conditions read (`emailDomainDisposable` is a Doorman extension). */
  context: {
    email: string;
    emailDomain: string;
    emailDomainDisposable: boolean;
    countryCode: string;
    authMethod: string;
    oauthProvider: string;
    riskScores: SignUpRiskScores;
  };
  /** Every rule in evaluation order up to the deciding one. */
  evaluations: SignUpRuleEvaluation[];
  shouldAllow: boolean;
  decision: "allow" | "reject" | "default-allow" | "default-reject";
  /** The allow or reject rule that decided; null when the default action did. */
  decisionRuleId: string | null;
  restrictedBecauseOfRuleId: string | null;
};

export type SignUpRuleTriggers = {
  ruleId: string;
  /** Matches in the last `analyticsHours` hours. */
  recentCount: number;
  allTimeCount: number;
  /** One count per UTC hour, oldest first. */
  hourlyCounts: { hour: Date; count: number }[];
};

export type SignUpRulesStatsView = {
  rules: SignUpRuleTriggers[];
  analyticsHours: number;
  totalTriggers: number;
  triggersByAction: Record<SignUpRuleActionType, number>;
};

export async function testSignUpRules(request: Request, input: SignUpRulesTestInput): Promise<SignUpRulesTestOutcome> {
  const r = await request<SignUpRulesTestResult>("/internal/sign-up-rules-test", {
    method: "POST",
    body: {
      email: input.email,
      auth_method: input.authMethod,
      oauth_provider: input.oauthProvider ?? null,
      country_code: input.countryCode ?? null,
      ...(input.riskScores ? { risk_scores: { bot: input.riskScores.bot, free_trial_abuse: input.riskScores.freeTrialAbuse } } : {}),
    },
  });
  const c = r.context;
  return {
    context: {
      email: c.email,
      emailDomain: c.email_domain,
      emailDomainDisposable: c.email_domain_disposable,
      countryCode: c.country_code,
      authMethod: c.auth_method,
      oauthProvider: c.oauth_provider,
      riskScores: { bot: c.risk_scores.bot, freeTrialAbuse: c.risk_scores.free_trial_abuse },
    },
    evaluations: r.evaluations.map((e) => ({
      ruleId: e.rule_id,
      displayName: e.display_name,
      enabled: e.enabled,
      condition: e.condition,
      status: e.status,
      action: e.action,
      ...(e.error !== undefined ? { error: e.error } : {}),
    })),
    shouldAllow: r.outcome.should_allow,
    decision: r.outcome.decision,
    decisionRuleId: r.outcome.decision_rule_id,
    restrictedBecauseOfRuleId: r.outcome.restricted_because_of_rule_id,
  };
}

export async function getSignUpRulesStats(request: Request): Promise<SignUpRulesStatsView> {
  const s = await request<SignUpRulesStats>("/internal/sign-up-rules-stats");
  return {
    rules: s.rule_triggers.map((t) => ({
      ruleId: t.rule_id,
      recentCount: t.total_count,
      allTimeCount: t.all_time_count,
      hourlyCounts: t.hourly_counts.map((h) => ({ hour: new Date(h.hour), count: h.count })),
    })),
    analyticsHours: s.analytics_hours,
    totalTriggers: s.total_triggers,
    triggersByAction: s.triggers_by_action,
  };
}
