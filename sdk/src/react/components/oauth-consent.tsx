/**
 * The oauth-consent page (`{handler}/oauth-consent?request_id=…`, issue 30): a third-party app sent
 * the person here through the project's /authorize. Signed out, they sign in first and come back
 * (a prompt=none request is answered login_required instead); when the app wants a fresher sign-in
 * they sign in again; a remembered consent is approved at once; otherwise the page shows the app,
 * the account, what the app may do (and the team it acts for), and asks: Allow or Deny. Either
 * answer sends the browser back to the app.
 */
import { useEffect, useId, useRef, useState } from "react";
import type { OAuthAuthorizationRequest, Result } from "../../index";
import { isStandardScope } from "../../shared/oauth-scopes";
import { withReturnTo } from "../../urls";
import type { ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import type { MessageKey } from "../i18n/en";
import type { Translate } from "../i18n/translator";
import { useStackApp } from "../provider";
import { useProject } from "../use-project";
import { useUser } from "../use-user";
import { AuthCard } from "./auth-card";
import { errorCodeOf, messageOf } from "./code-messages";
import { FormAlert } from "./field";

type View =
  | { step: "working" }
  | { step: "ask"; request: OAuthAuthorizationRequest }
  | { step: "invalid" }
  | { step: "error"; message: string };
type Answer = Result<{ redirectUrl: string }>;

const NOT_FOUND = "OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND";
/** Refusals about the chosen team: shown on the team field. */
const TEAM_ERRORS: readonly string[] = ["OAUTH_TEAM_REQUIRED", "TEAM_MEMBERSHIP_NOT_FOUND"];

/** The request id of the page's query string, if it looks like one. */
export function requestIdFromSearch(search: string): string | null {
  const id = new URLSearchParams(search).get("request_id");
  return id && /^[\w-]{1,256}$/.test(id) ? id : null;
}

/** The host of a URL (e.g. "notes.example"), or the text itself when it is not one. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** Only web links are followed: a `javascript:` URL in an app's self-declared metadata must never become a link. */
function webLink(url: string | null): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/** What a scope lets the app do, in a sentence: the SDK's words for standard ones, the owner's for custom ones. */
function scopeSentence(scope: { name: string; description: string | null }, t: Translate): string {
  if (isStandardScope(scope.name)) return t(`consent.${scope.name}` as MessageKey);
  return scope.description ?? scope.name;
}

/**
 * Sends the browser to the app. Why no trusted-domain check here: the URL is the app's redirect
 * URI, which /authorize matched exactly against the app's registered ones before this page ran.
 */
function leave(url: string): void {
  window.location.assign(url);
}

/**
 * @example
 * <StackProvider app={app}><OAuthConsent search={window.location.search} /></StackProvider>
 */
export function OAuthConsent({ search }: { search: string }) {
  const app = useStackApp();
  const user = useUser();
  const { t } = useTranslation();
  const requestId = requestIdFromSearch(search);
  const [view, setView] = useState<View>(requestId ? { step: "working" } : { step: "invalid" });
  const started = useRef(false);

  const failed = (error: unknown) =>
    setView(
      errorCodeOf(error) === NOT_FOUND ? { step: "invalid" } : { step: "error", message: messageOf(error, t("common.somethingWrong")) },
    );
  const follow = (answer: Answer) => {
    if (answer.status === "error") return failed(answer.error);
    setView({ step: "working" });
    leave(answer.data.redirectUrl);
  };

  // Once per page: decide whether the person must (re-)sign in, may pass at once, or is asked.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the decision is made once; a later user change (sign-out) must not start it again.
  useEffect(() => {
    if (!requestId || started.current) return;
    started.current = true;
    const decide = async () => {
      if (!user) {
        // Signed out: only a prompt=none request can be answered now (login_required); any other needs a sign-in.
        const silent = await app.denyOAuthAuthorizationRequest(requestId, { error: "login_required" });
        if (silent.status === "ok" || errorCodeOf(silent.error) === NOT_FOUND) return follow(silent);
        return app.redirectToSignIn({ replace: true });
      }
      const got = await app.getOAuthAuthorizationRequest(requestId);
      if (got.status === "error") return failed(got.error);
      const request = got.data;
      const none = request.prompt.includes("none");
      if (request.reauthenticationRequired) {
        if (none) return follow(await app.denyOAuthAuthorizationRequest(requestId, { error: "login_required" }));
        // The app asked for a fresh sign-in (prompt=login, max_age): sign out, sign in, and come back here.
        return app.signOut({ redirectUrl: withReturnTo(app.urls.signIn) });
      }
      if (!request.consentRequired) return follow(await app.approveOAuthAuthorizationRequest(requestId));
      if (none) return follow(await app.denyOAuthAuthorizationRequest(requestId, { error: "consent_required" }));
      setView({ step: "ask", request });
    };
    decide().catch(failed);
  }, [app, requestId, user]);

  if (view.step === "ask" && user) return <ConsentForm request={view.request} user={user} onAnswer={follow} />;
  if (view.step === "working") return <AuthCard title={t("page.oauth-consent")} subtitle={t("common.loading")} />;
  return (
    <AuthCard title={t("page.oauth-consent")} subtitle={view.step === "invalid" ? t("consent.invalid") : undefined}>
      {view.step === "error" ? <FormAlert message={view.message} /> : null}
      <div className="stack-actions">
        <a className="stack-button stack-secondary" href={app.urls.home}>
          {t("common.goHome")}
        </a>
      </div>
    </AuthCard>
  );
}

/** The question itself: the app, the account, what it may do, the team, and Allow / Deny. */
function ConsentForm({
  request,
  user,
  onAnswer,
}: {
  request: OAuthAuthorizationRequest;
  user: ReactUser;
  onAnswer: (answer: Answer) => void;
}) {
  const app = useStackApp();
  const project = useProject();
  const { t, rich } = useTranslation();
  const ids = useId();
  const [teamId, setTeamId] = useState(request.teams[0]?.id ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; onTeam: boolean } | null>(null);
  const teamError = error?.onTeam ? error.message : null;
  const { client } = request;
  // A self-registered app (RFC 7591, or a metadata document) chose its own name: say so, and where it lives.
  const unverified = client.source !== "console";
  const home = hostOf(client.source === "metadata_document" ? client.clientId : request.redirectUri);
  const logo = client.logoUri && /^https:\/\//i.test(client.logoUri) ? client.logoUri : null;
  const noTeam = request.teamRequested && request.teams.length === 0;
  const links = (
    [
      [client.clientUri, "consent.site"],
      [client.policyUri, "consent.policy"],
      [client.tosUri, "consent.terms"],
    ] as const
  ).filter(([url]) => webLink(url));

  // Answers: success (or a request that is gone) goes up to the page; a refusal it can fix stays here, on its field.
  const answer = async (work: () => Promise<Answer>) => {
    setBusy(true);
    setError(null);
    try {
      const result = await work();
      if (result.status === "ok" || errorCodeOf(result.error) === NOT_FOUND) return onAnswer(result);
      const onTeam = TEAM_ERRORS.includes(result.error.code);
      setError({ message: result.error.message, onTeam });
    } catch (e) {
      setError({ message: messageOf(e, t("common.somethingWrong")), onTeam: false });
    }
    setBusy(false);
  };
  const allow = () => void answer(() => app.approveOAuthAuthorizationRequest(request.id, request.teamRequested ? { teamId } : {}));
  const deny = () => void answer(() => app.denyOAuthAuthorizationRequest(request.id));
  const switchAccount = () => void app.signOut({ redirectUrl: withReturnTo(app.urls.signIn) });

  return (
    <AuthCard
      title={t("consent.title", { app: client.name })}
      subtitle={rich("consent.account", { email: <strong>{user.primaryEmail ?? user.displayName ?? ""}</strong> })}
    >
      {logo ? (
        <div className="stack-actions" style={{ marginBottom: 12 }}>
          <img src={logo} alt="" width={40} height={40} style={{ borderRadius: 8, objectFit: "contain" }} />
          <strong>{client.name}</strong>
        </div>
      ) : null}
      {unverified ? (
        <p className="stack-alert stack-badge-warn" style={{ borderColor: "#fde68a", marginBottom: 12 }}>
          {t("consent.unverified", { project: project?.displayName ?? "", host: home })}
        </p>
      ) : null}
      <h2 id={`${ids}-scopes`}>{t("consent.allows", { app: client.name })}</h2>
      <ul className="stack-list" aria-labelledby={`${ids}-scopes`}>
        {request.scopes.map((scope) => (
          <li key={scope.name} className="stack-list-item">
            {scopeSentence(scope, t)}
          </li>
        ))}
        {request.resource ? <li className="stack-list-item">{t("consent.resource", { host: hostOf(request.resource) })}</li> : null}
      </ul>
      {request.teamRequested && !noTeam ? (
        <div className="stack-field" style={{ marginBottom: 12 }}>
          <label htmlFor={`${ids}-team`}>{t("consent.teamLabel")}</label>
          <select
            id={`${ids}-team`}
            className="stack-input"
            value={teamId}
            aria-invalid={teamError ? true : undefined}
            aria-describedby={teamError ? `${ids}-team-error` : undefined}
            onChange={(e) => {
              setTeamId(e.target.value);
              setError(null);
            }}
          >
            {request.teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.displayName}
              </option>
            ))}
          </select>
          {teamError ? (
            <p className="stack-field-error" id={`${ids}-team-error`}>
              {teamError}
            </p>
          ) : null}
        </div>
      ) : null}
      <FormAlert message={noTeam ? t("consent.noTeam") : error && !error.onTeam ? error.message : null} />
      {links.length > 0 ? (
        <p className="stack-hint">
          {links.map(([url, label], i) => (
            <span key={label}>
              {i > 0 ? " · " : ""}
              <a className="stack-link" href={url ?? undefined} target="_blank" rel="noopener noreferrer">
                {t(label)}
              </a>
            </span>
          ))}
        </p>
      ) : null}
      <p className="stack-hint" style={{ margin: "8px 0 16px" }}>
        {t("consent.goesTo", { host: hostOf(request.redirectUri) })}
      </p>
      <div className="stack-actions">
        <button className="stack-button" type="button" disabled={busy || noTeam} onClick={allow}>
          {t("consent.allow")}
        </button>
        <button className="stack-button stack-secondary" type="button" disabled={busy} onClick={deny}>
          {t("consent.deny")}
        </button>
      </div>
      <button className="stack-switch stack-link" type="button" disabled={busy} onClick={switchAccount}>
        {t("consent.switch")}
      </button>
    </AuthCard>
  );
}
