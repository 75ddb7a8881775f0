/**
 * The cli-auth-confirm page (`/handler/cli-auth-confirm?login_code=…`): a signed-in person
 * authorizes (or cancels) a waiting command-line login. Signed out, it first sends them to
 * sign-in (or, when the CLI holds an anonymous session, signs in as that user and goes to
 * sign-up to upgrade it), with `after_auth_return_to` bringing them back here.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { useUser } from "../use-user";
import { AuthCard } from "./auth-card";
import { messageOf } from "./code-messages";
import { FormAlert } from "./field";

type Step = "checking" | "ask" | "redirecting" | "authorizing" | "done" | "cancelled" | "error";

/** The login code of the page's query string, if it looks like one. */
export function loginCodeFromSearch(search: string): string | null {
  const code = new URLSearchParams(search).get("login_code");
  return code && /^[a-zA-Z0-9]{1,256}$/.test(code) ? code : null;
}

/**
 * @example
 * <StackProvider app={app}><CliAuthConfirm search={window.location.search} /></StackProvider>
 */
export function CliAuthConfirm({ search }: { search: string }) {
  const app = useStackApp();
  const user = useUser();
  const { t, rich } = useTranslation();
  const loginCode = loginCodeFromSearch(search);
  const [{ step, error }, setView] = useState<{ step: Step; error?: string }>({ step: "checking" });
  const checked = useRef(false);

  // Check the code first (so an expired link says so at once); signed out, go and sign in.
  useEffect(() => {
    if (!loginCode || checked.current) return;
    checked.current = true;
    const run = async () => {
      const state = await app.checkCliLogin(loginCode);
      if (state.status === "error") return setView({ step: "error", error: state.error.message });
      if (user) return setView({ step: "ask" });
      setView({ step: "redirecting" });
      if (state.data === "anonymous" && (await app.claimCliAnonymousSession(loginCode)).status === "ok") {
        await app.redirectToSignUp({ replace: true });
      } else {
        await app.redirectToSignIn({ replace: true });
      }
    };
    run().catch((err: unknown) => setView({ step: "error", error: messageOf(err, t("common.somethingWrong")) }));
  }, [app, loginCode, user, t]);

  const authorize = async () => {
    if (!loginCode) return;
    setView({ step: "authorizing" });
    try {
      const result = await app.confirmCliLogin(loginCode);
      setView(result.status === "ok" ? { step: "done" } : { step: "error", error: result.error.message });
    } catch (err) {
      setView({ step: "error", error: messageOf(err, t("common.somethingWrong")) });
    }
  };

  if (!loginCode) {
    return (
      <AuthCard title={t("cli.invalidTitle")} subtitle={t("cli.invalidSubtitle")}>
        <HomeLink href={app.urls.home} />
      </AuthCard>
    );
  }
  if (step === "checking" || step === "redirecting") {
    return <AuthCard title={t("cli.title")} subtitle={step === "checking" ? t("cli.checking") : t("cli.redirecting")} />;
  }
  if (step === "done") {
    return <AuthCard title={t("cli.doneTitle")} subtitle={t("cli.doneSubtitle")} />;
  }
  if (step === "cancelled") {
    return (
      <AuthCard title={t("cli.cancelledTitle")} subtitle={t("cli.cancelledSubtitle")}>
        <HomeLink href={app.urls.home} />
      </AuthCard>
    );
  }
  if (step === "error") {
    return (
      <AuthCard title={t("cli.errorTitle")}>
        <FormAlert message={error} />
        <HomeLink href={app.urls.home} />
      </AuthCard>
    );
  }
  const who = user?.primaryEmail ?? user?.displayName ?? t("cli.yourAccount");
  return (
    <AuthCard title={t("cli.title")} subtitle={rich("cli.asking", { who: <strong>{who}</strong> })}>
      <p className="stack-hint">{t("cli.warning")}</p>
      <div className="stack-actions" style={{ marginTop: 16 }}>
        <button className="stack-button" type="button" disabled={step === "authorizing"} onClick={authorize}>
          {step === "authorizing" ? t("cli.authorizing") : t("cli.authorize")}
        </button>
        <button
          className="stack-button stack-secondary"
          type="button"
          disabled={step === "authorizing"}
          onClick={() => setView({ step: "cancelled" })}
        >
          {t("common.cancel")}
        </button>
      </div>
    </AuthCard>
  );
}

function HomeLink({ href }: { href: string }) {
  const { t } = useTranslation();
  return (
    <div className="stack-actions">
      <a className="stack-button stack-secondary" href={href}>
        {t("common.goHome")}
      </a>
    </div>
  );
}
