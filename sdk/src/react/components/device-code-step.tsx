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

export function DeviceCodeStep({ attempt, onBack }: { attempt: DeviceAttempt; onBack: () => void }) {
  const app = useStackApp();
  const { t } = useTranslation();
  const [current, setCurrent] = useState(attempt);
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ code?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  /** Runs one request with the pending flag; an unexpected failure is the form's error. */
  const settle = async (work: () => Promise<void>) => {
    setPending(true);
    setErrors({});
    try {
      await work();
    } catch (error) {
      setErrors({ form: messageOf(error, t("common.somethingWrong")) });
    }
    setPending(false);
  };

  const verify = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = code.trim();
    if (!/^[A-Za-z0-9]{6}$/.test(typed)) return setErrors({ code: t("magicLink.enterCode") });
    void settle(async () => {
      const result = await app.verifyDeviceCode(typed, { attemptCode: current.attemptCode });
      if (result.status === "ok") return; // the SDK is redirecting now
      const reason = errorCodeOf(result.error);
      // A wrong guess belongs to the field; an expired or used-up code to the form (the next step is a new code).
      setErrors(
        reason === "DEVICE_VERIFICATION_CODE_INVALID"
          ? { code: t("code.notFound.code") }
          : { form: codeErrorMessage(reason, "code", t) ?? result.error.message },
      );
    });
  };

  const resend = () =>
    settle(async () => {
      const result = await app.resendDeviceCode({ attemptCode: current.attemptCode });
      if (result.status === "error")
        return setErrors({ form: codeErrorMessage(errorCodeOf(result.error), "signInAttempt", t) ?? result.error.message });
      setCurrent(result.data);
      setCode("");
    });

  return (
    <form className="stack-form" noValidate onSubmit={verify} aria-label={t("forgot.sentTitle")}>
      {/* A new code is a new attempt: the status line is rendered afresh, so it is announced again. */}
      <p className="stack-hint" role="status" key={current.attemptCode}>
        {t("deviceCode.sent", { email: current.sentTo })}
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
        {pending ? t("common.signingIn") : t("common.signIn")}
      </button>
      <button className="stack-button stack-secondary" type="button" disabled={pending} onClick={resend}>
        {t("deviceCode.resend")}
      </button>
      <button type="button" className="stack-link stack-switch" onClick={onBack}>
        {t("common.backToSignIn")}
      </button>
    </form>
  );
}
