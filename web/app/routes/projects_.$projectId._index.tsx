/**
 * `/projects/:projectId`: the overview: counts (users, teams, today's sign-ups, active sessions),
 * charts of the project's metrics (sign-ups and daily active users per day, sign-ins by method,
 * users by country), the setup checklist (connecting an app first) and links to every page.
 */

import type { ProjectMetrics, ProjectStats } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Loaded, PageHeading } from "../components/console-ui";
import type { ChartState } from "../components/metrics/chart-panel";
import { CountryTable } from "../components/metrics/country-table";
import { DailyChart } from "../components/metrics/daily-chart";
import { MethodsChart } from "../components/metrics/methods-chart";
import { RouteError } from "../components/route-error";
import { formatCount } from "../lib/format";
import { errorMessage, useProject } from "../lib/project-context";
import { PROJECT_PAGES } from "../lib/project-pages";

export const meta: MetaFunction = () => [{ title: "Overview · Doorman" }];

export default function ProjectOverview() {
  const { project } = useProject();
  const [stats, setStats] = useState<ProjectStats | null>(null);
  const [statsError, setStatsError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    project.app
      .getProjectStats()
      .then((s) => live && setStats(s))
      .catch((e: unknown) => live && setStatsError(errorMessage(e, "Could not load the counts.")));
    return () => {
      live = false;
    };
  }, [project]);
  const [metrics, setMetrics] = useState<ChartState<ProjectMetrics>>({ status: "loading" });
  useEffect(() => {
    let live = true;
    setMetrics({ status: "loading" });
    project.app
      .getMetrics()
      .then((m) => live && setMetrics({ status: "ready", data: m }))
      .catch((e: unknown) => live && setMetrics({ status: "error", message: errorMessage(e, "Could not load the metrics.") }));
    return () => {
      live = false;
    };
  }, [project]);
  const part = <T,>(pick: (m: ProjectMetrics) => T): ChartState<T> =>
    metrics.status === "ready" ? { status: "ready", data: pick(metrics.data) } : metrics;
  const c = project.config;
  const methods = [c.credentialEnabled && "password", c.magicLinkEnabled && "magic link/OTP", c.passkeyEnabled && "passkeys"]
    .concat(c.oauthProviders.map((p) => p.id))
    .filter(Boolean) as string[];
  const checklist = [
    {
      // Done once anyone has signed up: the app (or the hosted pages) is talking to the project.
      done: (stats?.userCount ?? 0) > 0,
      label: "Connect your app",
      detail: stats?.userCount
        ? "Users are signing up. The quickstarts are still there for your next app."
        : "Quickstarts for React, Next.js, Remix, Node and more, with this project's id filled in.",
      to: "connect",
    },
    {
      done: c.domains.length > 0,
      label: "Add a trusted domain",
      detail: c.domains.length
        ? c.domains.map((d) => d.domain).join(", ")
        : "Redirects to your app are refused until its domain is trusted.",
      to: "domains",
    },
    {
      done: methods.length > 0,
      label: "Choose sign-in methods",
      detail: methods.length ? methods.join(", ") : "No sign-in method is on.",
      to: "sign-in-methods",
    },
    {
      done: c.emailConfig.type === "standard",
      label: "Set up your email server",
      detail:
        c.emailConfig.type === "standard"
          ? `${c.emailConfig.host}:${c.emailConfig.port}`
          : "Shared server: fine for development, not for production.",
      to: "emails",
    },
    {
      done: project.isProductionMode,
      label: "Turn on production mode",
      detail: project.isProductionMode ? "On." : "Development mode allows localhost and skips production checks.",
      to: "settings",
    },
  ];
  return (
    <>
      <PageHeading title={`Overview · ${project.displayName}`}>
        <p className="muted">
          Project id <code>{project.id}</code>
        </p>
      </PageHeading>
      <section className="panel" aria-labelledby="stats-title">
        <h2 id="stats-title">At a glance</h2>
        <Loaded value={stats} error={statsError} what="the counts">
          {(s) => (
            <dl className="stat-grid">
              <Stat label="Users" value={s.userCount} detail={s.anonymousUserCount ? `+ ${s.anonymousUserCount} anonymous` : undefined} />
              <Stat label="Teams" value={s.teamCount} />
              <Stat label="Sign-ups today" value={s.signUpsToday} detail="since 00:00 UTC" />
              <Stat label="Active sessions" value={s.activeSessionCount} />
            </dl>
          )}
        </Loaded>
      </section>
      <div className="metric-grid">
        <DailyChart
          id="sign-ups"
          title="Sign-ups per day"
          noun="sign-ups"
          emptyText="No sign-ups in the last 30 days."
          state={part((m) => m.dailyUsers)}
          color="#4338ca"
        />
        <DailyChart
          id="daily-active-users"
          title="Daily active users"
          noun="user-days of activity"
          emptyText="No active users in the last 30 days."
          state={part((m) => m.dailyActiveUsers)}
          color="#0f766e"
        />
        <MethodsChart state={part((m) => m.signInsByMethod)} color="#7c3aed" />
        <CountryTable state={part((m) => m.usersByCountry)} />
      </div>
      <section className="panel" aria-labelledby="checklist-title">
        <h2 id="checklist-title">Setup checklist</h2>
        <ul className="checklist">
          {checklist.map((item) => (
            <li key={item.label}>
              <span className={item.done ? "check-done" : "check-todo"} aria-hidden="true">
                {item.done ? "✓" : "○"}
              </span>
              <span>
                <Link to={`/projects/${project.id}/${item.to}`}>{item.label}</Link>
                <span className="visually-hidden">{item.done ? " (done)" : " (to do)"}</span>
                <br />
                <span className="muted">{item.detail}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section className="panel" aria-labelledby="pages-title">
        <h2 id="pages-title">Pages</h2>
        <ul className="inline-links">
          {PROJECT_PAGES.filter((p) => p.path).map((p) => (
            <li key={p.path}>
              <Link to={`/projects/${project.id}/${p.path}`}>{p.label}</Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function Stat(props: { label: string; value: number; detail?: string }) {
  return (
    <div className="stat">
      <dt className="muted">{props.label}</dt>
      <dd className="stat-value">{formatCount(props.value)}</dd>
      {props.detail ? <dd className="muted">{props.detail}</dd> : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
