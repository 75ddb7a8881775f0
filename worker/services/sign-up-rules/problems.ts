/**
 * The sign-up rules' problem reasons: a slice of ProblemFields (services/result.ts), mapped by
 * `signUpRulesProblems` in worker/http/problems/sign-up-rules.ts.
 */

export type SignUpRulesProblemFields = {
  /** A rule (or the default action) rejected this sign-up; which one is never said to the one signing up. */
  sign_up_rejected: Record<never, never>;
};
