/**
 * The "Check your email" step of a password sign-in from a new device (Doorman, issue 29): the
 * 6-character code mailed after DEVICE_VERIFICATION_REQUIRED finishes the sign-in (the SDK redirects),
 * a new code can be asked for, and wrong, expired or used-up codes say so on the field or the form.
 */
import { type FormEvent, useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { codeErrorMessage, errorCodeOf, messageOf } from "./code-messages";
import { Field, FormAlert } from "./field";

export type DeviceAttempt = { attemptCode: string; sentTo: string };

/** The waiting sign-in of a DEVICE_VERIFICATION_REQUIRED error, or null for any other error. */
export function deviceAttemptFrom(error: unknown): DeviceAttempt | null {
  if (errorCodeOf(error) !== "DEVICE_VERIFICATION_REQUIRED") return null;
  const details = (error as { details?: Record<string, unknown> }).details;
  const attemptCode = details?.attempt_code;
  return typeof attemptCode === "string" ? { attemptCode, sentTo: typeof details?.sent_to === "string" ? details.sent_to : "" } : null;
}

export function DeviceCodeStep({ attempt, onBack }: { attempt: DeviceAttempt; onBack: () => void }) {
  const app = useStackApp();
  const { t } = useTranslation();
  const [current, setCurrent] = useState(attempt);
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ code?: string; form?: string }>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const verify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = code.trim();
    if (!/^[A-Za-z0-9]{6}$/.test(typed)) {
      setErrors({ code: t("magicLink.enterCode") });
      return;
    }
    setPending(true);
    setErrors({});
    setNotice(null);
    try {
      const result = await app.verifyDeviceCode(typed, { attemptCode: current.attemptCode });
      if (result.status === "ok") return; // the SDK is redirecting now
      const reason = errorCodeOf(result.error);
      // A wrong guess belongs to the field; an expired or used-up code to the form (the next step is a new code).
      if (reason === "DEVICE_VERIFICATION_CODE_INVALID") setErrors({ code: t("deviceCode.wrongCode") });
      else setErrors({ form: codeErrorMessage(reason, "code", t) ?? result.error.message });
    } catch (error) {
      setErrors({ form: messageOf(error, t("common.somethingWrong")) });
    }
    setPending(false);
  };

  const resend = async () => {
    setPending(true);
    setErrors({});
    setNotice(null);
    try {
      const result = await app.resendDeviceCode({ attemptCode: current.attemptCode });
      if (result.status === "ok") {
        setCurrent(result.data);
        setCode("");
        setNotice(t("deviceCode.resent", { email: result.data.sentTo }));
      } else setErrors({ form: codeErrorMessage(errorCodeOf(result.error), "signInAttempt", t) ?? result.error.message });
    } catch (error) {
      setErrors({ form: messageOf(error, t("common.somethingWrong")) });
    }
    setPending(false);
  };

  return (
    <form className="stack-form" noValidate onSubmit={verify} aria-label={t("deviceCode.formLabel")}>
      <p className="stack-hint" role="status">
        {notice ?? t("deviceCode.sent", { email: current.sentTo })}
      </p>
      <FormAlert message={errors.form} />
      <Field
        label={t("common.code")}
        name="device-code"
        autoComplete="one-time-code"
        inputMode="text"
        autoFocus
        maxLength={6}
        value={code}
        onChange={(e) => {
          setCode(e.target.value.toUpperCase());
          setErrors({});
        }}
        error={errors.code}
      />
      <button className="stack-button" type="submit" disabled={pending}>
        {pending ? t("common.signingIn") : t("deviceCode.verify")}
      </button>
      <button className="stack-button stack-secondary" type="button" disabled={pending} onClick={resend}>
        {t("deviceCode.resend")}
      </button>
      <button type="button" className="stack-link stack-switch" onClick={onBack}>
        {t("deviceCode.back")}
      </button>
    </form>
  );
}
