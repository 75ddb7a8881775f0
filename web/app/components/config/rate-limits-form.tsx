/**
 * The project's rate limits (Settings page): for each rule, "count/seconds", "0" to turn it off,
 * or empty for the deployment's default. Saved as config.rate_limits.
 */

import { RATE_LIMIT_RULE_NAMES, RATE_LIMIT_RULES, RATE_LIMIT_VALUE, type RateLimitRule } from "@doorman/shared/rate-limit-rules";
import { type FormEvent, useId, useRef, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { Alert } from "../console-ui";
import { useConfigSave } from "./use-config-save";

const WORDS: Record<string, string> = { ip: "IP", otp: "OTP", cli: "CLI", oauth: "OAuth" };

/** "SIGN_IN_PER_EMAIL_IP" → "Sign in per email + IP". */
function ruleLabel(rule: string): string {
  const words = rule
    .toLowerCase()
    .split("_")
    .map((w) => WORDS[w] ?? w);
  const text = words.join(" ").replace("email IP", "email + IP");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function RateLimitsForm({ project }: { project: OwnedProject }) {
  const formId = useId();
  const { saving, errors, save } = useConfigSave();
  const stored = (project.config.rateLimits ?? {}) as Partial<Record<RateLimitRule, string>>;
  const [values, setValues] = useState<Partial<Record<RateLimitRule, string>>>(stored);
  const [invalid, setInvalid] = useState<RateLimitRule[]>([]);
  const formRef = useRef<HTMLFormElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const rateLimits: Partial<Record<RateLimitRule, string>> = {};
    for (const rule of RATE_LIMIT_RULE_NAMES) {
      const value = values[rule]?.trim();
      if (value) rateLimits[rule] = value;
    }
    const bad = RATE_LIMIT_RULE_NAMES.filter((r) => rateLimits[r] !== undefined && !RATE_LIMIT_VALUE.test(rateLimits[r]!));
    setInvalid(bad);
    if (bad.length) return formRef.current?.querySelector<HTMLInputElement>(`#${CSS.escape(`${formId}-${bad[0]}`)}`)?.focus();
    // Sent in wire form: the SDK's camelCase→snake_case key mapping would mangle the upper-case rule names.
    await save("rateLimits", () => project.update({ config: { rateLimits } }), "Rate limits saved.");
  };

  return (
    <form ref={formRef} className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${formId}-heading`}>
      <h2 id={`${formId}-heading`}>Rate limits</h2>
      <p className="muted">
        Requests allowed per window, as <code>count/seconds</code> (e.g. <code>30/60</code>); <code>0</code> turns a rule off; empty uses
        the default.
      </p>
      <Alert message={errors.rateLimits} focus />
      <div className="rate-limit-grid">
        {RATE_LIMIT_RULE_NAMES.map((rule) => {
          const id = `${formId}-${rule}`;
          const bad = invalid.includes(rule);
          return (
            <div className="field" key={rule}>
              <label htmlFor={id}>{ruleLabel(rule)}</label>
              <input
                id={id}
                className="input"
                value={values[rule] ?? ""}
                placeholder={`default ${RATE_LIMIT_RULES[rule]}`}
                autoComplete="off"
                aria-invalid={bad ? true : undefined}
                aria-describedby={bad ? `${id}-error` : undefined}
                onChange={(e) => setValues((all) => ({ ...all, [rule]: e.target.value }))}
              />
              {bad ? (
                <p className="field-error" id={`${id}-error`}>
                  Use count/seconds, like 30/60, or 0.
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn" disabled={saving !== null} aria-busy={saving === "rateLimits"}>
          {saving === "rateLimits" ? "Saving…" : "Save rate limits"}
        </button>
      </div>
    </form>
  );
}
