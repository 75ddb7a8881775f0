/**
 * Verified email domains of teams (issue 31): the lookup every sign-in path shares (routing an email to
 * its team's connection, SSO enforcement, auto-join). Claiming, verifying and removing domains live
 * beside it, added by the feature that owns them.
 */
import { and, eq } from "drizzle-orm";
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
  const row = await db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.projectId, projectId), eq(ssoDomains.domain, domain), eq(ssoDomains.status, "verified")))
    .get();
  return row ?? null;
}
