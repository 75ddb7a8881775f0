/**
 * The password section of account settings: change the password (current + new + repeat) or,
 * for a user without one, set a first password. Errors show next to the field they concern.
 */
import { type FormEvent, useState } from "react";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../shared/constants";
import type { ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import type { Translate } from "../i18n/translator";
import { useRefreshUser } from "../use-user";
import { checkNewPassword, localizedPasswordError } from "./credential-errors";
import { Field, FormAlert } from "./field";

type Errors = Partial<Record<"oldPassword" | "newPassword" | "repeat" | "form", string>>;

/** Maps a known error from the API onto the field it is about. */
function errorsFrom(error: unknown, t: Translate): Errors {
  const code = typeof error === "object" && error && "code" in error ? String((error as { code: unknown }).code) : "";
  const message = error instanceof Error && error.message ? error.message : t("password.changeFailed");
  if (code === "PASSWORD_CONFIRMATION_MISMATCH") return { oldPassword: t("password.wrongCurrent") };
  const localized = localizedPasswordError(code, t);
  if (localized) return { newPassword: localized };
  // Too short/long, too common, or containing the app's or the account's name (the server's password rules).
  if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG" || code === "PASSWORD_REQUIREMENTS_NOT_MET")
    return { newPassword: message };
  return { form: message };
}

/**
 * @example
 * <PasswordSection user={useUser({ or: "redirect" })} />
 */
export function PasswordSection({ user }: { user: ReactUser }) {
  const refreshUser = useRefreshUser();
  const { t } = useTranslation();
  const hasPassword = user.hasPassword ?? true;
  const [oldPassword, setOldPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: Errors = {};
    if (hasPassword && !oldPassword) next.oldPassword = t("password.enterCurrent");
    const problem = checkNewPassword(newPassword, t);
    if (problem) next.newPassword = problem;
    if (repeat !== newPassword) next.repeat = t("common.passwordsDoNotMatch");
    setErrors(next);
    setDone(false);
    if (Object.values(next).some(Boolean)) return;
    setPending(true);
    try {
      const result = hasPassword
        ? await user.updatePassword({ oldPassword, newPassword })
        : await user.setPassword({ password: newPassword });
      if (result.status === "error") setErrors(errorsFrom(result.error, t));
      else {
        setOldPassword("");
        setNewPassword("");
        setRepeat("");
        setDone(true);
        await refreshUser();
      }
    } catch (error) {
      setErrors(errorsFrom(error, t));
    }
    setPending(false);
  };

  return (
    <section className="stack-section" aria-labelledby="stack-password-heading">
      <h2 id="stack-password-heading">{t("password.heading")}</h2>
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label={t("password.heading")}>
        <FormAlert message={errors.form} />
        {hasPassword ? (
          <Field
            label={t("password.current")}
            name="oldPassword"
            type="password"
            autoComplete="current-password"
            value={oldPassword}
            onChange={(e) => setOldPassword(e.target.value)}
            error={errors.oldPassword}
          />
        ) : (
          <p className="stack-hint">{t("password.noPassword")}</p>
        )}
        <Field
          label={t("common.newPassword")}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
          error={errors.newPassword}
          hint={t("password.newHint", { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
        />
        <Field
          label={t("common.repeatNewPassword")}
          name="repeat"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          error={errors.repeat}
        />
        <div className="stack-actions">
          <button className="stack-button" type="submit" disabled={pending}>
            {pending ? t("common.saving") : hasPassword ? t("password.change") : t("password.set")}
          </button>
          <span role="status" aria-live="polite" className="stack-hint">
            {done ? t("password.changed") : ""}
          </span>
        </div>
      </form>
    </section>
  );
}
