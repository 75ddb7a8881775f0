/** The wire errors of the sign-up rules problems (every sign-up route). */
import { KnownError } from "@doorman/shared/known-errors";
import type { ProblemMap } from "../../services/result";
import type { SignUpRulesProblemFields } from "../../services/sign-up-rules/problems";

// The reference's generic message: the rule's own message is for the owner only (telling it would help evade the rule).
const REJECTED_MESSAGE = "Your sign up was rejected by an administrator's sign-up rule.";

export const signUpRulesProblems = {
  sign_up_rejected: () => new KnownError("SIGN_UP_REJECTED", { message: REJECTED_MESSAGE }),
} satisfies ProblemMap<keyof SignUpRulesProblemFields>;
