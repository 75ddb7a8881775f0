/** Data access for the sign-up rule trigger counters (per project, rule, action and UTC hour; services/sign-up-rules/). */
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { signUpRuleTriggers } from "../schema";

export type RuleTrigger = { ruleId: string; action: string };

/** Counts each trigger once in its hour: one upsert each (`count + 1`), all in one batch, so concurrent sign-ups never lose a count. */
export async function countRuleTriggers(db: Db, projectId: string, triggers: RuleTrigger[], hourStart: number): Promise<void> {
  const statements = triggers.map((t) =>
    db
      .insert(signUpRuleTriggers)
      .values({ projectId, ruleId: t.ruleId, action: t.action, hourStart, count: 1 })
      .onConflictDoUpdate({
        target: [signUpRuleTriggers.projectId, signUpRuleTriggers.ruleId, signUpRuleTriggers.action, signUpRuleTriggers.hourStart],
        set: { count: sql`${signUpRuleTriggers.count} + 1` },
      }),
  );
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

export type RuleTriggerRow = { ruleId: string; action: string; hourStart: number; count: number };

/** The project's counters from `sinceHour` on, one row per rule, action and hour. */
export async function listRuleTriggersSince(db: Db, projectId: string, sinceHour: number): Promise<RuleTriggerRow[]> {
  return db
    .select({
      ruleId: signUpRuleTriggers.ruleId,
      action: signUpRuleTriggers.action,
      hourStart: signUpRuleTriggers.hourStart,
      count: signUpRuleTriggers.count,
    })
    .from(signUpRuleTriggers)
    .where(and(eq(signUpRuleTriggers.projectId, projectId), gte(signUpRuleTriggers.hourStart, sinceHour)));
}

/** Each rule's count over all time. */
export async function sumRuleTriggers(db: Db, projectId: string): Promise<{ ruleId: string; total: number }[]> {
  return db
    .select({ ruleId: signUpRuleTriggers.ruleId, total: sql<number>`SUM(${signUpRuleTriggers.count})` })
    .from(signUpRuleTriggers)
    .where(eq(signUpRuleTriggers.projectId, projectId))
    .groupBy(signUpRuleTriggers.ruleId);
}
