import { describe, expect, it } from "vitest";
import { countsByRule } from "./rules-stats";

describe("sign-up rule counts", () => {
  it("sums the hours of the last day, and keeps the 48-hour and all-time counts", () => {
    const now = new Date("2026-11-28T10:30:00Z");
    const hour = (h: number) => new Date(Date.UTC(2026, 10, 28, h));
    const hourlyCounts = [
      { hour: new Date("2026-11-27T09:00:00Z"), count: 5 }, // 25.5 h ago: outside the day
      { hour: new Date("2026-11-27T10:00:00Z"), count: 2 }, // its hour ends inside the last 24 h
      { hour: hour(9), count: 1 },
      { hour: hour(10), count: 3 },
    ];
    const counts = countsByRule(
      {
        rules: [{ ruleId: "r", recentCount: 11, allTimeCount: 40, hourlyCounts }],
        analyticsHours: 48,
        totalTriggers: 11,
        triggersByAction: { allow: 0, reject: 11, restrict: 0, log: 0 },
      },
      now,
    );
    expect(counts.get("r")).toEqual({ last24h: 6, last48h: 11, allTime: 40 });
  });
});
