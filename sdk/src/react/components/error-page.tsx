/**
 * The error page the SDK and the API send users to: shows `errorCode` and `message`
 * from the query string (never as HTML) with a way back.
 */
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { currentSearch } from "./return-to";

/**
 * Our own wording for known errors whose wire message (kept as the reference's for API
 * compatibility) names another product's dashboard or says nothing about what to do.
 */
const PAGE_MESSAGES: Record<string, string> = {
  REDIRECT_URL_NOT_WHITELISTED:
    "This sign-in was sent to a domain the project does not trust. If you run this site, add the domain under Domains in the Doorman console.",
  OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS:
    "This sign-in asks for extra permissions, which need the site's own OAuth keys. If you run this site, add them under Sign-in methods in the Doorman console.",
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS:
    "This site needs its own OAuth keys to use the provider's access tokens. If you run this site, add them under Sign-in methods in the Doorman console.",
  INVALID_SCOPE: "The sign-in asked for a scope that is not valid.",
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
  const params = new URLSearchParams(search ?? currentSearch());
  const code = params.get("errorCode");
  const message = (code ? PAGE_MESSAGES[code] : undefined) ?? params.get("message") ?? "An unexpected error occurred.";
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
