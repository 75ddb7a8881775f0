/**
 * The oauth-callback handler page: finishes the provider sign-in once (a ref guards against
 * React strict mode's double effects), then the SDK redirects. Without code and state (or the
 * stored state) nothing happens and the page offers the way back to sign-in.
 */
import { useEffect, useRef, useState } from "react";
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
  const [outcome, setOutcome] = useState<Outcome>({ state: "working" });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    app.callOAuthCallback().then(
      (done) => {
        if (!done) setOutcome({ state: "ignored" });
      },
      (error: unknown) => setOutcome({ state: "error", message: messageOf(error) }),
    );
  }, [app]);

  if (outcome.state === "working") return <AuthCard title="Signing you in…" />;
  return (
    <AuthCard title={outcome.state === "error" ? "Sign-in did not work" : "Nothing to do here"}>
      {outcome.state === "error" ? (
        <p className="stack-alert" role="alert">
          {outcome.message}
        </p>
      ) : null}
      <a className="stack-button stack-secondary" href={app.urls.signIn}>
        Back to sign in
      </a>
    </AuthCard>
  );
}
