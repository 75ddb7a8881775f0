/**
 * The user's active sessions (impersonations marked) with when they started and were last used
 * and the last address and place the API saw them from, each revocable after a confirmation, and
 * impersonation: "Impersonate in the app" opens the project's app (its first trusted domain) signed
 * in as the user through a one-time link, and "View in the console" (or "Impersonate", without a
 * trusted domain) opens an impersonation session in a console tab. "Sign out everywhere" ends every session of the user at once
 * (DELETE /auth/sessions?user_id=…), after a confirmation.
 */

import type { ActiveSession, ServerUser } from "@doorman/sdk";
import { useCallback, useId, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { formatDateTime } from "../../lib/format";
import { placeOf } from "../../lib/place";
import { useLoad } from "../../lib/use-load";
import { Alert, ConfirmButton, useAction } from "../console-ui";
import { DataTable } from "../data-table";

/** Impersonation sessions are short: an owner looks around, then ends it (or it runs out). */
const IMPERSONATION_MS = 60 * 60 * 1000;

/** The console page that shows the impersonated user; the tokens travel in the fragment. */
export function impersonationUrl(projectId: string, userId: string, tokens: { accessToken: string; refreshToken: string }): string {
  const fragment = new URLSearchParams({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
  return `/projects/${encodeURIComponent(projectId)}/users/${encodeURIComponent(userId)}/impersonate#${fragment}`;
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/** The last IP address a session was used from, when the API knows it. */
export function sessionAddress(session: Pick<ActiveSession, "geoInfo">): string | null {
  const ip = text(session.geoInfo?.ip);
  return ip && ip !== "unknown" ? ip : null;
}

/** Where that address is: "local" for a loopback or private one, else city, region and country from the API's IP info; null when unknown. */
export function sessionPlace(session: Pick<ActiveSession, "geoInfo">): string | null {
  return placeOf(sessionAddress(session), session.geoInfo);
}

/** The app an impersonation opens: the project's first trusted domain, or null when it has none. */
export function impersonationApp(project: Pick<OwnedProject, "config">): string | null {
  return project.config.domains[0]?.domain ?? null;
}

export function SessionsPanel(props: { project: OwnedProject; user: ServerUser; label: string; toast: (m: string) => void }) {
  const { user, toast, project } = props;
  const appDomain = impersonationApp(project);
  const id = useId();
  const load = useCallback(() => user.listSessions(), [user]);
  const sessions = useLoad(load, "the sessions");
  const { busy: pending, error, run } = useAction();
  // When the browser blocks the new tab, the link to open it by hand.
  const [fallbackUrl, setFallbackUrl] = useState<string | null>(null);

  /** Opens the project's app signed in as the user: a one-time link its handler page redeems (first trusted domain). */
  const openApp = async () => {
    setFallbackUrl(null);
    // Opened during the click (before any await) so popup blockers let it through.
    const tab = window.open("", "_blank");
    const ok = await run(
      async () => {
        const link = await project.app.createImpersonationLink(user.id);
        if (!link.url) throw new Error("This project has no trusted domain: there is no app to open.");
        if (tab) {
          tab.opener = null;
          tab.location.replace(link.url);
        } else setFallbackUrl(link.url);
        toast(`Opening ${appDomain} as ${props.label}.`);
      },
      { fallback: "Could not start the impersonation.", name: "app" },
    );
    if (!ok) tab?.close();
  };

  /** Shows the user in a console tab, through an impersonation session the tab holds in memory. */
  const impersonate = async () => {
    setFallbackUrl(null);
    // Opened during the click (before any await) so popup blockers let it through.
    const tab = window.open("", "_blank");
    const ok = await run(async () => {
      const tokens = await user.createSession({ isImpersonation: true, expiresInMillis: IMPERSONATION_MS });
      const url = impersonationUrl(project.id, user.id, tokens);
      if (tab) {
        tab.opener = null;
        tab.location.replace(url);
      } else setFallbackUrl(url);
      toast(`Impersonation session for ${props.label} started.`);
      await sessions.reload();
    }, "Could not start the impersonation.");
    if (!ok) tab?.close();
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <div className="panel-heading">
        <h2 id={`${id}-title`}>Sessions</h2>
        <div className="inline">
          <button type="button" className="btn btn-secondary btn-small" onClick={() => sessions.reload()}>
            Reload sessions
          </button>
          {appDomain ? (
            <button type="button" className="btn btn-small" onClick={openApp} disabled={pending} aria-busy={pending}>
              {pending ? "Starting…" : "Impersonate in the app"}
            </button>
          ) : null}
          <button
            type="button"
            className={appDomain ? "btn btn-secondary btn-small" : "btn btn-small"}
            onClick={impersonate}
            disabled={pending}
            aria-busy={pending}
          >
            {appDomain ? "View in the console" : pending ? "Starting…" : "Impersonate"}
          </button>
          <ConfirmButton
            small
            label="Sign out everywhere"
            ariaLabel={`Sign out everywhere: ${props.label}`}
            title={`Sign ${props.label} out everywhere?`}
            consequence={`Every session of ${props.label} ends now, impersonations included: each device's access token stops working at its next request. The user can sign in again.`}
            confirmLabel="Sign out everywhere"
            onConfirm={async () => {
              await user.revokeAllSessions();
              toast(`${props.label} is signed out everywhere.`);
              await sessions.reload();
            }}
          />
        </div>
      </div>
      {appDomain ? (
        <p className="muted">
          Impersonate in the app opens {appDomain} (the first trusted domain) signed in as this user, through a one-time link that works for
          five minutes. View in the console shows the user as the app sees them. Either session is listed here as an impersonation and lasts
          at most an hour.
        </p>
      ) : (
        <p className="muted">
          This project has no trusted domain yet, so there is no app to open as this user (add one under Domains). Impersonate opens a
          console tab signed in as this user instead; the session is listed here as an impersonation and lasts at most an hour.
        </p>
      )}
      <Alert message={error} />
      {fallbackUrl ? (
        <p className="warning">
          Your browser blocked the new tab.{" "}
          <a href={fallbackUrl} target="_blank" rel="noopener noreferrer">
            Open the impersonation tab
          </a>
        </p>
      ) : null}
      {sessions.error ? (
        <p className="alert" role="alert">
          {sessions.error}
        </p>
      ) : sessions.value === null ? (
        <p className="muted" role="status">
          Loading sessions…
        </p>
      ) : (
        <DataTable
          isEmpty={sessions.value.length === 0}
          empty="No active sessions."
          className="user-table"
          label="Active sessions"
          stack={["Started", "Last used", "Last address", "Place", "Kind", ""]}
        >
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Last used</th>
              <th scope="col">Last address</th>
              <th scope="col">Place</th>
              <th scope="col">Kind</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.value.map((s) => (
              <tr key={s.id}>
                <td>{formatDateTime(s.createdAt)}</td>
                <td>{formatDateTime(s.lastUsedAt)}</td>
                <td>{sessionAddress(s) ? <code>{sessionAddress(s)}</code> : <span className="muted">unknown</span>}</td>
                <td>{sessionPlace(s) ?? <span className="muted">unknown</span>}</td>
                <td>{s.isImpersonation ? <span className="badge badge-warn">impersonation</span> : "sign-in"}</td>
                <td>
                  <ConfirmButton
                    small
                    label="Revoke"
                    ariaLabel={`Revoke the ${s.isImpersonation ? "impersonation " : ""}session started ${formatDateTime(s.createdAt)}`}
                    title="Revoke this session?"
                    consequence={`The device or tab using it is signed out of ${props.label}'s account at its next refresh (within minutes). The user can sign in again.`}
                    confirmLabel="Revoke session"
                    onConfirm={async () => {
                      await user.revokeSession(s.id);
                      toast("Session revoked.");
                      await sessions.reload();
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}
