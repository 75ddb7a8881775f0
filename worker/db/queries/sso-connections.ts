/**
 * Enterprise SSO connections (issue 31): the read verbs every SSO part shares. Writes (create, update
 * with compare-and-set on updated_at, delete, SCIM token rotation) live beside them, added by the
 * feature that owns them.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { ssoConnections } from "../schema";

export type SsoConnectionRow = typeof ssoConnections.$inferSelect;

/** A connection of a project, by id (null: none, or another project's). */
export async function findSsoConnection(db: Db, projectId: string, id: string): Promise<SsoConnectionRow | null> {
  const row = await db
    .select()
    .from(ssoConnections)
    .where(and(eq(ssoConnections.projectId, projectId), eq(ssoConnections.id, id)))
    .get();
  return row ?? null;
}

/** A connection by id alone (the ACS, SCIM and callback URLs name only the connection). */
export async function findSsoConnectionById(db: Db, id: string): Promise<SsoConnectionRow | null> {
  const row = await db.select().from(ssoConnections).where(eq(ssoConnections.id, id)).get();
  return row ?? null;
}

/** A team's connections, oldest first. */
export async function listTeamSsoConnections(db: Db, projectId: string, teamId: string): Promise<SsoConnectionRow[]> {
  return db
    .select()
    .from(ssoConnections)
    .where(and(eq(ssoConnections.projectId, projectId), eq(ssoConnections.teamId, teamId)))
    .orderBy(asc(ssoConnections.createdAt), asc(ssoConnections.id))
    .all();
}
