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
      setErrors({ form: messageOf(error) });
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
      setErrors({ form: messageOf(error) });
    }
    setPending(false);
  };

  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!secret) return;
    if (!codeMatches(secret, code.trim()))
      return setErrors({ code: "That code does not match. Check the time on your device and try again." });
    setErrors({});
    await save(secret);
  };

  return (
    <section className="stack-section" aria-labelledby="stack-mfa-heading">
      <h2 id="stack-mfa-heading">Two-factor authentication</h2>
      <FormAlert message={errors.form} />
      {user.isMultiFactorRequired ? (
        <>
          <div className="stack-actions">
            <span className="stack-badge">On</span>
            <span className="stack-hint">Sign-ins ask for a code from your authenticator app.</span>
            <button type="button" className="stack-button stack-secondary stack-small" disabled={pending} onClick={regenerate}>
              Regenerate recovery codes
            </button>
            <button type="button" className="stack-button stack-danger stack-small" disabled={pending} onClick={() => save(null)}>
              Turn off
            </button>
          </div>
          {recoveryCodes && <RecoveryCodeList codes={recoveryCodes} />}
        </>
      ) : secret ? (
        <form className="stack-form" noValidate onSubmit={confirm} aria-label="Confirm two-factor authentication">
          <p className="stack-hint">
            Add this key to your authenticator app (or open the link on your phone), then enter the code it shows.
          </p>
          <TotpQrCode uri={createTOTPKeyURI(label, user.primaryEmail ?? user.id, secret, 30, 6)} />
          <p>
            <code className="stack-code" data-testid="totp-secret">
              {encodeBase32NoPadding(secret)}
            </code>
          </p>
          <p>
            <a className="stack-link" href={createTOTPKeyURI(label, user.primaryEmail ?? user.id, secret, 30, 6)}>
              Open in an authenticator app
            </a>
          </p>
          <Field
            label="Code from your app"
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
              Turn on
            </button>
            <button type="button" className="stack-button stack-secondary" onClick={() => setSecret(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="stack-actions">
          <span className="stack-hint">Protect your account with a code from an authenticator app.</span>
          <button
            type="button"
            className="stack-button stack-secondary stack-small"
            onClick={() => setSecret(crypto.getRandomValues(new Uint8Array(20)))}
          >
            Set up
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
  const src = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(uri, { pixelSize: 4 }))}`, [uri]);
  return <img className="stack-qr" src={src} alt="QR code for your authenticator app" width={180} height={180} />;
}

/** A new set of recovery codes, shown once: each works once instead of a code from the app. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <section className="stack-form" aria-label="Recovery codes">
      <p className="stack-hint">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator app. They are shown only now;
        making new ones stops these from working.
      </p>
      <ul className="stack-code" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
