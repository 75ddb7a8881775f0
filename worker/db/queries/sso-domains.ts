/**
 * Verified email domains of teams (issue 31): the lookup every sign-in path shares (routing an email to
 * its team's connection, SSO enforcement, auto-join). Claiming, verifying and removing domains live
 * beside it, added by the feature that owns them.
 */
import { and, asc, eq, isNull, lt, ne, or, type Placeholder, sql } from "drizzle-orm";
import type { Db } from "../client";
import { ssoDomains } from "../schema";

export type SsoDomainRow = typeof ssoDomains.$inferSelect;

/** The lower-cased domain part of an email address (null when there is none). */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return null;
  return email.slice(at + 1).toLowerCase();
}

/** The verified claim on an email's domain in a project (at most one: a partial unique index), or null. */
export async function findVerifiedDomainOfEmail(db: Db, projectId: string, email: string): Promise<SsoDomainRow | null> {
  const domain = emailDomain(email);
  if (!domain) return null;
  const row = await verifiedDomainQuery(db, projectId, domain).get();
  return row ?? null;
}

/** The verified claim on a domain (lower-cased), as a query for a batch (a password sign-in's reads). */
export function verifiedDomainQuery(db: Db, projectId: string | Placeholder, domain: string | Placeholder) {
  return db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.projectId, projectId), eq(ssoDomains.domain, domain), eq(ssoDomains.status, "verified")))
    .limit(1);
}

// --- Claims, checks and settings (issue 31, ADMIN: the management API and the daily re-check) ---

export type NewSsoDomainRow = typeof ssoDomains.$inferInsert;
export type SsoDomainPatch = Partial<Pick<NewSsoDomainRow, "enforceSso" | "autoJoin" | "connectionId">>;

const domainById = (projectId: string, id: string) => and(eq(ssoDomains.projectId, projectId), eq(ssoDomains.id, id));

/** A domain claim of a project, by id. */
export async function findSsoDomain(db: Db, projectId: string, id: string): Promise<SsoDomainRow | null> {
  return (await db.select().from(ssoDomains).where(domainById(projectId, id)).get()) ?? null;
}

/** A team's domain claims, in the order they were made. */
export function listTeamSsoDomains(db: Db, projectId: string, teamId: string): Promise<SsoDomainRow[]> {
  return db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.projectId, projectId), eq(ssoDomains.teamId, teamId)))
    .orderBy(asc(ssoDomains.createdAt), asc(ssoDomains.id))
    .all();
}

/** A new pending claim; nothing when the team already claims the domain (the unique (team_id, domain) index). */
export function insertSsoDomainStatement(db: Db, row: NewSsoDomainRow) {
  return db.insert(ssoDomains).values(row).onConflictDoNothing();
}

/**
 * Marks a claim verified, unless it already is or another team of the project holds the domain
 * verified: one statement, so of two teams verifying at once exactly one wins (the partial unique
 * index `sso_domains_verified` is the backstop the NOT EXISTS keeps from ever firing).
 */
export function markSsoDomainVerifiedStatement(db: Db, row: Pick<SsoDomainRow, "id" | "projectId" | "domain">, now: number) {
  return db
    .update(ssoDomains)
    .set({ status: "verified", verifiedAt: now, checkedAt: now })
    .where(
      and(
        domainById(row.projectId, row.id),
        ne(ssoDomains.status, "verified"),
        sql`NOT EXISTS (SELECT 1 FROM sso_domains AS held WHERE held.project_id = ${row.projectId} AND held.domain = ${row.domain} AND held.status = 'verified')`,
      ),
    );
}

/** A check that found the record again (verified) or still not (pending, lost): only the time of the check changes. */
export function touchSsoDomainCheckedStatement(db: Db, id: string, now: number) {
  return db.update(ssoDomains).set({ checkedAt: now }).where(eq(ssoDomains.id, id));
}

/** A verified claim whose record is gone becomes "lost" (a compare-and-set on the status: a lost claim is lost once). */
export function markSsoDomainLostStatement(db: Db, id: string, now: number) {
  return db
    .update(ssoDomains)
    .set({ status: "lost", checkedAt: now })
    .where(and(eq(ssoDomains.id, id), eq(ssoDomains.status, "verified")));
}

export function updateSsoDomainStatement(db: Db, projectId: string, id: string, patch: SsoDomainPatch) {
  return db.update(ssoDomains).set(patch).where(domainById(projectId, id));
}

export function deleteSsoDomainStatement(db: Db, projectId: string, id: string) {
  return db.delete(ssoDomains).where(domainById(projectId, id));
}

/** Verified claims (of every project) not checked since `checkedBefore`, least recently checked first: one bounded batch of the daily re-check. */
export function listVerifiedSsoDomainsDue(db: Db, checkedBefore: number, limit: number): Promise<SsoDomainRow[]> {
  return db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.status, "verified"), or(isNull(ssoDomains.checkedAt), lt(ssoDomains.checkedAt, checkedBefore))))
    .orderBy(asc(ssoDomains.checkedAt), asc(ssoDomains.id))
    .limit(limit)
    .all();
}
