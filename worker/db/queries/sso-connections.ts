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

// --- Writes (issue 31, ADMIN: the management API) ---

export type NewSsoConnectionRow = typeof ssoConnections.$inferInsert;
/** The fields an update may change (never the id, project, team or protocol). */
export type SsoConnectionPatch = Partial<
  Pick<
    NewSsoConnectionRow,
    "displayName" | "enabled" | "config" | "allowIdpInitiated" | "scimGroupMapping" | "spPrivateKeySealed" | "spCertificate"
  >
> & { updatedAt: number };

const connectionById = (projectId: string, id: string) => and(eq(ssoConnections.projectId, projectId), eq(ssoConnections.id, id));

export function insertSsoConnectionStatement(db: Db, row: NewSsoConnectionRow) {
  return db.insert(ssoConnections).values(row);
}

/** The update, only if nobody changed the row since it was read (compare-and-set on updated_at). */
export function updateSsoConnectionStatement(db: Db, projectId: string, id: string, readUpdatedAt: number, patch: SsoConnectionPatch) {
  return db
    .update(ssoConnections)
    .set(patch)
    .where(and(connectionById(projectId, id), eq(ssoConnections.updatedAt, readUpdatedAt)));
}

/** Deletes a connection: its identities, SCIM groups and used assertions go by cascade (never the users); its domains keep their claim with connection_id null. */
export function deleteSsoConnectionStatement(db: Db, projectId: string, id: string) {
  return db.delete(ssoConnections).where(connectionById(projectId, id));
}

/** Replaces the SCIM token (its hash and display prefix); the old token matches nothing from then on. */
export function replaceScimTokenStatement(db: Db, projectId: string, id: string, tokenHash: string, tokenPrefix: string, now: number) {
  return db
    .update(ssoConnections)
    .set({ scimTokenHash: tokenHash, scimTokenPrefix: tokenPrefix, updatedAt: now })
    .where(connectionById(projectId, id));
}
