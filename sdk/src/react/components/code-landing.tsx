/**
 * Pages an emailed link lands on and acts on once: email verification and magic-link sign-in.
 * A ref guards against running twice (React strict mode mounts effects twice in development).
 */
import { useEffect, useRef, useState } from "react";
import type { CredentialResult } from "../app-types";
import { useStackApp } from "../provider";
import { useRefreshUser } from "../use-user";
import { AuthCard } from "./auth-card";
import { codeErrorMessage, codeFromSearch, errorCodeOf, messageOf } from "./code-messages";

type Outcome = { state: "working" } | { state: "ok" } | { state: "error"; message: string };

function useCodeAction(search: string, action: (code: string) => Promise<CredentialResult>): Outcome {
  const code = codeFromSearch(search);
  const [outcome, setOutcome] = useState<Outcome>(code ? { state: "working" } : { state: "error", message: "This link is not valid." });
  const started = useRef(false);
  useEffect(() => {
    if (!code || started.current) return;
    started.current = true;
    action(code).then(
      (result) =>
        setOutcome(
          result.status === "ok"
            ? { state: "ok" }
            : { state: "error", message: codeErrorMessage(errorCodeOf(result.error)) ?? result.error.message },
        ),
      (error: unknown) => setOutcome({ state: "error", message: messageOf(error) }),
    );
  }, [code, action]);
  return outcome;
}

/**
 * Verifies the email address of the link (?code=).
 *
 * @example
 * <StackProvider app={app}><EmailVerification search={window.location.search} /></StackProvider>
 */
export function EmailVerification({ search }: { search: string }) {
  const app = useStackApp();
  const refreshUser = useRefreshUser();
  const outcome = useCodeAction(search, async (code) => {
    const result = await app.verifyEmail(code);
    if (result.status === "ok") await refreshUser().catch(() => undefined);
    return result;
  });
  if (outcome.state === "working") return <AuthCard title="Verifying your email…" />;
  if (outcome.state === "ok") {
    return (
      <AuthCard title="Email verified" subtitle="Thank you: your email address is confirmed.">
        <a className="stack-button" href={app.urls.home}>
          Continue
        </a>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Email not verified">
      <p className="stack-alert" role="alert">
        {outcome.message}
      </p>
      <a className="stack-button stack-secondary" href={app.urls.accountSettings}>
        Go to account settings
      </a>
    </AuthCard>
  );
}

/**
 * Signs in with the magic link (?code=), then redirects as after any sign-in.
 *
 * @example
 * <StackProvider app={app}><MagicLinkCallback search={window.location.search} /></StackProvider>
 */
export function MagicLinkCallback({ search }: { search: string }) {
  const app = useStackApp();
  const outcome = useCodeAction(search, (code) => app.signInWithMagicLink(code));
  if (outcome.state !== "error") return <AuthCard title="Signing you in…" />;
  return (
    <AuthCard title="Sign-in link did not work">
      <p className="stack-alert" role="alert">
        {outcome.message}
      </p>
      <a className="stack-button stack-secondary" href={app.urls.signIn}>
        Back to sign in
      </a>
    </AuthCard>
  );
}
