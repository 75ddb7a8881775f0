/**
 * The rules' trigger counts (GET /internal/sign-up-rules-stats), in the reference's shape: per rule,
 * the last ANALYTICS_HOURS hours (one count per UTC hour, oldest first) and all time, and the recent
 * total per action. The counters are the D1 upserts gate.ts makes at each sign-up.
 */
import type { ProjectRow } from "../../db/queries/projects";
import { listRuleTriggersSince, sumRuleTriggers } from "../../db/queries/sign-up-rule-triggers";
import type { Deps } from "../deps";
import { HOUR_MS } from "./gate";

export const ANALYTICS_HOURS = 48;

const hourKey = (ms: number) => `${new Date(ms).toISOString().slice(0, 13)}:00:00.000Z`;

export async function readSignUpRuleStats(deps: Deps, project: ProjectRow) {
  const thisHour = Math.floor(deps.now() / HOUR_MS) * HOUR_MS;
  const since = thisHour - (ANALYTICS_HOURS - 1) * HOUR_MS;
  const [recent, allTime] = await Promise.all([listRuleTriggersSince(deps.db, project.id, since), sumRuleTriggers(deps.db, project.id)]);
  const byAction = { allow: 0, reject: 0, restrict: 0, log: 0 };
  const perRule = new Map<string, Map<number, number>>();
  for (const row of recent) {
    if (row.action in byAction) byAction[row.action as keyof typeof byAction] += row.count;
    const hours = perRule.get(row.ruleId) ?? new Map<number, number>();
    hours.set(row.hourStart, (hours.get(row.hourStart) ?? 0) + row.count);
    perRule.set(row.ruleId, hours);
  }
  const totals = new Map(allTime.map((r) => [r.ruleId, Number(r.total)]));
  const ruleIds = [...new Set([...perRule.keys(), ...totals.keys()])].sort();
  const ruleTriggers = ruleIds.map((ruleId) => {
    const hours = perRule.get(ruleId);
    const hourly = Array.from({ length: ANALYTICS_HOURS }, (_, i) => {
      const start = since + i * HOUR_MS;
      return { hour: hourKey(start), count: hours?.get(start) ?? 0 };
    });
    const recentCount = hourly.reduce((sum, h) => sum + h.count, 0);
    return { rule_id: ruleId, total_count: recentCount, all_time_count: totals.get(ruleId) ?? recentCount, hourly_counts: hourly };
  });
  return {
    rule_triggers: ruleTriggers,
    analytics_hours: ANALYTICS_HOURS,
    total_triggers: Object.values(byAction).reduce((a, b) => a + b, 0),
    triggers_by_action: byAction,
  };
}
