/** The trigger counts the rules page shows per rule: the last 24 hours, the last 48 (what the stats route keeps per hour) and all time. */
import type { SignUpRulesStatsView } from "@doorman/sdk";

export type RuleCounts = { last24h: number; last48h: number; allTime: number };

export function countsByRule(stats: SignUpRulesStatsView, now: Date): Map<string, RuleCounts> {
  const dayAgo = now.getTime() - 24 * 3_600_000;
  const out = new Map<string, RuleCounts>();
  for (const rule of stats.rules) {
    // An hour counts when it ends inside the last day.
    const last24h = rule.hourlyCounts.filter((h) => h.hour.getTime() + 3_600_000 > dayAgo).reduce((sum, h) => sum + h.count, 0);
    out.set(rule.ruleId, { last24h, last48h: rule.recentCount, allTime: rule.allTimeCount });
  }
  return out;
}
