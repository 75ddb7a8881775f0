/**
 * Shown on the sign-in and sign-up pages when someone is already signed in. When the page was
 * asked to hand the session to an app on another origin (the hosted pages), it does so at once.
 */
import { useEffect } from "react";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";

/**
 * @example
 * if (user) return <SignedInNotice />;
 */
export function SignedInNotice() {
  const app = useStackApp();
  useEffect(() => {
    app.handOffSession().catch((error: unknown) => console.error("[doorman] session handoff failed", error));
  }, [app]);
  return (
    <AuthCard title="You are already signed in" subtitle="Continue to the app, or sign out to use another account.">
      <div className="stack-actions">
        <a className="stack-button" href={app.urls.home}>
          Continue
        </a>
        <a className="stack-button stack-secondary" href={app.urls.signOut}>
          Sign out
        </a>
      </div>
    </AuthCard>
  );
}
