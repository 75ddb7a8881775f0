/**
 * The users page's "Create a user" form: email, an optional password and display name, and
 * whether the email counts as verified. Per-field errors; focus goes to the first one.
 */

import { KnownError } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import { focusFirstError } from "../../lib/focus-first-error";
import { useAction } from "../console-ui";

export type NewUser = { email: string; password: string | null; displayName: string | null; emailVerified: boolean };

type Errors = { email?: string; password?: string; form?: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// The wire's default password limits (a project can only be stricter on sign-up, not here).
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 70;

function check(email: string, password: string): Errors {
  const errors: Errors = {};
  if (!email) errors.email = "Please enter an email address.";
  else if (!EMAIL.test(email)) errors.email = "This is not an email address.";
  if (password && password.length < PASSWORD_MIN) errors.password = `At least ${PASSWORD_MIN} characters.`;
  else if (password.length > PASSWORD_MAX) errors.password = `At most ${PASSWORD_MAX} characters.`;
  return errors;
}

function fromServer(error: unknown): Errors {
  if (error instanceof KnownError) {
    if (error.code === "USER_EMAIL_ALREADY_EXISTS") return { email: "A user with this email already exists." };
    if (error.code === "PASSWORD_TOO_SHORT") return { password: "This password is too short." };
    if (error.code === "PASSWORD_TOO_LONG") return { password: "This password is too long." };
    // Too common, contains the project's or the account's name, or in a data breach: the server's message says which.
    if (error.code === "PASSWORD_REQUIREMENTS_NOT_MET" || error.code === "PASSWORD_BREACHED") return { password: error.message };
  }
  return { form: error instanceof Error && error.message ? error.message : "Could not create the user." };
}

export function CreateUserForm({ onCreate }: { onCreate: (user: NewUser) => Promise<void> }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [verified, setVerified] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const { busy: pending, run } = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const local = check(email.trim(), password);
    setErrors(local);
    if (Object.keys(local).length) return focusFirstError(form.current);
    await run(
      async () => {
        await onCreate({
          email: email.trim(),
          password: password || null,
          displayName: displayName.trim() || null,
          emailVerified: verified,
        });
        setEmail("");
        setPassword("");
        setDisplayName("");
        setVerified(false);
      },
      {
        message: (error) => {
          setErrors(fromServer(error));
          return null;
        },
        focus: form.current,
      },
    );
  };

  const field = (key: "email" | "password") => ({
    "aria-invalid": errors[key] ? true : undefined,
    "aria-describedby": errors[key] ? `${id}-${key}-error` : undefined,
  });

  return (
    <form ref={form} className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a user</h2>
      {errors.form ? (
        <p className="alert" role="alert" tabIndex={-1}>
          {errors.form}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          className="input"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          {...field("email")}
        />
        {errors.email ? (
          <p className="field-error" id={`${id}-email-error`}>
            {errors.email}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${id}-password`}>Password (optional)</label>
        <input
          id={`${id}-password`}
          className="input"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          {...field("password")}
        />
        {errors.password ? (
          <p className="field-error" id={`${id}-password-error`}>
            {errors.password}
          </p>
        ) : (
          <p className="muted field-hint">Without one, the user signs in with another method (magic link, OAuth, passkey).</p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>Display name (optional)</label>
        <input id={`${id}-name`} className="input" value={displayName} maxLength={256} onChange={(e) => setDisplayName(e.target.value)} />
      </div>
      <label className="checkbox-row">
        <input type="checkbox" checked={verified} onChange={(e) => setVerified(e.target.checked)} />
        Email verified
      </label>
      <div>
        <button type="submit" className="btn" disabled={pending} aria-busy={pending}>
          {pending ? "Creating…" : "Create user"}
        </button>
      </div>
    </form>
  );
}
