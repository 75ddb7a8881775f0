/** Data access for the OpenID provider's clients (third-party apps of a project; issue 30). */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { oauthClients } from "../schema";

export type OAuthClientRow = typeof oauthClients.$inferSelect;
export type NewOAuthClientRow = typeof oauthClients.$inferInsert;

/** One client of the project, by its client id (a CIMD client's row is its cached document). */
export async function findOAuthClient(db: Db, projectId: string, clientId: string): Promise<OAuthClientRow | null> {
  const rows = await db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.projectId, projectId), eq(oauthClients.clientId, clientId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The project's clients, oldest first. */
export function listOAuthClients(db: Db, projectId: string): Promise<OAuthClientRow[]> {
  return db.select().from(oauthClients).where(eq(oauthClients.projectId, projectId)).orderBy(asc(oauthClients.createdAt));
}

/** Registers a client (its id is new and random, so this never conflicts). */
export function insertOAuthClientStatement(db: Db, row: NewOAuthClientRow) {
  return db.insert(oauthClients).values(row);
}
