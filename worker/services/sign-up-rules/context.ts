/** The sign-up context a rule's condition reads, built as the reference builds it (empty strings, never null). */
import { isDisposableDomain } from "../protection/disposable-domains";
import type { SignUpRuleContext } from "./cel";
import { MAX_SUBJECT_LENGTH } from "./cost";

export const SIGN_UP_AUTH_METHODS = ["password", "otp", "oauth", "passkey"] as const;
export type SignUpAuthMethod = (typeof SIGN_UP_AUTH_METHODS)[number];

export type SignUpFacts = {
  email: string | null;
  authMethod: SignUpAuthMethod;
  oauthProvider?: string | null;
  countryCode?: string | null;
  riskScores?: { bot: number; free_trial_abuse: number };
  /** The sign-up's Turnstile assessment (services/protection/bot-challenge.ts), as the tester's `turnstile_result`; absent = none was made. */
  turnstileResult?: "ok" | "invalid" | "error";
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
  const emailDomain = at >= 0 ? email.slice(at + 1) : "";
  return {
    email,
    emailDomain,
    // Doorman extension: from the bundled list (a subdomain of a listed domain counts too).
    emailDomainDisposable: emailDomain !== "" && isDisposableDomain(emailDomain),
    countryCode: normalizeCountryCode(facts.countryCode),
    authMethod: facts.authMethod,
    oauthProvider: (facts.oauthProvider ?? "").slice(0, MAX_SUBJECT_LENGTH),
    // The sign-up's scores (services/protection/risk.ts assessSignUp, computed by the gate); 0 where a caller has none (the tester).
    riskScores: facts.riskScores ?? { bot: 0, free_trial_abuse: 0 },
  };
}
