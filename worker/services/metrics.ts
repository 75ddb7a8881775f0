/**
 * The project's metrics (GET /internal/metrics, the reference's shape): total users, sign-ups and
 * daily active users per UTC day for today and the 30 days before, users by country, the latest
 * sign-ups and the most recently active users, sign-in methods on accounts, and sign-ins by method.
 *
 * Where Doorman's sources differ from the reference's:
 * - daily active users and users by country come from Doorman's own event log (`user.active`,
 *   written at most once per user and UTC day on sign-in and refresh, with the request's country),
 *   where the reference reads its `$user-activity` events (Postgres/ClickHouse) joined to IP info;
 * - users by country counts every user with a located activity event still kept (the events'
 *   retention bounds it), where the reference samples 10,000 users and scales the counts up;
 * - the reference caches daily active users and countries for an hour; Doorman answers from the
 *   indexes on every call (docs/benchmarks.md has the figures for 100,000 users and 1,000,000 events);
 * - `sign_ins_by_method` is a Doorman addition (sign_in.succeeded events of the window by
 *   `data.method`); `login_methods` keeps the reference's meaning (methods set up on accounts).
 */
import { DAY_MS, findUserRecordsInOrder, type MethodCount, type MetricsWindow, readMetricsRows } from "../db/queries/metrics";
import type { ProjectRow } from "../db/queries/projects";
import type { UserRecord } from "../db/queries/users";
import type { Deps } from "./deps";
import { readProjectConfig } from "./project-config/flat";
import { listUsers } from "./users";

/** Today and the 30 days before it: 31 points, as the reference's series. */
export const METRICS_DAYS_BEFORE_TODAY = 30;
const RECENT_USERS = 5;

export type DataPoint = { date: string; activity: number };

export type ProjectMetrics = {
  totalUsers: number;
  dailyUsers: DataPoint[];
  dailyActiveUsers: DataPoint[];
  usersByCountry: Record<string, number>;
  recentlyRegistered: UserRecord[];
  recentlyActive: UserRecord[];
  loginMethods: { method: string; count: number }[];
  signInsByMethod: { method: string; count: number }[];
};

/** The series of every day of the window, zero where no row names the day. */
function series(w: MetricsWindow, rows: { day: number; n: number }[]): DataPoint[] {
  const byDay = new Map(rows.map((r) => [r.day, r.n]));
  const points: DataPoint[] = [];
  for (let day = w.firstDay; day <= w.lastDay; day++) {
    points.push({ date: new Date(day * DAY_MS).toISOString().slice(0, 10), activity: byDay.get(day) ?? 0 });
  }
  return points;
}

function methodCounts(rows: MethodCount[]) {
  return rows
    .filter((r) => r.n > 0)
    .map((r) => ({ method: r.method ?? "other", count: r.n }))
    .sort((a, b) => b.count - a.count || a.method.localeCompare(b.method));
}

export async function projectMetrics(deps: Deps, project: ProjectRow, options: { includeAnonymous: boolean }): Promise<ProjectMetrics> {
  const today = Math.floor(deps.now() / DAY_MS);
  const window: MetricsWindow = {
    projectId: project.id,
    firstDay: today - METRICS_DAYS_BEFORE_TODAY,
    lastDay: today,
    includeAnonymous: options.includeAnonymous,
  };
  const [rows, registered] = await Promise.all([
    readMetricsRows(deps.db, window, RECENT_USERS),
    // As the reference: the users list ordered by sign-up, newest first.
    listUsers(deps, {
      projectId: project.id,
      limit: RECENT_USERS,
      orderBy: "signed_up_at",
      desc: true,
      includeAnonymous: options.includeAnonymous,
      onlyAnonymous: false,
      includeRestricted: false,
      requireEmailVerification: readProjectConfig(project.config).require_email_verification,
    }),
  ]);
  const recentlyActive = await findUserRecordsInOrder(deps.db, project.id, rows.recentlyActiveIds);
  return {
    totalUsers: options.includeAnonymous ? rows.userCounts.all : rows.userCounts.all - rows.userCounts.anonymous,
    dailyUsers: series(window, rows.signUps),
    dailyActiveUsers: series(window, rows.activeUsers),
    usersByCountry: Object.fromEntries(rows.countries.map((r) => [r.country, r.n])),
    recentlyRegistered: "items" in registered ? registered.items : [],
    recentlyActive,
    loginMethods: methodCounts(rows.authMethods),
    signInsByMethod: methodCounts(rows.signIns),
  };
}
