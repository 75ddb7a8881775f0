/**
 * Pages an emailed link lands on: email verification and magic-link sign-in. Opening the link
 * only checks the code (the non-consuming check-code routes), so a mail scanner or a prefetch
 * that opens it does not use it up; the person then clicks once to act. A used, expired or
 * unknown link says what happened and offers the next step.
 */
import { useCallback, useEffect, useState } from "react";
import type { CredentialResult } from "../app-types";
import { useTranslation } from "../i18n/context";
import type { Translate } from "../i18n/translator";
import { useStackApp } from "../provider";
import { useRefreshUser } from "../use-user";
import { AuthCard } from "./auth-card";
import { codeFromSearch, invalidLink, type LinkKind, type LinkProblem, linkProblem } from "./code-messages";

export type LinkPhase =
  | { step: "checking" }
  | { step: "ready" }
  | { step: "working" }
  | { step: "done" }
  | { step: "failed"; problem: LinkProblem };

/**
 * The state of an emailed link's page: checks the code on mount (without using it), then
 * `act()` uses it on the person's click. `recheck()` retries after a failure such as a 429.
 */
export function useEmailedLink(
  code: string | null,
  kind: LinkKind,
  check: (code: string) => Promise<CredentialResult>,
  use: (code: string) => Promise<CredentialResult>,
): { phase: LinkPhase; act: () => Promise<void>; recheck: () => void } {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<LinkPhase>(code ? { step: "checking" } : { step: "failed", problem: invalidLink(t) });
  const [round, setRound] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` re-runs the check on "Try again"; `check` is a new function every render.
  useEffect(() => {
    if (!code) return;
    let live = true;
    setPhase({ step: "checking" });
    check(code).then(
      (result) =>
        live && setPhase(result.status === "ok" ? { step: "ready" } : { step: "failed", problem: linkProblem(result.error, kind, t) }),
      (error: unknown) => live && setPhase({ step: "failed", problem: linkProblem(error, kind, t) }),
    );
    return () => {
      live = false;
    };
  }, [code, kind, round]);

  const act = useCallback(async () => {
    if (!code) return;
    setPhase({ step: "working" });
    try {
      const result = await use(code);
      if (result.status === "ok") setPhase({ step: "done" });
      // A TOTP user is on the way to the mfa page: stay on "working" until the page changes.
      else if ((result.error as { code?: string }).code !== "MULTI_FACTOR_AUTHENTICATION_REQUIRED") {
        setPhase({ step: "failed", problem: linkProblem(result.error, kind, t) });
      }
    } catch (error) {
      setPhase({ step: "failed", problem: linkProblem(error, kind, t) });
    }
  }, [code, kind, use, t]);

  return { phase, act, recheck: () => setRound((n) => n + 1) };
}

/**
 * What went wrong with a link, and the one next step as a button.
 *
 * @example
 * <LinkProblemBody problem={phase.problem} kind="magic-link" onRetry={recheck} />
 */
export function LinkProblemBody({ problem, kind, onRetry }: { problem: LinkProblem; kind: LinkKind; onRetry: () => void }) {
  const app = useStackApp();
  const { t } = useTranslation();
  return (
    <>
      <p className="stack-alert" role="alert">
        {problem.message}
      </p>
      <div className="stack-actions stack-link-next">{nextStep(problem, kind, app.urls, onRetry, t)}</div>
    </>
  );
}

function nextStep(
  problem: LinkProblem,
  kind: LinkKind,
  urls: { signIn: string; accountSettings: string; forgotPassword?: string },
  onRetry: () => void,
  t: Translate,
) {
  switch (problem.next) {
    case "retry":
      return (
        <button type="button" className="stack-button stack-secondary" onClick={onRetry}>
          {t("common.tryAgain")}
        </button>
      );
    case "sign-in":
      return (
        <a className="stack-button" href={urls.signIn}>
          {t("common.signIn")}
        </a>
      );
    case "account-settings":
      return (
        <a className="stack-button" href={urls.accountSettings}>
          {t("link.goToAccountSettings")}
        </a>
      );
    case "new-link":
      if (kind === "password-reset") {
        return (
          <a className="stack-button" href={urls.forgotPassword ?? urls.signIn}>
            {t("link.sendNew")}
          </a>
        );
      }
      if (kind === "magic-link") {
        return (
          <a className="stack-button" href={urls.signIn}>
            {t("link.signInForNew")}
          </a>
        );
      }
      // Account settings has "Send verification email" next to the address.
      return (
        <a className="stack-button" href={urls.accountSettings}>
          {t("link.sendNewFromSettings")}
        </a>
      );
  }
}

/**
 * Verifies the email address of the link (?code=) when the person clicks "Verify my email".
 *
 * @example
 * <StackProvider app={app}><EmailVerification search={window.location.search} /></StackProvider>
 */
export function EmailVerification({ search }: { search: string }) {
  const app = useStackApp();
  const { t } = useTranslation();
  const refreshUser = useRefreshUser();
  const { phase, act, recheck } = useEmailedLink(
    codeFromSearch(search),
    "email-verification",
    (code) => app.checkEmailVerificationCode(code),
    async (code) => {
      const result = await app.verifyEmail(code);
      if (result.status === "ok") await refreshUser().catch(() => undefined);
      return result;
    },
  );
  if (phase.step === "done") {
    return (
      <AuthCard title={t("verify.doneTitle")} subtitle={t("verify.doneSubtitle")}>
        <a className="stack-button" href={app.urls.home}>
          {t("common.continue")}
        </a>
      </AuthCard>
    );
  }
  if (phase.step === "failed") {
    return (
      <AuthCard title={t("verify.failedTitle")}>
        <LinkProblemBody problem={phase.problem} kind="email-verification" onRetry={recheck} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("verify.title")} subtitle={t("verify.subtitle")}>
      <button type="button" className="stack-button" disabled={phase.step !== "ready"} aria-busy={phase.step !== "ready"} onClick={act}>
        {phase.step === "working" ? t("verify.working") : t("verify.submit")}
      </button>
    </AuthCard>
  );
}

/**
 * Signs in with the magic link (?code=) when the person clicks "Sign in", then redirects as
 * after any sign-in.
 *
 * @example
 * <StackProvider app={app}><MagicLinkCallback search={window.location.search} /></StackProvider>
 */
export function MagicLinkCallback({ search }: { search: string }) {
  const app = useStackApp();
  const { t } = useTranslation();
  const { phase, act, recheck } = useEmailedLink(
    codeFromSearch(search),
    "magic-link",
    (code) => app.checkMagicLinkCode(code),
    (code) => app.signInWithMagicLink(code),
  );
  if (phase.step === "failed") {
    return (
      <AuthCard title={t("magicLink.failedTitle")}>
        <LinkProblemBody problem={phase.problem} kind="magic-link" onRetry={recheck} />
      </AuthCard>
    );
  }
  const busy = phase.step === "working" || phase.step === "done";
  return (
    <AuthCard title={t("common.signIn")} subtitle={t("magicLink.subtitle")}>
      <button type="button" className="stack-button" disabled={phase.step !== "ready"} aria-busy={phase.step !== "ready"} onClick={act}>
        {busy ? t("common.signingIn") : t("common.signIn")}
      </button>
    </AuthCard>
  );
}
