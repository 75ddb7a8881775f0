/**
 * The owner's tester (POST /internal/sign-up-rules-test): the project's rules run on a sign-up the
 * owner describes, with every rule's status, and nothing counted or created. A country left null is
 * the request's own, as a sign-up from it gets (gate.ts: Cloudflare's, in development the cf-ipcountry
 * header), as in the reference.
 */
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { renderedConfigOf } from "../project-config/cache";
import { type SignUpAuthMethod, signUpRuleContext } from "./context";
import { evaluateSignUpRules, type SignUpRulesTrace } from "./evaluate";

export type SignUpRulesTestInput = {
  email: string | null;
  authMethod: SignUpAuthMethod;
  oauthProvider: string | null;
  countryCode: string | null;
  riskScores?: { bot: number; free_trial_abuse: number };
};

export function testSignUpRules(deps: Deps, project: ProjectRow, input: SignUpRulesTestInput) {
  const auth = renderedConfigOf(project).auth;
  const context = signUpRuleContext({ ...input, countryCode: input.countryCode ?? deps.audit.signUpCountryCode ?? null });
  const trace: SignUpRulesTrace = evaluateSignUpRules(auth.signUpRules, auth.signUpRulesDefaultAction, context);
  return { context, trace };
}
