/**
 * Account settings: the user's passkey. Shows whether one is set up and registers one (a new
 * registration replaces the old). Hidden when the project has passkeys turned off.
 */
import { useState } from "react";
import type { ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import { useProjectFlag } from "../use-project";
import { useRefreshUser } from "../use-user";
import { FormAlert } from "./field";
import { passkeyErrorMessage } from "./passkey-messages";

/**
 * @example
 * <PasskeySection user={useUser({ or: "redirect" })} />
 */
export function PasskeySection({ user }: { user: ReactUser }) {
  const refreshUser = useRefreshUser();
  const { t } = useTranslation();
  const enabled = useProjectFlag("passkey_enabled") === true;
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);

  if (!enabled) return null;
  const hasPasskey = user.passkeyAuthEnabled === true;

  const register = async () => {
    setPending(true);
    setError(null);
    setSaved(false);
    try {
      const result = await user.registerPasskey();
      if (result.status === "error") setError(passkeyErrorMessage(result.error, "registration", t));
      else {
        await refreshUser();
        setSaved(true);
      }
    } catch (err) {
      setError(passkeyErrorMessage(err, "registration", t));
    }
    setPending(false);
  };

  return (
    <section className="stack-section" aria-labelledby="stack-passkey-heading">
      <h2 id="stack-passkey-heading">{t("passkey.heading")}</h2>
      <FormAlert message={error} />
      <div className="stack-actions">
        {hasPasskey ? <span className="stack-badge">{t("common.on")}</span> : null}
        <span className="stack-hint" data-testid="passkey-status">
          {hasPasskey ? t("passkey.statusOn") : t("passkey.statusOff")}
        </span>
        <button type="button" className="stack-button stack-secondary stack-small" disabled={pending} onClick={register}>
          {pending ? t("passkey.waitingDevice") : hasPasskey ? t("passkey.replace") : t("passkey.add")}
        </button>
        <span role="status" aria-live="polite" className="stack-hint">
          {saved ? t("passkey.saved") : ""}
        </span>
      </div>
    </section>
  );
}
