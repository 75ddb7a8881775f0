/**
 * The oauth-callback handler page: finishes the provider sign-in once (a ref guards against
 * React strict mode's double effects), then the SDK redirects. Without code and state (or the
 * stored state) nothing happens and the page offers the way back to sign-in.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { messageOf } from "./code-messages";

type Outcome = { state: "working" } | { state: "ignored" } | { state: "error"; message: string };

/**
 * @example
 * <StackProvider app={app}><OAuthCallback /></StackProvider>
 */
export function OAuthCallback() {
  const app = useStackApp();
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<Outcome>({ state: "working" });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    app.callOAuthCallback().then(
      (done) => {
        if (!done) setOutcome({ state: "ignored" });
      },
      (error: unknown) => setOutcome({ state: "error", message: messageOf(error, t("common.somethingWrong")) }),
    );
  }, [app, t]);

  if (outcome.state === "working") return <AuthCard title={t("oauthCallback.title")} />;
  return (
    <AuthCard title={outcome.state === "error" ? t("oauthCallback.failedTitle") : t("oauthCallback.nothingTitle")}>
      {outcome.state === "error" ? (
        <p className="stack-alert" role="alert">
          {outcome.message}
        </p>
      ) : null}
      <a className="stack-button stack-secondary" href={app.urls.signIn}>
        {t("common.backToSignIn")}
      </a>
    </AuthCard>
  );
}
