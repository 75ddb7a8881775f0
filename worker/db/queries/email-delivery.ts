/**
 * Data access for email delivery capacity: a project's sent/bounced/spam counts over the last hour,
 * day, week and month (email_outbox), the latest slot its paced sends hold, and its capacity boost.
 * The boost is a row of rate_limit_counters (bucket `email-capacity-boost:{project}`, `expires_at` = the
 * boost's end): a timed per-project window, started by one compare-and-set, and pruned once expired.
 */
import type { Db } from "../client";

export type WindowCounts = { sent: number; bounced: number; markedAsSpam: number };
export type DeliveryCounts = { hour: WindowCounts; day: WindowCounts; week: WindowCounts; month: WindowCounts };

export const DELIVERY_WINDOWS_MS = { hour: 3600_000, day: 86400_000, week: 7 * 86400_000, month: 30 * 86400_000 } as const;

/**
 * A sent email counts in a window by when it finished sending. Rows created more than two months ago
 * are not read (an email scheduled that far ahead of its send is left out), so the count reads only
 * the project's recent rows through its (project, created_at) index.
 */
const WINDOW_PARAMS = [
  ["hour", 2],
  ["day", 3],
  ["week", 4],
  ["month", 5],
] as const;
const COUNTS = `SELECT ${WINDOW_PARAMS.map(
  ([w, p]) => `SUM(CASE WHEN finished_sending_at >= ?${p} AND status = 'sent' THEN 1 ELSE 0 END) AS sent_${w},
  SUM(CASE WHEN finished_sending_at >= ?${p} AND status = 'bounced' THEN 1 ELSE 0 END) AS bounced_${w},
  SUM(CASE WHEN finished_sending_at >= ?${p} AND status = 'marked-as-spam' THEN 1 ELSE 0 END) AS spam_${w}`,
).join(",\n  ")}
FROM email_outbox WHERE project_id = ?1 AND created_at >= ?6`;

export async function deliveryCounts(db: Db, projectId: string, now: number): Promise<DeliveryCounts> {
  const w = DELIVERY_WINDOWS_MS;
  const row = await db.$client
    .prepare(COUNTS)
    .bind(projectId, now - w.hour, now - w.day, now - w.week, now - w.month, now - 2 * w.month)
    .first<Record<string, number | null>>();
  const of = (key: string) => Number(row?.[key] ?? 0);
  const window = (name: string): WindowCounts => ({
    sent: of(`sent_${name}`),
    bounced: of(`bounced_${name}`),
    markedAsSpam: of(`spam_${name}`),
  });
  return { hour: window("hour"), day: window("day"), week: window("week"), month: window("month") };
}

/** The latest time a paced send-email row of the project is scheduled for, among those still waiting (rows of the last week). */
export async function latestPacedSlot(db: Db, projectId: string, now: number): Promise<number | null> {
  const row = await db.$client
    .prepare(
      `SELECT MAX(scheduled_at) AS latest FROM email_outbox
       WHERE project_id = ?1 AND created_at >= ?2 AND built_in_kind IS NULL AND status IN ('queued', 'scheduled')`,
    )
    .bind(projectId, now - DELIVERY_WINDOWS_MS.week)
    .first<{ latest: number | null }>();
  return row?.latest ?? null;
}

const boostBucket = (projectId: string) => `email-capacity-boost:${projectId}`;

/** When the project's capacity boost ends, or null when none is running. */
export async function readCapacityBoost(db: Db, projectId: string, now: number): Promise<number | null> {
  const row = await db.$client
    .prepare("SELECT expires_at FROM rate_limit_counters WHERE bucket = ?1 AND expires_at > ?2")
    .bind(boostBucket(projectId), now)
    .first<{ expires_at: number }>();
  return row?.expires_at ?? null;
}

/**
 * Starts a boost until `until` unless one is running (compare-and-set: of two concurrent calls, one
 * starts it). Returns null when it started, else the running boost's end.
 */
export async function startCapacityBoost(db: Db, projectId: string, now: number, until: number): Promise<number | null> {
  const started = await db.$client
    .prepare(
      `INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at) VALUES (?1, ?2, 1, ?3)
       ON CONFLICT (bucket) DO UPDATE SET window_start = excluded.window_start, count = 1, expires_at = excluded.expires_at
       WHERE rate_limit_counters.expires_at <= ?2
       RETURNING expires_at`,
    )
    .bind(boostBucket(projectId), now, until)
    .first<{ expires_at: number }>();
  if (started) return null;
  return (await readCapacityBoost(db, projectId, now)) ?? now;
}
