/**
 * Sign-up rules on the wire. Config (the reference's keys, set through /internal/config/override):
 * `auth.signUpRules.<ruleId>` = SignUpRule, `auth.signUpRulesDefaultAction` = "allow" | "reject".
 * Admin endpoints: POST /internal/sign-up-rules-test (would this sign-up be allowed?) and
 * GET /internal/sign-up-rules-stats (how often each rule matched).
 */
import { z } from "zod";

export const SIGN_UP_RULE_ACTION_TYPES = ["allow", "reject", "restrict", "log"] as const;
export type SignUpRuleActionType = (typeof SIGN_UP_RULE_ACTION_TYPES)[number];

/** What a matching rule does; `message` is for the project's owners only, never shown to the one signing up. */
export type SignUpRuleAction = { type: SignUpRuleActionType; message?: string };

/**
 * One rule of `auth.signUpRules`. Rules run by `priority` (higher first), then by id; `condition` is
 * a CEL expression over `email`, `emailDomain`, `emailDomainDisposable` (bool, a Doorman extension),
 * `countryCode`, `authMethod` ("password" | "otp" | "oauth" | "passkey"), `oauthProvider` and
 * `riskScores.bot` / `riskScores.free_trial_abuse`.
 * @example
 * await project.updateConfig({
 *   "auth.signUpRules.block-disposable": {
 *     enabled: true, displayName: "Block disposable", priority: 10,
 *     condition: 'emailDomain in ["tempmail.com"]', action: { type: "reject" },
 *   },
 * });
 */
export type SignUpRule = {
  enabled?: boolean;
  displayName?: string;
  priority?: number;
  condition?: string;
  action?: SignUpRuleAction;
};

const riskScoresSchema = z.object({ bot: z.number().int().min(0).max(100), free_trial_abuse: z.number().int().min(0).max(100) });

/** An ISO 3166-1 alpha-2 code, trimmed and upper-cased as the reference's countryCodeSchema ("usa" is refused). */
const countryCodeSchema = z
  .string()
  .max(8)
  .transform((code) => code.trim().toUpperCase())
  .refine((code) => /^[A-Z]{2}$/.test(code), "must be a 2-letter country code");

export const signUpRulesTestBodySchema = z.strictObject({
  email: z.string().max(320).nullable(),
  auth_method: z.enum(["password", "otp", "oauth", "passkey"]),
  oauth_provider: z.string().max(64).nullable(),
  /** null: the request's own country, as a sign-up from it would get. */
  country_code: countryCodeSchema.nullable(),
  turnstile_result: z.enum(["ok", "invalid", "error"]).optional(),
  risk_scores: riskScoresSchema.optional(),
});

export const signUpRulesTestResultSchema = z.object({
  context: z.object({
    email: z.string(),
    email_domain: z.string(),
    /** Doorman extension: the domain is on the bundled disposable-domain list (CEL `emailDomainDisposable`). */
    email_domain_disposable: z.boolean(),
    country_code: z.string(),
    auth_method: z.string(),
    oauth_provider: z.string(),
    turnstile_result: z.enum(["ok", "invalid", "error"]),
    risk_scores: riskScoresSchema,
  }),
  evaluations: z.array(
    z.object({
      rule_id: z.string(),
      display_name: z.string(),
      enabled: z.boolean(),
      condition: z.string(),
      status: z.enum(["matched", "not_matched", "disabled", "missing_condition", "error"]),
      action: z.object({ type: z.enum(SIGN_UP_RULE_ACTION_TYPES), message: z.string().optional() }),
      error: z.string().optional(),
    }),
  ),
  outcome: z.object({
    should_allow: z.boolean(),
    decision: z.enum(["allow", "reject", "default-allow", "default-reject"]),
    decision_rule_id: z.string().nullable(),
    restricted_because_of_rule_id: z.string().nullable(),
  }),
});

export type SignUpRulesTestBody = z.input<typeof signUpRulesTestBodySchema>;
export type SignUpRulesTestResult = z.infer<typeof signUpRulesTestResultSchema>;

export const signUpRulesStatsSchema = z.object({
  /** Each rule that ever matched: its count in the last `analytics_hours` hours, over all time, and per hour (oldest first). */
  rule_triggers: z.array(
    z.object({
      rule_id: z.string(),
      total_count: z.number().int(),
      all_time_count: z.number().int(),
      hourly_counts: z.array(z.object({ hour: z.string(), count: z.number().int() })),
    }),
  ),
  analytics_hours: z.number().int(),
  total_triggers: z.number().int(),
  triggers_by_action: z.object({ allow: z.number().int(), reject: z.number().int(), restrict: z.number().int(), log: z.number().int() }),
});

export type SignUpRulesStats = z.infer<typeof signUpRulesStatsSchema>;
