/** Data access for the hosted pages' custom domains (table project_custom_domains): one hostname, one project. */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { projectCustomDomains } from "../schema";

/** The project a hostname is mapped to, or null. */
export async function findProjectIdByHostname(db: Db, hostname: string): Promise<string | null> {
  const row = await db
    .select({ projectId: projectCustomDomains.projectId })
    .from(projectCustomDomains)
    .where(eq(projectCustomDomains.hostname, hostname))
    .get();
  return row?.projectId ?? null;
}

/** The hostname a project has mapped, or null. */
export async function findCustomDomainOfProject(db: Db, projectId: string): Promise<string | null> {
  const row = await db
    .select({ hostname: projectCustomDomains.hostname })
    .from(projectCustomDomains)
    .where(eq(projectCustomDomains.projectId, projectId))
    .get();
  return row?.hostname ?? null;
}

/**
 * Maps `hostname` to the project (replacing the project's previous hostname), unless another project
 * holds it. One statement: of concurrent claims of one hostname exactly one wins; false when taken.
 */
export async function claimCustomDomain(db: Db, hostname: string, projectId: string, now: number): Promise<boolean> {
  // Raw D1 statement: the "not another project's" guard and the two upsert targets are one INSERT … SELECT,
  // which the builder cannot express. The primary key stays the last word: a conflicting hostname of
  // another project is never overwritten (the WHERE of the hostname upsert).
  const result = await db.$client
    .prepare(
      `INSERT INTO project_custom_domains (hostname, project_id, created_at)
       SELECT ?1, ?2, ?3
       WHERE NOT EXISTS (SELECT 1 FROM project_custom_domains WHERE hostname = ?1 AND project_id <> ?2)
       ON CONFLICT (hostname) DO UPDATE SET created_at = project_custom_domains.created_at
         WHERE project_custom_domains.project_id = excluded.project_id
       ON CONFLICT (project_id) DO UPDATE SET hostname = excluded.hostname, created_at = excluded.created_at`,
    )
    .bind(hostname, projectId, now)
    .run();
  return result.meta.changes === 1;
}

/** Removes the project's custom domain; false when it had none. */
export async function releaseCustomDomain(db: Db, projectId: string): Promise<boolean> {
  const rows = await db
    .delete(projectCustomDomains)
    .where(eq(projectCustomDomains.projectId, projectId))
    .returning({ hostname: projectCustomDomains.hostname });
  return rows.length > 0;
}
