/**
 * Shown on the sign-in and sign-up pages when someone is already signed in. When the page was
 * asked to hand the session to an app on another origin (the hosted pages), it does so at once.
 */
import { useEffect } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";

/**
 * @example
 * if (user) return <SignedInNotice />;
 */
export function SignedInNotice() {
  const app = useStackApp();
  useEffect(() => {
    app.handOffSession().catch((error: unknown) => console.error("[doorman] session handoff failed", error));
  }, [app]);
  const { t } = useTranslation();
  return (
    <AuthCard title={t("signedIn.title")} subtitle={t("signedIn.subtitle")}>
      <div className="stack-actions">
        <a className="stack-button" href={app.urls.home}>
          {t("common.continue")}
        </a>
        <a className="stack-button stack-secondary" href={app.urls.signOut}>
          {t("common.signOut")}
        </a>
      </div>
    </AuthCard>
  );
}
