/**
 * The sign-out page: signs the user out as soon as it mounts, then goes to
 * after-sign-out (the SDK redirects; if the page is still here after the SDK's redirect
 * wait, e.g. with redirectMethod "none", it navigates itself).
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { FormAlert } from "./field";

const REDIRECT_WAIT_MS = 2000; // SPEC §9 "Redirect wait"

/**
 * Signs out on mount and redirects.
 *
 * @example
 * <StackProvider app={app}><SignOut /></StackProvider>
 */
export function SignOut() {
  const app = useStackApp();
  const { t } = useTranslation();
  const started = useRef(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // React may run effects twice in development; sign out once.
    if (started.current) return;
    started.current = true;
    app
      .signOut()
      .then(() => {
        setTimeout(() => window.location.replace(app.urls.afterSignOut), REDIRECT_WAIT_MS);
      })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : t("signOut.failed")));
  }, [app, t]);

  return (
    <AuthCard title={error ? t("signOut.failedTitle") : t("signOut.title")} subtitle={error ? undefined : t("signOut.subtitle")}>
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
