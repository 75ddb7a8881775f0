/**
 * The error page the SDK and the API send users to: shows `errorCode` and `message`
 * from the query string (never as HTML) with a way back.
 */
import { useTranslation } from "../i18n/context";
import type { MessageKey } from "../i18n/en";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { currentSearch } from "./return-to";

/**
 * Our own wording for known errors whose wire message (kept as the reference's for API
 * compatibility) names another product's dashboard or says nothing about what to do.
 */
const PAGE_MESSAGES: Record<string, MessageKey> = {
  REDIRECT_URL_NOT_WHITELISTED: "errorPage.redirectUrl",
  OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: "errorPage.extraScope",
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: "errorPage.accessToken",
  INVALID_SCOPE: "errorPage.invalidScope",
};

export type ErrorPageProps = {
  /** The query string to read (defaults to the browser's). */
  search?: string;
};

/**
 * @example
 * // /handler/error?errorCode=REDIRECT_URL_NOT_WHITELISTED&message=...
 * <StackProvider app={app}><ErrorPage /></StackProvider>
 */
export function ErrorPage({ search }: ErrorPageProps) {
  const app = useStackApp();
  const { t } = useTranslation();
  const params = new URLSearchParams(search ?? currentSearch());
  const code = params.get("errorCode");
  const key = code ? PAGE_MESSAGES[code] : undefined;
  const message = (key ? t(key) : undefined) ?? params.get("message") ?? t("errorPage.unexpected");
  return (
    <AuthCard title={t("errorPage.title")}>
      <p className="stack-alert" role="alert">
        {message}
      </p>
      {code ? (
        <p className="stack-hint" style={{ marginTop: 12 }}>
          {t("errorPage.code")} <code className="stack-code">{code}</code>
        </p>
      ) : null}
      <div className="stack-actions" style={{ marginTop: 20 }}>
        <a className="stack-button stack-secondary" href={app.urls.home}>
          {t("common.goHome")}
        </a>
        <a className="stack-button" href={app.urls.signIn}>
          {t("common.signIn")}
        </a>
      </div>
    </AuthCard>
  );
}
