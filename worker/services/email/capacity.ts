/**
 * A project's email delivery capacity, as the reference computes it: a base rate per hour
 * (EMAIL_CAPACITY_PER_HOUR) plus four times its average hourly volume of the last month, times a
 * penalty for bounces and spam reports (never under a quarter of the base), ×4 while a boost runs
 * (4 hours, started by POST /emails/capacity-boost). Doorman paces `send-email` by it: each of a
 * send's rows gets the next free slot at that rate (scheduled_at), so one tenant's broadcast drains at
 * its capacity. Built-in emails a user asked for (codes, links, notices) are not paced: they have
 * their per-address rate limits, and pacing them would let a burst of sign-ups hold up everyone's.
 */
import {
  type DeliveryCounts,
  deliveryCounts,
  latestPacedSlot,
  readCapacityBoost,
  startCapacityBoost,
} from "../../db/queries/email-delivery";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";

export const BOOST_MULTIPLIER = 4;
export const BOOST_DURATION_MS = 4 * 3600_000;

export type Capacity = { ratePerSecond: number; boostMultiplier: number; penaltyFactor: number; isBoostActive: boolean };

/** 1 with no sends; lower as bounces and (50 times heavier) spam reports grow, never under 0.1. */
export function penaltyFactor(sent: number, bounced: number, spam: number): number {
  if (sent === 0) return 1;
  const failureRate = (bounced + 50 * spam) / sent;
  return Math.max(0.1, Math.min(1, 1 - failureRate));
}

export function capacityOf(stats: DeliveryCounts, basePerHour: number, boostExpiresAt: number | null, now: number): Capacity {
  const penalty = Math.min(
    penaltyFactor(stats.week.sent, stats.week.bounced, stats.week.markedAsSpam),
    penaltyFactor(stats.day.sent, stats.day.bounced, stats.day.markedAsSpam),
    penaltyFactor(stats.hour.sent, stats.hour.bounced, stats.hour.markedAsSpam),
  );
  const hourlyBaseline = basePerHour + (4 * stats.month.sent) / 30 / 24;
  const perHour = Math.max(hourlyBaseline * penalty, basePerHour / 4);
  const isBoostActive = boostExpiresAt !== null && boostExpiresAt > now;
  const boostMultiplier = isBoostActive ? BOOST_MULTIPLIER : 1;
  return { ratePerSecond: (perHour / 3600) * boostMultiplier, boostMultiplier, penaltyFactor: penalty, isBoostActive };
}

export type DeliveryInfo = { stats: DeliveryCounts; capacity: Capacity; boostExpiresAt: number | null };

export async function deliveryInfo(deps: Deps, projectId: string): Promise<DeliveryInfo> {
  const now = deps.now();
  const [stats, boostExpiresAt] = await Promise.all([deliveryCounts(deps.db, projectId, now), readCapacityBoost(deps.db, projectId, now)]);
  return { stats, capacity: capacityOf(stats, deps.config.emailCapacityPerHour, boostExpiresAt, now), boostExpiresAt };
}

/** Starts a 4-hour boost; EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE while one runs. */
export async function activateCapacityBoost(
  deps: Deps,
  projectId: string,
): Promise<{ ok: true; expiresAt: number } | Problem<"email_capacity_boost_active">> {
  const now = deps.now();
  const until = now + BOOST_DURATION_MS;
  const running = await startCapacityBoost(deps.db, projectId, now, until);
  if (running !== null) return fail("email_capacity_boost_active", { expiresAt: new Date(running).toISOString() });
  return { ok: true, expiresAt: until };
}

/**
 * The send times of `count` new send-email rows: one every 1/rate seconds, from now or after the
 * project's latest waiting paced row, whichever is later.
 */
export async function pacedSlots(deps: Deps, projectId: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const now = deps.now();
  const [{ capacity }, latest] = await Promise.all([deliveryInfo(deps, projectId), latestPacedSlot(deps.db, projectId, now)]);
  const gapMs = 1000 / capacity.ratePerSecond;
  const first = latest === null ? now : Math.max(now, latest + gapMs);
  return Array.from({ length: count }, (_, i) => Math.round(first + i * gapMs));
}
