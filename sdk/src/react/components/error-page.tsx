/**
 * The error page the SDK and the API send users to: shows `errorCode` and `message`
 * from the query string (never as HTML) with a way back.
 */
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { currentSearch } from "./return-to";

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
  const params = new URLSearchParams(search ?? currentSearch());
  const code = params.get("errorCode");
  const message = params.get("message") ?? "An unexpected error occurred.";
  return (
    <AuthCard title="Something went wrong">
      <p className="stack-alert" role="alert">
        {message}
      </p>
      {code ? (
        <p className="stack-hint" style={{ marginTop: 12 }}>
          Error code: <code className="stack-code">{code}</code>
        </p>
      ) : null}
      <div className="stack-actions" style={{ marginTop: 20 }}>
        <a className="stack-button stack-secondary" href={app.urls.home}>
          Go home
        </a>
        <a className="stack-button" href={app.urls.signIn}>
          Sign in
        </a>
      </div>
    </AuthCard>
  );
}
