/**
 * The dashboard frame with the signed-in owner: the server-rendered frame (console-frame.tsx) with
 * the owner's name and a sign-out link filled in.
 */

import { useStackApp, useUser } from "@doorman/sdk/react";
import type { ReactNode } from "react";
import { ShellFrame } from "./console-frame";

export function DashboardShell({ children }: { children: ReactNode }) {
  const app = useStackApp();
  const user = useUser({ or: "redirect" });
  return (
    <ShellFrame
      accountHref={app.urls.accountSettings}
      user={
        <>
          <span className="shell-email" title={user.primaryEmail ?? undefined}>
            {user.displayName ?? user.primaryEmail}
          </span>
          <a className="btn btn-secondary btn-small" href={app.urls.signOut}>
            Sign out
          </a>
        </>
      }
    >
      {children}
    </ShellFrame>
  );
}
