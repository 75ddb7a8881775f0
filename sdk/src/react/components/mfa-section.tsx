/**
 * Account settings: TOTP two-factor authentication. Setting up shows a QR code of the new
 * secret's otpauth:// URI (plus the key and link) and turns MFA on only after a first code
 * from the app checks out.
 */
import { encodeBase32NoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import { type FormEvent, useMemo, useState } from "react";
import { renderSVG } from "uqr";
import type { ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import { useProject } from "../use-project";
import { useRefreshUser } from "../use-user";
import { messageOf } from "./code-messages";
import { Field, FormAlert } from "./field";

/** Does `code` match `secret` now, allowing one 30-second step of clock drift? */
function codeMatches(secret: Uint8Array, code: string): boolean {
  const step = BigInt(Math.floor(Date.now() / 30_000));
  return [step - 1n, step, step + 1n].some((counter) => generateHOTP(secret, counter, 6) === code);
}

/**
 * @example
 * <MfaSection user={useUser({ or: "redirect" })} issuer="My app" />
 */
export function MfaSection({ user, issuer }: { user: ReactUser; issuer?: string }) {
  // The label people see in their authenticator app: the project's name (the site's host until it loads).
  const projectName = useProject()?.displayName;
  const label = issuer ?? projectName ?? (typeof window === "undefined" ? "" : window.location.host);
  const refreshUser = useRefreshUser();
  const { t } = useTranslation();
  const fail = (error: unknown) => setErrors({ form: messageOf(error, t("common.somethingWrong")) });
  const [secret, setSecret] = useState<Uint8Array | null>(null);
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ code?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  // Shown once, right after TOTP is turned on or the codes are made again.
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const regenerate = async () => {
    setPending(true);
    try {
      setRecoveryCodes(await user.generateRecoveryCodes());
    } catch (error) {
      fail(error);
    }
    setPending(false);
  };

  const save = async (value: Uint8Array | null) => {
    setPending(true);
    try {
      await user.update({ totpMultiFactorSecret: value });
      setRecoveryCodes(value ? await user.generateRecoveryCodes() : null);
      await refreshUser();
      setSecret(null);
      setCode("");
    } catch (error) {
      fail(error);
    }
    setPending(false);
  };

  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!secret) return;
    if (!codeMatches(secret, code.trim())) return setErrors({ code: t("mfa.codeMismatch") });
    setErrors({});
    await save(secret);
  };

  return (
    <section className="stack-section" aria-labelledby="stack-mfa-heading">
      <h2 id="stack-mfa-heading">{t("mfa.heading")}</h2>
      <FormAlert message={errors.form} />
      {user.isMultiFactorRequired ? (
        <>
          <div className="stack-actions">
            <span className="stack-badge">{t("common.on")}</span>
            <span className="stack-hint">{t("mfa.onHint")}</span>
            <button type="button" className="stack-button stack-secondary stack-small" disabled={pending} onClick={regenerate}>
              {t("mfa.regenerate")}
            </button>
            <button type="button" className="stack-button stack-danger stack-small" disabled={pending} onClick={() => save(null)}>
              {t("mfa.turnOff")}
            </button>
          </div>
          {recoveryCodes && <RecoveryCodeList codes={recoveryCodes} />}
        </>
      ) : secret ? (
        <form className="stack-form" noValidate onSubmit={confirm} aria-label={t("mfa.confirmLabel")}>
          <p className="stack-hint">{t("mfa.setupHint")}</p>
          <TotpQrCode uri={createTOTPKeyURI(label, user.primaryEmail ?? user.id, secret, 30, 6)} />
          <p>
            <code className="stack-code" data-testid="totp-secret">
              {encodeBase32NoPadding(secret)}
            </code>
          </p>
          <p>
            <a className="stack-link" href={createTOTPKeyURI(label, user.primaryEmail ?? user.id, secret, 30, 6)}>
              {t("common.openAuthenticator")}
            </a>
          </p>
          <Field
            label={t("mfa.codeFromApp")}
            name="totpCode"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={errors.code}
          />
          <div className="stack-actions">
            <button className="stack-button" type="submit" disabled={pending}>
              {t("mfa.turnOn")}
            </button>
            <button type="button" className="stack-button stack-secondary" onClick={() => setSecret(null)}>
              {t("common.cancel")}
            </button>
          </div>
        </form>
      ) : (
        <div className="stack-actions">
          <span className="stack-hint">{t("mfa.offHint")}</span>
          <button
            type="button"
            className="stack-button stack-secondary stack-small"
            onClick={() => setSecret(crypto.getRandomValues(new Uint8Array(20)))}
          >
            {t("mfa.setUp")}
          </button>
        </div>
      )}
    </section>
  );
}

/**
 * The otpauth:// URI as a QR code for authenticator apps. Drawn here in the browser: the
 * secret never goes to a third-party QR service.
 */
export function TotpQrCode({ uri }: { uri: string }) {
  const { t } = useTranslation();
  const src = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(uri, { pixelSize: 4 }))}`, [uri]);
  return <img className="stack-qr" src={src} alt={t("mfa.qrAlt")} width={180} height={180} />;
}

/** A new set of recovery codes, shown once: each works once instead of a code from the app. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <section className="stack-form" aria-label={t("mfa.recoveryLabel")}>
      <p className="stack-hint">{t("mfa.recoveryHint")}</p>
      <ul className="stack-code" data-testid="recovery-codes" dir="ltr">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
