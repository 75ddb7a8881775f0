/**
 * The "Sign in with a passkey" button of the sign-in page. Shown only when the project has
 * passkeys on; the SDK redirects after a successful sign-in (or to the mfa page for TOTP users).
 */
import { useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { useProjectFlag } from "../use-project";
import { FormAlert } from "./field";
import { passkeyErrorMessage } from "./passkey-messages";

/**
 * @example
 * <PasskeySignInButton />
 */
export function PasskeySignInButton() {
  const app = useStackApp();
  const { t } = useTranslation();
  const enabled = useProjectFlag("passkey_enabled") === true;
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  if (!enabled) return null;

  const signIn = async () => {
    setPending(true);
    setError(null);
    try {
      const result = await app.signInWithPasskey();
      if (result.status === "error" && result.error.code !== "MULTI_FACTOR_AUTHENTICATION_REQUIRED") {
        setError(passkeyErrorMessage(result.error, "sign-in", t));
        setPending(false);
      }
    } catch (err) {
      setError(passkeyErrorMessage(err, "sign-in", t));
      setPending(false);
    }
  };

  return (
    <div className="stack-form" style={{ marginBottom: 16 }}>
      <FormAlert message={error} />
      <button type="button" className="stack-button stack-secondary" disabled={pending} onClick={signIn}>
        {pending ? t("passkey.waiting") : t("passkey.signIn")}
      </button>
    </div>
  );
}
