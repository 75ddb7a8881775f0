/**
 * The rules tester: "would this email, from this country, signing up this way, be allowed?" Runs
 * the saved rules through the admin app (POST /internal/sign-up-rules-test; nothing is created or
 * counted) and shows the outcome, the rule that decided, each rule's status and the context the
 * conditions read.
 */
import type { SignUpAuthMethod, SignUpRulesTestOutcome } from "@doorman/sdk";
import { type FormEvent, useState } from "react";
import { useProject } from "../../lib/project-context";
import { configErrorMessage } from "../config/api-error";
import { Alert, TextField, useAction } from "../console-ui";

const METHODS: { value: SignUpAuthMethod; label: string }[] = [
  { value: "password", label: "Password" },
  { value: "otp", label: "Magic link / one-time code" },
  { value: "oauth", label: "OAuth provider" },
  { value: "passkey", label: "Passkey" },
];

const STATUS: Record<SignUpRulesTestOutcome["evaluations"][number]["status"], string> = {
  matched: "matched",
  not_matched: "did not match",
  disabled: "disabled (skipped)",
  missing_condition: "no condition (skipped)",
  error: "failed to run (does not match)",
};

/** The outcome in one sentence, naming the deciding rule. */
export function outcomeSentence(result: SignUpRulesTestOutcome, names: Record<string, string>): string {
  const rule = (id: string) => (names[id] ? `${names[id]} (${id})` : id);
  const restricted = result.restrictedBecauseOfRuleId ? `, restricted by rule ${rule(result.restrictedBecauseOfRuleId)}` : "";
  switch (result.decision) {
    case "allow":
      return `Allowed by rule ${rule(result.decisionRuleId ?? "")}${restricted}.`;
    case "reject":
      return `Rejected by rule ${rule(result.decisionRuleId ?? "")}.`;
    case "default-allow":
      return `Allowed: no rule decided, so the default action (allow) did${restricted}.`;
    case "default-reject":
      return "Rejected: no rule decided, so the default action (reject) did.";
  }
}

export function RulesTester() {
  const { project } = useProject();
  const [email, setEmail] = useState("");
  const [country, setCountry] = useState("");
  const [method, setMethod] = useState<SignUpAuthMethod>("password");
  const [provider, setProvider] = useState("");
  const [countryError, setCountryError] = useState<string | null>(null);
  const [result, setResult] = useState<SignUpRulesTestOutcome | null>(null);
  const { busy, error, run } = useAction();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const code = country.trim().toUpperCase();
    if (code && !/^[A-Z]{2}$/.test(code)) {
      setCountryError("Use a 2-letter country code, like DE, or leave it empty.");
      return void setTimeout(() => document.getElementById("tester-country")?.focus());
    }
    setCountryError(null);
    await run(
      async () => {
        setResult(
          await project.app.testSignUpRules({
            email: email.trim() || null,
            authMethod: method,
            oauthProvider: method === "oauth" ? provider.trim() || null : null,
            countryCode: code || null,
          }),
        );
      },
      { fallback: "Could not run the tester.", message: (e, fallback) => configErrorMessage(e, fallback) },
    );
  };

  const names = Object.fromEntries((result?.evaluations ?? []).map((e) => [e.ruleId, e.displayName]));
  return (
    <section className="panel" aria-labelledby="tester-heading">
      <h2 id="tester-heading">Try the rules</h2>
      <p className="muted">Would this sign-up be allowed? Runs the saved rules as a real sign-up would; nothing is created or counted.</p>
      <form className="form" noValidate onSubmit={onSubmit} aria-label="Try the sign-up rules">
        <TextField
          id="tester-email"
          label="Email"
          type="email"
          autoComplete="off"
          placeholder="someone@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          id="tester-country"
          label="Country"
          autoComplete="off"
          placeholder="DE"
          maxLength={8}
          hint="A 2-letter code; empty: your own country, as a sign-up from here would get."
          value={country}
          error={countryError}
          onChange={(e) => setCountry(e.target.value)}
        />
        <div className="field">
          <label htmlFor="tester-method">Sign-up method</label>
          <select id="tester-method" className="input" value={method} onChange={(e) => setMethod(e.target.value as SignUpAuthMethod)}>
            {METHODS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        {method === "oauth" ? (
          <TextField
            id="tester-provider"
            label="OAuth provider"
            autoComplete="off"
            placeholder="github"
            value={provider}
            onChange={(e) => setProvider(e.target.value)}
          />
        ) : null}
        <Alert message={error} focus />
        <div className="form-actions">
          <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
            {busy ? "Testing…" : "Test"}
          </button>
        </div>
      </form>
      {result ? (
        <div className="tester-result" aria-live="polite">
          <p className={result.shouldAllow ? "tester-outcome allowed" : "tester-outcome rejected"} data-testid="tester-outcome">
            <strong>{outcomeSentence(result, names)}</strong>
          </p>
          {result.evaluations.length ? (
            <ol className="tester-evaluations" aria-label="Rules evaluated, in order">
              {result.evaluations.map((e) => (
                <li key={e.ruleId}>
                  <code>{e.ruleId}</code> {e.displayName ? `(${e.displayName}) ` : ""}
                  {e.action.type}: {STATUS[e.status]}
                  {e.error ? <span className="muted"> ({e.error})</span> : null}
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">No rule ran.</p>
          )}
          <h3>Context the conditions read</h3>
          <dl className="tester-context">
            <dt>email</dt>
            <dd>
              <code>{JSON.stringify(result.context.email)}</code>
            </dd>
            <dt>emailDomain</dt>
            <dd>
              <code>{JSON.stringify(result.context.emailDomain)}</code>
            </dd>
            <dt>emailDomainDisposable</dt>
            <dd>
              <code>{String(result.context.emailDomainDisposable)}</code>
            </dd>
            <dt>countryCode</dt>
            <dd>
              <code>{JSON.stringify(result.context.countryCode)}</code>
            </dd>
            <dt>authMethod</dt>
            <dd>
              <code>{JSON.stringify(result.context.authMethod)}</code>
            </dd>
            <dt>oauthProvider</dt>
            <dd>
              <code>{JSON.stringify(result.context.oauthProvider)}</code>
            </dd>
            <dt>riskScores</dt>
            <dd>
              <code>
                bot {result.context.riskScores.bot}, free_trial_abuse {result.context.riskScores.freeTrialAbuse}
              </code>
            </dd>
          </dl>
        </div>
      ) : null}
    </section>
  );
}
