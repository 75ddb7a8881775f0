/** /internal/sign-up-rules-test and /internal/sign-up-rules-stats: the owner's tester and trigger counts of the sign-up rules (admin). */
import { signUpRulesStatsSchema, signUpRulesTestBodySchema, signUpRulesTestResultSchema } from "@doorman/shared/wire-sign-up-rules";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { readSignUpRuleStats } from "../../services/sign-up-rules/stats";
import { testSignUpRules } from "../../services/sign-up-rules/tester";

const test = defineRoute({
  method: "post",
  path: "/",
  summary: "Test the sign-up rules on a described sign-up",
  description:
    "Runs the project's rules as a sign-up with these facts would (a null country is the request's own); nothing is created or counted. Risk scores are 0 unless given. The answered context adds `email_domain_disposable` (a Doorman extension).",
  access: ["admin"],
  body: signUpRulesTestBodySchema,
  response: signUpRulesTestResultSchema,
});

export const signUpRulesTestRoutes = routeGroup();
addRoute(signUpRulesTestRoutes, test, (c, { auth, body }) => {
  const { context, trace } = testSignUpRules(c.get("deps"), auth.project, {
    email: body.email,
    authMethod: body.auth_method,
    oauthProvider: body.oauth_provider,
    countryCode: body.country_code,
    ...(body.risk_scores ? { riskScores: body.risk_scores } : {}),
  });
  return c.json({
    context: {
      email: context.email,
      email_domain: context.emailDomain,
      email_domain_disposable: context.emailDomainDisposable,
      country_code: context.countryCode,
      auth_method: context.authMethod,
      oauth_provider: context.oauthProvider,
      turnstile_result: body.turnstile_result ?? "invalid",
      risk_scores: context.riskScores,
    },
    evaluations: trace.evaluations.map((e) => ({
      rule_id: e.ruleId,
      display_name: e.rule.displayName ?? "",
      enabled: e.rule.enabled,
      condition: e.rule.condition ?? "",
      status: e.status,
      action: { type: e.rule.action.type, ...(e.rule.action.message !== undefined ? { message: e.rule.action.message } : {}) },
      ...(e.error ? { error: e.error } : {}),
    })),
    outcome: {
      should_allow: trace.outcome.shouldAllow,
      decision: trace.outcome.decision,
      decision_rule_id: trace.outcome.decisionRuleId,
      restricted_because_of_rule_id: trace.outcome.restrictedBecauseOfRuleId,
    },
  });
});

const stats = defineRoute({
  method: "get",
  path: "/",
  summary: "How often each sign-up rule matched",
  description: "Per rule: the count in each of the last 48 UTC hours and over all time; the recent total per action.",
  access: ["admin"],
  response: signUpRulesStatsSchema,
});

export const signUpRulesStatsRoutes = routeGroup();
addRoute(signUpRulesStatsRoutes, stats, async (c, { auth }) => c.json(await readSignUpRuleStats(c.get("deps"), auth.project)));
