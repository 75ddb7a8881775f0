/** The sign-up context a rule's condition reads, built as the reference builds it (empty strings, never null). */
import type { SignUpRuleContext } from "./cel";

export const SIGN_UP_AUTH_METHODS = ["password", "otp", "oauth", "passkey"] as const;
export type SignUpAuthMethod = (typeof SIGN_UP_AUTH_METHODS)[number];
/** Longest string a condition sees: bounds what a matches() pattern runs over (regex-safety.ts). */
export const MAX_SUBJECT_LENGTH = 320;

export type SignUpFacts = {
  email: string | null;
  authMethod: SignUpAuthMethod;
  oauthProvider?: string | null;
  countryCode?: string | null;
  riskScores?: { bot: number; free_trial_abuse: number };
};

/** An ISO 3166-1 alpha-2 code upper-cased, or "" when there is none. */
export function normalizeCountryCode(code: string | null | undefined): string {
  const upper = (code ?? "").trim().toUpperCase();
  return /^[A-Z]{2}$/.test(upper) ? upper : "";
}

export function signUpRuleContext(facts: SignUpFacts): SignUpRuleContext {
  // Bounded: a provider's email is not checked by a route schema, and patterns run over these strings.
  const email = (facts.email ?? "").trim().toLowerCase().slice(0, MAX_SUBJECT_LENGTH);
  const at = email.lastIndexOf("@");
  return {
    email,
    emailDomain: at >= 0 ? email.slice(at + 1) : "",
    countryCode: normalizeCountryCode(facts.countryCode),
    authMethod: facts.authMethod,
    oauthProvider: (facts.oauthProvider ?? "").slice(0, MAX_SUBJECT_LENGTH),
    // The sign-up's scores (services/protection/risk.ts assessSignUp, computed by the gate); 0 where a caller has none (the tester).
    riskScores: facts.riskScores ?? { bot: 0, free_trial_abuse: 0 },
  };
}
