/**
 * The dashboard frame: brand, navigation, the signed-in owner and a sign-out link.
 */

import { useStackApp, useUser } from "@doorman/sdk/react";
import type { ReactNode } from "react";

export function DashboardShell({ children }: { children: ReactNode }) {
  const app = useStackApp();
  const user = useUser({ or: "redirect" });
  return (
    <div className="shell">
      <header className="shell-header">
        <a className="brand" href="/projects">
          <span className="brand-mark" aria-hidden="true">
            D
          </span>
          Doorman
        </a>
        <nav aria-label="Main" className="shell-nav">
          <a href="/projects">Projects</a>
          <a href={app.urls.accountSettings}>Account</a>
        </nav>
        <div className="shell-user">
          <span className="shell-email" title={user.primaryEmail ?? undefined}>
            {user.displayName ?? user.primaryEmail}
          </span>
          <a className="btn btn-secondary btn-small" href={app.urls.signOut}>
            Sign out
          </a>
        </div>
      </header>
      <main className="shell-main">{children}</main>
    </div>
  );
}
