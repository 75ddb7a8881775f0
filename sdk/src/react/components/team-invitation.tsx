/**
 * The team-invitation handler page (?code=): shows the team and lets a signed-in user join it.
 * Signed out, it links to sign-in / sign-up and brings the user back here afterwards. Joining is
 * a button press, never automatic: following a link must not change memberships by itself.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/context";
import type { Translate } from "../i18n/translator";
import { useStackApp } from "../provider";
import type { ReactInvitationDetails } from "../team-types";
import { useUser } from "../use-user";
import { AuthCard } from "./auth-card";
import { codeErrorMessage, codeFromSearch, errorCodeOf, messageOf } from "./code-messages";
import { RETURN_TO_PARAM } from "./return-to";

type State =
  | { step: "loading" }
  | { step: "ready"; details: ReactInvitationDetails }
  | { step: "joining"; details: ReactInvitationDetails }
  | { step: "joined"; details: ReactInvitationDetails }
  | { step: "error"; message: string };

function errorMessage(error: unknown, t: Translate): string {
  const code = errorCodeOf(error);
  if (code === "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED") return t("invite.verifyFirst");
  return codeErrorMessage(code, "invitation", t) ?? messageOf(error, t("common.somethingWrong"));
}

/** The handler URL of this page, for `after_auth_return_to`. */
function here(search: string): string {
  return typeof window === "undefined" ? `/handler/team-invitation${search}` : window.location.pathname + search;
}

/**
 * @example
 * <StackProvider app={app}><TeamInvitation search={window.location.search} /></StackProvider>
 */
export function TeamInvitation({ search }: { search: string }) {
  const app = useStackApp();
  const user = useUser();
  const { t } = useTranslation();
  const code = codeFromSearch(search);
  const [state, setState] = useState<State>({ step: "loading" });

  // Keyed on the user's id, not the object: accepting refreshes the user, and re-reading the
  // details of the now-used code must not replace "joined" with "already used".
  const userId = user?.id ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of language (`t`) must not re-read the invitation.
  useEffect(() => {
    if (!code || !userId) return;
    let live = true;
    app.getTeamInvitationDetails(code).then(
      (result) => {
        if (!live) return;
        if (result.status === "ok" && result.data) setState({ step: "ready", details: result.data });
        else setState({ step: "error", message: result.status === "error" ? errorMessage(result.error, t) : t("invite.invalid") });
      },
      (error: unknown) => live && setState({ step: "error", message: errorMessage(error, t) }),
    );
    return () => {
      live = false;
    };
  }, [app, code, userId]);

  if (!code) {
    return (
      <AuthCard title={t("invite.invalidTitle")}>
        <p className="stack-alert" role="alert">
          {t("invite.invalidLink")}
        </p>
      </AuthCard>
    );
  }
  if (!user) {
    const back = `${RETURN_TO_PARAM}=${encodeURIComponent(here(search))}`;
    return (
      <AuthCard title={t("invite.title")} subtitle={t("invite.subtitle")}>
        <div className="stack-actions">
          <a className="stack-button" href={`${app.urls.signIn}?${back}`}>
            {t("invite.signIn")}
          </a>
          <a className="stack-button stack-secondary" href={`${app.urls.signUp}?${back}`}>
            {t("invite.signUp")}
          </a>
        </div>
      </AuthCard>
    );
  }
  if (state.step === "loading") return <AuthCard title={t("invite.checking")} />;
  if (state.step === "error") {
    return (
      <AuthCard title={t("invite.invalidTitle")}>
        <p className="stack-alert" role="alert">
          {state.message}
        </p>
        <a className="stack-button stack-secondary" href={app.urls.home}>
          {t("common.goHome")}
        </a>
      </AuthCard>
    );
  }
  const team = state.details.teamDisplayName;
  if (state.step === "joined") {
    return (
      <AuthCard title={t("invite.joinedTitle", { team })} subtitle={t("invite.joinedSubtitle")}>
        <a className="stack-button" href={app.urls.accountSettings}>
          {t("invite.openTeams")}
        </a>
      </AuthCard>
    );
  }
  const join = async () => {
    setState({ step: "joining", details: state.details });
    try {
      const result = await app.acceptTeamInvitation(code);
      setState(
        result.status === "ok" ? { step: "joined", details: state.details } : { step: "error", message: errorMessage(result.error, t) },
      );
    } catch (error) {
      setState({ step: "error", message: errorMessage(error, t) });
    }
  };
  return (
    <AuthCard title={t("invite.joinTitle", { team })} subtitle={t("invite.joinSubtitle", { team })}>
      <div className="stack-actions">
        <button type="button" className="stack-button" disabled={state.step === "joining"} onClick={join}>
          {state.step === "joining" ? t("invite.joining") : t("invite.joinTitle", { team })}
        </button>
        <a className="stack-button stack-secondary" href={app.urls.home}>
          {t("invite.notNow")}
        </a>
      </div>
    </AuthCard>
  );
}
