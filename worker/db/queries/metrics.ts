/**
 * The project's metrics (GET /internal/metrics) as aggregate queries over the users table and the
 * event log, each on an index (migration 0009; the plans are in docs/benchmarks.md):
 * - users: users_project_signed_up (all, sign-ups per day), users_project_anonymous,
 *   users_project_password / users_project_otp (partial), users_project_last_active;
 * - events: partial covering indexes per type: events_active_by_time (daily active users),
 *   events_active_by_user (each user's latest country), events_sign_in_by_time (sign-ins by method).
 * The partial indexes apply only when the query names the type as a literal, hence sql.raw below;
 * INDEXED BY pins the plan (SQLite would otherwise pick the lead-in index on user_id and sort).
 */
import { type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../client";
import { type UserRecord, userRecordFrom, userRecordQueries } from "./users";

export const DAY_MS = 86_400_000;

/** Days are whole UTC days counted from the epoch (epoch milliseconds / DAY_MS). */
export type MetricsWindow = { projectId: string; firstDay: number; lastDay: number; includeAnonymous: boolean };

export type DayCount = { day: number; n: number };
export type MethodCount = { method: string | null; n: number };
export type CountryCount = { country: string; n: number };

const dialect = new SQLiteAsyncDialect();

/**
 * Runs raw queries as one D1 batch (one round trip). Straight on the D1 binding, because drizzle
 * 0.45's db.batch cannot bind the parameters of a raw `db.all(sql)` (SQLiteRaw has no statement).
 */
async function runBatch(db: Db, queries: SQL[]): Promise<unknown[][]> {
  const d1 = (db as unknown as { $client: D1Database }).$client;
  const statements = queries.map((q) => {
    const { sql: text, params } = dialect.sqlToQuery(q);
    return d1.prepare(text).bind(...params);
  });
  return (await d1.batch(statements)).map((r) => r.results);
}

/**
 * An integer written into the SQL: D1 binds JavaScript numbers as REAL, which would turn
 * `created_at / 86400000` into a fractional day. Only our own safe integers reach here.
 */
function int(n: number): SQL {
  if (!Number.isSafeInteger(n)) throw new Error(`not a safe integer: ${n}`);
  return sql.raw(String(n));
}
const DAY = int(DAY_MS);

const USER_ACTIVE = sql.raw("'user.active'");
const SIGN_IN_SUCCEEDED = sql.raw("'sign_in.succeeded'");

function userCounts(projectId: string) {
  return sql`
    SELECT (SELECT count(*) FROM users WHERE project_id = ${projectId}) AS "all",
           (SELECT count(*) FROM users INDEXED BY users_project_anonymous WHERE project_id = ${projectId} AND is_anonymous = 1) AS anonymous`;
}

function signUpsPerDay(w: MetricsWindow) {
  const anonymous = w.includeAnonymous ? sql`` : sql` AND is_anonymous = 0`;
  return sql`
    SELECT signed_up_at / ${DAY} AS day, count(*) AS n FROM users
    WHERE project_id = ${w.projectId} AND signed_up_at >= ${int(w.firstDay * DAY_MS)} AND signed_up_at < ${int((w.lastDay + 1) * DAY_MS)}${anonymous}
    GROUP BY day`;
}

/**
 * Distinct users with a user.active event, for each of `days`: one range per day over
 * events_active_by_time, so each day's DISTINCT set stays small and no sort of the window is needed.
 */
function activeUsersPerDay(projectId: string, days: number[]) {
  const values = sql.join(
    days.map((d) => sql`(${int(d)})`),
    sql`, `,
  );
  return sql`
    WITH days(day) AS (VALUES ${values})
    SELECT day, (
      SELECT count(DISTINCT user_id) FROM events INDEXED BY events_active_by_time
      WHERE project_id = ${projectId} AND type = ${USER_ACTIVE} AND created_at >= day * ${DAY} AND created_at < (day + 1) * ${DAY}
    ) AS n FROM days`;
}

/** The completed days of the window already counted (daily_active_users). */
function countedDays(w: MetricsWindow) {
  return sql`
    SELECT day, users, anonymous_users AS anonymous FROM daily_active_users
    WHERE project_id = ${w.projectId} AND day >= ${int(w.firstDay)} AND day < ${int(w.lastDay)}`;
}

/**
 * Users per country of their latest user.active event that has one (as the reference: the latest
 * activity's address). SQLite's bare column next to max() is the row of the maximum.
 */
function usersPerCountry(w: MetricsWindow) {
  return sql`
    SELECT country, count(*) AS n FROM (
      SELECT user_id, country_code AS country, max(created_at) FROM events INDEXED BY events_active_by_user
      WHERE project_id = ${w.projectId} AND type = ${USER_ACTIVE} AND user_id IS NOT NULL AND country_code IS NOT NULL
      GROUP BY user_id
    ) GROUP BY country`;
}

/**
 * The anonymous users' share of the two counts above, subtracted from them unless anonymous users
 * are asked for: a seek per anonymous user (few) instead of a NOT IN test on every event.
 * CROSS JOIN keeps users as the outer loop (SQLite never reorders it).
 */
const anonymousActivity = (w: MetricsWindow) => sql`
  FROM users u INDEXED BY users_project_anonymous
  CROSS JOIN events e INDEXED BY events_active_by_user
  WHERE u.project_id = ${w.projectId} AND u.is_anonymous = 1 AND e.project_id = u.project_id AND e.user_id = u.id AND e.type = ${USER_ACTIVE}`;

/** The anonymous share of daily active users over the days [from, to]. */
function anonymousActiveUsersPerDay(w: MetricsWindow, from: number, to: number) {
  return sql`
    SELECT e.created_at / ${DAY} AS day, count(DISTINCT e.user_id) AS n ${anonymousActivity(w)}
      AND e.created_at >= ${int(from * DAY_MS)} AND e.created_at < ${int((to + 1) * DAY_MS)}
    GROUP BY day`;
}

function anonymousUsersPerCountry(w: MetricsWindow) {
  return sql`
    SELECT country, count(*) AS n FROM (
      SELECT e.user_id, e.country_code AS country, max(e.created_at) ${anonymousActivity(w)} AND e.country_code IS NOT NULL
      GROUP BY e.user_id
    ) GROUP BY country`;
}

function signInsPerMethod(w: MetricsWindow) {
  return sql`
    SELECT json_extract(data, '$.method') AS method, count(*) AS n FROM events INDEXED BY events_sign_in_by_time
    WHERE project_id = ${w.projectId} AND type = ${SIGN_IN_SUCCEEDED}
      AND created_at >= ${int(w.firstDay * DAY_MS)} AND created_at < ${int((w.lastDay + 1) * DAY_MS)}
    GROUP BY method`;
}

/**
 * The reference's login_methods: the project's sign-in methods set up on accounts (one per
 * password, OTP switch, passkey and sign-in OAuth account, by provider), not sign-ins.
 */
function authMethodCounts(projectId: string) {
  return sql`
    SELECT 'password' AS method, count(*) AS n FROM users WHERE project_id = ${projectId} AND password_hash IS NOT NULL
    UNION ALL SELECT 'otp', count(*) FROM users WHERE project_id = ${projectId} AND otp_auth_enabled = 1
    UNION ALL SELECT 'passkey', count(*) FROM passkeys WHERE project_id = ${projectId}
    UNION ALL SELECT lower(provider_config_id), count(*) FROM oauth_accounts
      WHERE project_id = ${projectId} AND allow_sign_in = 1 GROUP BY lower(provider_config_id)`;
}

/** The ids of the users most recently active (users.last_active_at, stamped on authenticated requests). */
function recentlyActiveIds(w: MetricsWindow, limit: number) {
  const anonymous = w.includeAnonymous ? sql`` : sql` AND is_anonymous = 0`;
  return sql`
    SELECT id FROM users INDEXED BY users_project_last_active WHERE project_id = ${w.projectId}${anonymous}
    ORDER BY last_active_at DESC LIMIT ${int(limit)}`;
}

export type MetricsRows = {
  userCounts: { all: number; anonymous: number };
  signUps: DayCount[];
  activeUsers: DayCount[];
  countries: CountryCount[];
  signIns: MethodCount[];
  authMethods: MethodCount[];
  recentlyActiveIds: string[];
};

/**
 * The aggregate queries of a metrics answer, run as one batch by readMetricsRows (the metrics
 * bench explains these same statements: npm run bench:metrics). Daily active users come from
 * daily_active_users for counted days; today is always counted here, and `uncountedDays` (the
 * window's completed days not yet stored) are counted by the same per-day query.
 */
export function metricsQueries(w: MetricsWindow, recentLimit: number, uncountedDays: number[] = []) {
  return {
    "total users": userCounts(w.projectId),
    "sign-ups per day": signUpsPerDay(w),
    "counted days": countedDays(w),
    "daily active users today": activeUsersPerDay(w.projectId, [w.lastDay]),
    "users by country": usersPerCountry(w),
    "sign-ins by method": signInsPerMethod(w),
    "login methods": authMethodCounts(w.projectId),
    "recently active": recentlyActiveIds(w, recentLimit),
    "anonymous daily active users today": anonymousActiveUsersPerDay(w, w.lastDay, w.lastDay),
    ...(w.includeAnonymous ? {} : { "anonymous users by country": anonymousUsersPerCountry(w) }),
    ...(uncountedDays.length > 0 ? uncountedQueries(w, uncountedDays) : {}),
  };
}

function uncountedQueries(w: MetricsWindow, days: number[]) {
  return {
    "daily active users (days not yet counted)": activeUsersPerDay(w.projectId, days),
    "anonymous daily active users (days not yet counted)": anonymousActiveUsersPerDay(w, Math.min(...days), Math.max(...days)),
  };
}

/** Subtracts the anonymous users' counts (same keys) from the totals. */
function minus<K extends string, R extends { n: number }>(key: (r: R) => K, all: R[], anonymous: R[] | undefined): R[] {
  const less = new Map((anonymous ?? []).map((r) => [key(r), r.n]));
  return all.map((r) => ({ ...r, n: r.n - (less.get(key(r)) ?? 0) })).filter((r) => r.n > 0);
}

type ActiveDay = { day: number; users: number; anonymous: number };

/**
 * Counts the completed days not yet in daily_active_users and stores them (a finished day's
 * user.active events never change). Concurrent requests may both count a day; the first insert wins.
 */
async function countDays(db: Db, w: MetricsWindow, days: number[]): Promise<ActiveDay[]> {
  const queries = uncountedQueries(w, days);
  const [all, anonymous] = (await runBatch(db, Object.values(queries))) as [DayCount[], DayCount[]];
  const anonymousByDay = new Map(anonymous.map((r) => [r.day, r.n]));
  const counted = all.map((r) => ({ day: r.day, users: r.n, anonymous: anonymousByDay.get(r.day) ?? 0 }));
  const values = sql.join(
    counted.map((r) => sql`(${w.projectId}, ${int(r.day)}, ${int(r.users)}, ${int(r.anonymous)})`),
    sql`, `,
  );
  await runBatch(db, [
    sql`INSERT INTO daily_active_users (project_id, day, users, anonymous_users) VALUES ${values} ON CONFLICT DO NOTHING`,
  ]);
  return counted;
}

/** Every aggregate in one D1 batch (one round trip), plus one more to count days not counted yet. */
export async function readMetricsRows(db: Db, w: MetricsWindow, recentLimit: number): Promise<MetricsRows> {
  const [counts, signUps, counted, activeToday, countries, signIns, authMethods, recent, anonymousToday, anonymousCountries] =
    (await runBatch(db, Object.values(metricsQueries(w, recentLimit)))) as [
      { all: number; anonymous: number }[],
      DayCount[],
      ActiveDay[],
      DayCount[],
      CountryCount[],
      MethodCount[],
      MethodCount[],
      { id: string }[],
      DayCount[],
      CountryCount[] | undefined,
    ];
  const known = new Set(counted.map((r) => r.day));
  const uncounted: number[] = [];
  for (let day = w.firstDay; day < w.lastDay; day++) if (!known.has(day)) uncounted.push(day);
  const days: ActiveDay[] = [
    ...counted,
    ...(uncounted.length > 0 ? await countDays(db, w, uncounted) : []),
    { day: w.lastDay, users: activeToday[0]?.n ?? 0, anonymous: anonymousToday[0]?.n ?? 0 },
  ];
  return {
    userCounts: counts[0] ?? { all: 0, anonymous: 0 },
    signUps,
    activeUsers: days
      .map((d) => ({ day: d.day, n: w.includeAnonymous ? d.users : d.users - d.anonymous }))
      .filter((d) => d.n > 0)
      .sort((a, b) => a.day - b.day),
    countries: w.includeAnonymous ? countries : minus((r) => r.country, countries, anonymousCountries),
    signIns,
    authMethods,
    recentlyActiveIds: recent.map((r) => r.id),
  };
}

/** The records of these users (in this order; missing ones left out), in one D1 batch. */
export async function findUserRecordsInOrder(db: Db, projectId: string, userIds: string[]): Promise<UserRecord[]> {
  const [first, ...rest] = userIds.flatMap((id) => userRecordQueries(db, projectId, id));
  if (!first) return [];
  const results = await db.batch([first, ...rest]);
  const per = userRecordQueries(db, projectId, "").length;
  const records: UserRecord[] = [];
  for (let i = 0; i < userIds.length; i++) {
    const record = userRecordFrom(results.slice(i * per, i * per + per) as unknown[][]);
    if (record) records.push(record);
  }
  return records;
}
