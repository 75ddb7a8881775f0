/**
 * A user as one SSO connection knows them (issue 31): the SCIM User resource (its id is the row's id)
 * and the link the first SSO sign-in makes. SCIM's verbs are below; the sign-in flow keeps its own in
 * a file of its own, so both stay additive. SCIM stores `user_name` lower-cased (SCIM's userName is not
 * case-exact, RFC 7643 §4.1) and the userName as sent in `scim_resource`.
 */
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { ssoIdentities } from "../schema";

export type SsoIdentityRow = typeof ssoIdentities.$inferSelect;
export type NewSsoIdentity = typeof ssoIdentities.$inferInsert;

/** An identity of the connection, by id (null: none, or another connection's). */
export async function findSsoIdentity(db: Db, connectionId: string, id: string): Promise<SsoIdentityRow | null> {
  const row = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.connectionId, connectionId), eq(ssoIdentities.id, id)))
    .get();
  return row ?? null;
}

/**
 * SQL: the identity's userName is this lower-cased one. SCIM writes it lower-cased, but a first SSO
 * sign-in writes the IdP's email or subject as sent, so the column is compared lower-cased (a scan of
 * the connection's entries of the (connection_id, user_name) index).
 */
const userNameIs = (userNameKey: string) => sql`lower(${ssoIdentities.userName}) = ${userNameKey}`;

/** The identity holding this (lower-cased) userName in the connection. */
export async function findSsoIdentityByUserName(db: Db, connectionId: string, userNameKey: string): Promise<SsoIdentityRow | null> {
  const row = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.connectionId, connectionId), userNameIs(userNameKey)))
    .get();
  return row ?? null;
}

/** The connection's identity of a Doorman user (at most one: a unique index). */
export async function findSsoIdentityOfUser(db: Db, connectionId: string, userId: string): Promise<SsoIdentityRow | null> {
  const row = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.connectionId, connectionId), eq(ssoIdentities.userId, userId)))
    .get();
  return row ?? null;
}

/** The connection's identities among `ids` (D1 binds at most 100 parameters: looked up in chunks). */
export async function listSsoIdentitiesByIds(db: Db, connectionId: string, ids: readonly string[]): Promise<SsoIdentityRow[]> {
  const unique = [...new Set(ids)];
  const chunks = Array.from({ length: Math.ceil(unique.length / 90) }, (_, i) => unique.slice(i * 90, i * 90 + 90));
  const rows = await Promise.all(
    chunks.map((chunk) =>
      db
        .select()
        .from(ssoIdentities)
        .where(and(eq(ssoIdentities.connectionId, connectionId), inArray(ssoIdentities.id, chunk)))
        .all(),
    ),
  );
  return rows.flat();
}

/** What a SCIM list of Users may be filtered on (every condition must hold). */
export type ScimUserConditions = {
  /** Lower-cased userNames. */
  userNames: string[];
  externalIds: string[];
  /** An email of the resource with this value (case-insensitive) and, when given, this type. */
  emails: { value?: string; type?: string }[];
};

function userConditions(connectionId: string, c: ScimUserConditions): SQL {
  const where: SQL[] = [eq(ssoIdentities.connectionId, connectionId)];
  for (const name of c.userNames) where.push(userNameIs(name));
  for (const id of c.externalIds) where.push(eq(ssoIdentities.externalId, id));
  for (const email of c.emails) {
    const parts: SQL[] = [sql`1 = 1`];
    if (email.value !== undefined) parts.push(sql`lower(json_extract(e.value, '$.value')) = ${email.value.toLowerCase()}`);
    if (email.type !== undefined) parts.push(sql`json_extract(e.value, '$.type') = ${email.type}`);
    // Emails live in the stored resource: a scan of the connection's rows, bounded by the connection (the unique indexes lead with it).
    where.push(sql`EXISTS (SELECT 1 FROM json_each(${ssoIdentities.scimResource}, '$.emails') AS e WHERE ${sql.join(parts, sql` AND `)})`);
  }
  return and(...where) as SQL;
}

/** One page of the connection's identities (oldest first) and how many match in all. */
export async function listSsoIdentitiesPage(
  db: Db,
  connectionId: string,
  conditions: ScimUserConditions,
  offset: number,
  limit: number,
): Promise<{ rows: SsoIdentityRow[]; total: number }> {
  const where = userConditions(connectionId, conditions);
  const [rows, totals] = await db.batch([
    db.select().from(ssoIdentities).where(where).orderBy(asc(ssoIdentities.createdAt), asc(ssoIdentities.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(ssoIdentities).where(where),
  ]);
  return { rows: limit === 0 ? [] : rows, total: totals[0]?.total ?? 0 };
}

export function insertSsoIdentityStatement(db: Db, row: NewSsoIdentity) {
  return db.insert(ssoIdentities).values(row);
}

/** The SCIM fields of an identity that a write replaces. */
export type SsoIdentityScimPatch = Pick<NewSsoIdentity, "userName" | "externalId" | "active" | "scimResource" | "updatedAt">;

/**
 * Writes a new state of the identity only if it is still at `version` (compare-and-set), bumping it;
 * unexecuted. Follow it with abortUnlessChangedStatement so the rest of the batch stands or falls with it.
 */
export function updateSsoIdentityIfVersionStatement(db: Db, id: string, version: number, patch: SsoIdentityScimPatch) {
  return db
    .update(ssoIdentities)
    .set({ ...patch, version: version + 1 })
    .where(and(eq(ssoIdentities.id, id), eq(ssoIdentities.version, version)));
}

/** Deletes the identity only if it is still at `version` (its group memberships go with it by cascade); unexecuted. */
export function deleteSsoIdentityIfVersionStatement(db: Db, id: string, version: number) {
  return db.delete(ssoIdentities).where(and(eq(ssoIdentities.id, id), eq(ssoIdentities.version, version)));
}
