/**
 * `/projects/{id}/connect`: how to connect an app to the project. Quickstarts (React with Vite,
 * Remix / React Router, Next.js, a Node or Hono back end, fetch/curl, the Stack Auth SDK) filled in
 * with the project's id, Doorman's origin, the hosted pages, and the publishable key when a keys
 * panel just created one (it hands it over in the history state; otherwise the .env line is left
 * to fill, with a link to create a key set).
 */

import { hostedHandlerUrl } from "@doorman/shared/hosted-pages";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useLocation, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { readConnectState } from "../components/connect/connect-state";
import { QuickstartView } from "../components/connect/quickstart-view";
import { QUICKSTART_IDS, type QuickstartId, quickstarts } from "../components/connect/quickstarts";
import { PageHeading } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Connect an app · Doorman" }];

const isQuickstartId = (value: string | null): value is QuickstartId => QUICKSTART_IDS.includes(value as QuickstartId);

export default function ConnectRoute() {
  const { project } = useProject();
  const location = useLocation();
  const [search] = useSearchParams();
  const handedOver = readConnectState(location.state);
  const chosen = search.get("framework");
  const current: QuickstartId = isQuickstartId(chosen) ? chosen : "react-vite";
  // The console is served on Doorman's origin, with the API under /api: the same origin apps call.
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const list = useMemo(
    () =>
      quickstarts({
        apiUrl: origin,
        projectId: project.id,
        publishableClientKey: handedOver?.publishableClientKey ?? null,
        hostedSignInUrl: hostedHandlerUrl(origin, project.id, "sign-in"),
      }),
    [origin, project.id, handedOver?.publishableClientKey],
  );
  const shown = list.find((q) => q.id === current) ?? list[0];
  const keysPath = `/projects/${project.id}/keys`;

  return (
    <>
      <PageHeading title={`Connect an app · ${project.displayName}`}>
        <p className="muted">Pick how your app is built: each quickstart is filled in with this project's values.</p>
      </PageHeading>
      <section className="panel" aria-labelledby="connect-values-title">
        <h2 id="connect-values-title">This project</h2>
        <dl className="connect-values">
          <div>
            <dt>Doorman URL</dt>
            <dd>
              <code>{origin}</code> <span className="muted">(the API is under /api/v1)</span>
            </dd>
          </div>
          <div>
            <dt>Project id</dt>
            <dd>
              <code data-testid="connect-project-id">{project.id}</code>
            </dd>
          </div>
          <div>
            <dt>Publishable client key</dt>
            <dd data-testid="connect-key-status">
              {handedOver ? (
                <>Filled in: the key of “{handedOver.keySetDescription}”, created just now.</>
              ) : (
                <>
                  Doorman shows a key only when it is created, so the quickstarts leave it for you to paste.{" "}
                  <Link to={keysPath}>Create a key set</Link> and follow its “Connect an app” link to have it filled in.
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>Hosted pages</dt>
            <dd>
              <a href={hostedHandlerUrl(origin, project.id, "sign-in")} target="_blank" rel="noreferrer">
                {hostedHandlerUrl(origin, project.id, "sign-in")}
              </a>
            </dd>
          </div>
        </dl>
      </section>
      <nav className="connect-picker" aria-label="Quickstarts">
        <ul>
          {list.map((q) => (
            <li key={q.id}>
              <Link
                to={{ search: `?framework=${q.id}` }}
                state={location.state}
                replace
                preventScrollReset
                aria-current={q.id === shown?.id ? "page" : undefined}
              >
                {q.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {shown ? <QuickstartView key={shown.id} quickstart={shown} /> : null}
      <p className="muted">
        More: docs/quickstarts.md in the Doorman repository, the API reference at <a href="/api/v1/docs">/api/v1/docs</a>, and{" "}
        <Link to={`/projects/${project.id}/domains`}>Domains</Link> for the app origins Doorman may redirect to.
      </p>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
