/** Data access for a user's known devices (new-device verification and the risk signals; services/protection/). */
import { and, desc, eq, notInArray, Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { knownDevices } from "../schema";

export type KnownDeviceRow = typeof knownDevices.$inferSelect;

/** How many devices a sign-in reads back: enough for "a country seen before" and the last sign-in. */
const RECENT_DEVICES = 20;

/** The user's devices, the most recently seen first (one indexed read). */
export function listRecentDevices(db: Db, projectId: string, userId: string): Promise<KnownDeviceRow[]> {
  return recentDevicesQuery(db, projectId, userId);
}

/**
 * listRecentDevices as a query for a batch: the user is an id, a placeholder, or a SQL subquery
 * answering one (a password sign-in reads the devices of the address's user in its one batch).
 */
export function recentDevicesQuery(db: Db, projectId: string | Placeholder, userId: string | Placeholder | SQL) {
  const user =
    typeof userId === "string" || userId instanceof Placeholder
      ? eq(knownDevices.userId, userId)
      : sql`${knownDevices.userId} = (${userId})`;
  return db
    .select()
    .from(knownDevices)
    .where(and(eq(knownDevices.projectId, projectId), user))
    .orderBy(desc(knownDevices.lastSeenAt))
    .limit(RECENT_DEVICES);
}

export type DeviceSighting = {
  projectId: string;
  userId: string;
  deviceHash: string;
  uaFamily: string;
  at: number;
  countryCode: string | null;
  latitude: number | null;
  longitude: number | null;
};

/**
 * A sign-in from a device: inserts it, or stamps its last use (and takes the user-agent family it was
 * verified with). One upsert, so two concurrent sign-ins from one device never make two rows.
 */
export function recordDeviceStatement(db: Db, s: DeviceSighting) {
  const last = { lastSeenAt: s.at, lastCountryCode: s.countryCode, lastLatitude: s.latitude, lastLongitude: s.longitude };
  return db
    .insert(knownDevices)
    .values({ projectId: s.projectId, userId: s.userId, deviceHash: s.deviceHash, uaFamily: s.uaFamily, firstSeenAt: s.at, ...last })
    .onConflictDoUpdate({
      target: [knownDevices.projectId, knownDevices.userId, knownDevices.deviceHash],
      set: { uaFamily: s.uaFamily, ...last },
    });
}

/** The most devices a user keeps: clients that never keep their token would otherwise add a row per sign-in. */
export const MAX_DEVICES_PER_USER = 50;

/** Forgets the user's least recently seen devices beyond MAX_DEVICES_PER_USER (run with a new device's insert). */
export function pruneDevicesStatement(db: Db, projectId: string, userId: string) {
  const newest = db
    .select({ deviceHash: knownDevices.deviceHash })
    .from(knownDevices)
    .where(and(eq(knownDevices.projectId, projectId), eq(knownDevices.userId, userId)))
    .orderBy(desc(knownDevices.lastSeenAt))
    .limit(MAX_DEVICES_PER_USER);
  return db
    .delete(knownDevices)
    .where(and(eq(knownDevices.projectId, projectId), eq(knownDevices.userId, userId), notInArray(knownDevices.deviceHash, newest)));
}
