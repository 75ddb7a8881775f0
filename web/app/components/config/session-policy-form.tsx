/**
 * The project's session policy (Settings page): idle timeout and absolute lifetime in minutes, and
 * the most sessions a user may have. 0 (or empty) is no limit, today's behaviour. Saved through
 * project.update as config.session_idle_timeout_minutes, session_max_lifetime_minutes and
 * max_sessions_per_user (`doorman.sessions.*` in the config override).
 */

import type { ProjectConfig } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { Alert } from "../console-ui";
import { useConfigSave } from "./use-config-save";

type Field = "sessionIdleTimeoutMinutes" | "sessionMaxLifetimeMinutes" | "maxSessionsPerUser";

/** 367 days in minutes: sessions never live longer (worker/services/project-config/flat.ts). */
const MAX_MINUTES = 367 * 24 * 60;

const FIELDS: { key: Field; label: string; hint: string; max: number }[] = [
  {
    key: "sessionIdleTimeoutMinutes",
    label: "Idle timeout (minutes)",
    hint: "A session not used for this long ends: the app signs the user out at its next refresh. 0: none. E.g. 1440 = one day.",
    max: MAX_MINUTES,
  },
  {
    key: "sessionMaxLifetimeMinutes",
    label: "Absolute lifetime (minutes)",
    hint: "A session ends this long after sign-in, however much it is used. 0: none (sessions last a year). E.g. 43200 = 30 days.",
    max: MAX_MINUTES,
  },
  {
    key: "maxSessionsPerUser",
    label: "Sessions per user",
    hint: "The most devices a user can be signed in on; a new sign-in ends the oldest session. 0: unlimited.",
    max: 1000,
  },
];

export function SessionPolicyForm({ project }: { project: OwnedProject }) {
  const formId = useId();
  const { saving, errors, save } = useConfigSave();
  const config = project.config as Partial<ProjectConfig>;
  const [values, setValues] = useState<Record<Field, string>>(() => ({
    sessionIdleTimeoutMinutes: String(config.sessionIdleTimeoutMinutes ?? 0),
    sessionMaxLifetimeMinutes: String(config.sessionMaxLifetimeMinutes ?? 0),
    maxSessionsPerUser: String(config.maxSessionsPerUser ?? 0),
  }));
  const [invalid, setInvalid] = useState<Field[]>([]);
  const formRef = useRef<HTMLFormElement>(null);

  const parse = (f: (typeof FIELDS)[number]): number | null => {
    const text = values[f.key].trim();
    if (text === "") return 0;
    if (!/^\d+$/.test(text)) return null;
    const n = Number(text);
    return n <= f.max ? n : null;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const bad = FIELDS.filter((f) => parse(f) === null).map((f) => f.key);
    setInvalid(bad);
    if (bad.length) return formRef.current?.querySelector<HTMLInputElement>(`#${CSS.escape(`${formId}-${bad[0]}`)}`)?.focus();
    const update = Object.fromEntries(FIELDS.map((f) => [f.key, parse(f)])) as Pick<ProjectConfig, Field>;
    await save("sessions", { config: update }, "Session policy saved.");
  };

  return (
    <form ref={formRef} className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${formId}-heading`}>
      <h2 id={`${formId}-heading`}>Sessions</h2>
      <p className="muted">
        How long people stay signed in. Each limit ends sessions for good (the user signs in again); 0 means no limit. Users can also sign
        out of all other devices from their account settings.
      </p>
      <Alert message={errors.sessions} focus />
      {FIELDS.map((f) => {
        const id = `${formId}-${f.key}`;
        const bad = invalid.includes(f.key);
        return (
          <div className="field" key={f.key}>
            <label htmlFor={id}>{f.label}</label>
            <input
              id={id}
              className="input"
              inputMode="numeric"
              value={values[f.key]}
              autoComplete="off"
              aria-invalid={bad ? true : undefined}
              aria-describedby={`${id}-hint${bad ? ` ${id}-error` : ""}`}
              onChange={(e) => setValues((all) => ({ ...all, [f.key]: e.target.value }))}
            />
            <span className="muted" id={`${id}-hint`}>
              {f.hint}
            </span>
            {bad ? (
              <p className="field-error" id={`${id}-error`}>
                A whole number from 0 to {f.max}.
              </p>
            ) : null}
          </div>
        );
      })}
      <div className="form-actions">
        <button type="submit" className="btn" disabled={saving !== null} aria-busy={saving === "sessions"}>
          {saving === "sessions" ? "Saving…" : "Save session policy"}
        </button>
      </div>
    </form>
  );
}
