/**
 * The handler's `impersonate` page: an owner's "Impersonate" link from the console lands here with
 * a one-time code in the fragment (`#code=…`). The page redeems it into an impersonation session
 * of the user, then goes on as after a sign-in. A used, expired or unknown code says so.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { FormAlert } from "./field";

/** The code of the fragment, read once, then dropped from the address bar (and its history entry). */
function takeCodeFromFragment(): string | null {
  if (typeof window === "undefined") return null;
  const code = new URLSearchParams(window.location.hash.slice(1)).get("code");
  if (window.location.hash) window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  return code;
}

/**
 * @example
 * <StackProvider app={app}><ImpersonationLanding /></StackProvider>
 */
export function ImpersonationLanding() {
  const app = useStackApp();
  const { t } = useTranslation();
  const started = useRef(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // React may run effects twice in development; the code works once.
    if (started.current) return;
    started.current = true;
    const code = takeCodeFromFragment();
    if (!code) {
      setError(t("impersonation.noCode"));
      return;
    }
    app.signInWithImpersonationCode(code).then(
      (result) => {
        if (result.status === "error") setError(t("impersonation.invalid"));
      },
      () => setError(t("impersonation.failed")),
    );
  }, [app, t]);

  return (
    <AuthCard
      title={error ? t("impersonation.failedTitle") : t("impersonation.opening")}
      subtitle={error ? undefined : t("impersonation.oneMoment")}
    >
      <FormAlert message={error} />
      {error ? (
        <div className="stack-actions" style={{ marginTop: 16 }}>
          <a className="stack-button stack-secondary" href={app.urls.home}>
            {t("common.goHome")}
          </a>
        </div>
      ) : null}
    </AuthCard>
  );
}
