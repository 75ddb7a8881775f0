/**
 * `/projects/:projectId/users/:userId/impersonate#access_token=…&refresh_token=…`: the tab "View in
 * the console" opens (or "Impersonate", for a project without a trusted domain; with one, "Impersonate
 * in the app" opens the app itself through a one-time link instead). This page shows the user as
 * the impersonation session sees them (GET /users/me through a client app of the project), and
 * ends that session on request.
 *
 * Why the tokens come in the URL fragment: a fragment is never sent to a server (not in the
 * request, not in a Referer), so the refresh token reaches no log or server render. The page
 * drops it from the address bar and keeps the tokens in memory only: reloading forgets them.
 * The browser's own history may still have recorded the address, which is one reason the
 * session is short (an hour) and can be ended here or revoked from the user's page.
 */

import { type CurrentUser, StackClientApp } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useParams } from "@remix-run/react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { PageHeading, useAction } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { userLabel } from "../components/users/user-table";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Impersonation · Doorman" }];

type Tokens = { accessToken: string; refreshToken: string };

/** The tokens of the fragment, read once, then removed from the address bar and history entry. */
function takeTokensFromFragment(): Tokens | null {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const accessToken = params.get("access_token");
  const refreshToken = params.get("refresh_token");
  if (window.location.hash) window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  return accessToken && refreshToken ? { accessToken, refreshToken } : null;
}

export default function ImpersonationRoute() {
  return <Impersonation />;
}

type State =
  | { kind: "reading" }
  | { kind: "no-tokens" }
  | { kind: "needs-key"; tokens: Tokens; error?: string }
  | { kind: "viewing"; app: StackClientApp; user: CurrentUser }
  | { kind: "ended" }
  | { kind: "error"; message: string };

function Impersonation() {
  const { project } = useProject();
  const { userId = "" } = useParams();
  const [state, setState] = useState<State>({ kind: "reading" });
  // Read once per page load (a ref survives a re-run of the effect; the fragment is gone by then).
  const taken = useRef<Tokens | null | undefined>(undefined);
  const userPath = `/projects/${project.id}/users/${userId}`;
  const needsKey = project.config.requirePublishableClientKey;

  const open = async (tokens: Tokens, publishableClientKey?: string) => {
    // A memory token store: the session lives in this tab only, apart from the owner's own sign-in cookies.
    const app = new StackClientApp({
      projectId: project.id,
      baseUrl: window.location.origin,
      publishableClientKey,
      tokenStore: tokens,
      redirectMethod: "none",
    });
    try {
      const user = await app.getUser({ includeRestricted: true });
      setState(
        user
          ? { kind: "viewing", app, user }
          : {
              kind: "error",
              message: "This session shows no user: it has ended, or the user is anonymous (the client view hides anonymous users).",
            },
      );
    } catch (e) {
      const message = errorMessage(e, "Could not read the user through this session.");
      setState(publishableClientKey ? { kind: "needs-key", tokens, error: message } : { kind: "error", message });
    }
  };

  // Runs once, in the browser: the fragment holds the tokens only on the first render.
  useEffect(() => {
    if (taken.current === undefined) taken.current = takeTokensFromFragment();
    const tokens = taken.current;
    if (!tokens) setState({ kind: "no-tokens" });
    else if (needsKey) setState({ kind: "needs-key", tokens });
    else open(tokens);
  }, []);

  const end = async (app: StackClientApp) => {
    try {
      await app.signOut();
      setState({ kind: "ended" });
    } catch (e) {
      setState({ kind: "error", message: errorMessage(e, "Could not end the session.") });
    }
  };

  return (
    <>
      <PageHeading title={state.kind === "viewing" ? `You are viewing as ${userLabel(state.user)}` : "Impersonation"} />
      {state.kind === "reading" ? (
        <p className="muted" role="status">
          Opening the session…
        </p>
      ) : state.kind === "no-tokens" ? (
        <p className="warning">
          This tab has no impersonation session (it is forgotten when the page reloads). Start one from the{" "}
          <Link to={userPath}>user's page</Link>.
        </p>
      ) : state.kind === "needs-key" ? (
        <PublishableKeyForm serverError={state.error} onSubmit={(key) => open(state.tokens, key)} />
      ) : state.kind === "viewing" ? (
        <SessionView user={state.user} onEnd={() => end(state.app)} />
      ) : state.kind === "ended" ? (
        <p className="muted" role="status">
          Impersonation ended: the session is signed out. You can close this tab, or go back to the <Link to={userPath}>user's page</Link>.
        </p>
      ) : (
        <p className="alert" role="alert">
          {state.message} <Link to={userPath}>Back to the user</Link>
        </p>
      )}
    </>
  );
}

/** The user as their session sees them: the client view, which is what the project's app gets. */
function SessionView({ user, onEnd }: { user: CurrentUser; onEnd: () => Promise<void> }) {
  const { busy: pending, run } = useAction();
  const json = (value: unknown) => JSON.stringify(value ?? null, null, 2);
  return (
    <section className="panel impersonation" aria-label="The user as this session sees them">
      <p className="warning">
        This tab is signed in as this user through an impersonation session of the project. What you see is what the project's app receives
        for them (the client view: no server metadata).
      </p>
      <dl className="user-facts">
        <dt>Display name</dt>
        <dd>{user.displayName ?? "—"}</dd>
        <dt>Primary email</dt>
        <dd>
          {user.primaryEmail ?? "—"} {user.primaryEmail ? (user.primaryEmailVerified ? "(verified)" : "(not verified)") : ""}
        </dd>
        <dt>Id</dt>
        <dd>
          <code className="user-id">{user.id}</code>
        </dd>
        <dt>Selected team</dt>
        <dd>{user.selectedTeam?.displayName ?? "—"}</dd>
        <dt>Restricted</dt>
        <dd>{user.isRestricted ? `yes (${user.restrictedReason?.type ?? "unknown"})` : "no"}</dd>
        <dt>Client metadata</dt>
        <dd>
          <pre className="code-block">{json(user.clientMetadata)}</pre>
        </dd>
        <dt>Client read-only metadata</dt>
        <dd>
          <pre className="code-block">{json(user.clientReadOnlyMetadata)}</pre>
        </dd>
      </dl>
      <button type="button" className="btn btn-danger" disabled={pending} aria-busy={pending} onClick={() => run(onEnd)}>
        {pending ? "Ending…" : "End impersonation"}
      </button>
    </section>
  );
}

/** Projects that require a publishable client key: the owner pastes one (it is not stored). */
function PublishableKeyForm({ onSubmit, serverError }: { onSubmit: (key: string) => void; serverError?: string }) {
  const id = useId();
  const [key, setKey] = useState("");
  const [localError, setError] = useState<string | null>(null);
  const error = localError ?? serverError ?? null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!key.trim()) return setError("Please paste a publishable client key of this project.");
    onSubmit(key.trim());
  };
  return (
    <form className="panel form" noValidate onSubmit={submit}>
      <p>
        This project requires a publishable client key on every client request, and the console cannot read existing keys back (they are
        shown once). Paste one of this project's publishable keys to view the session; it is used in this tab only.
      </p>
      <div className="field">
        <label htmlFor={`${id}-key`}>Publishable client key</label>
        <input
          id={`${id}-key`}
          className="input"
          autoComplete="off"
          value={key}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setKey(e.target.value)}
        />
        {error ? (
          <p className="field-error" id={`${id}-error`}>
            {error}
          </p>
        ) : null}
      </div>
      <div>
        <button type="submit" className="btn">
          View the session
        </button>
      </div>
    </form>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
