/**
 * Data access for the OpenID provider's clients (third-party apps of a project; issue 30): find and
 * list, register (dynamic registrations under a cap, in one statement), update with a compare-and-set,
 * replace the secret, delete with the client's consents and grants, and the cache rows of client ID
 * metadata documents (an upsert under a cap, and the pruning of expired ones).
 */
import { and, asc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { oauthClients, oauthConsents, oauthGrants, oauthRefreshTokens } from "../schema";

export type OAuthClientRow = typeof oauthClients.$inferSelect;
export type NewOAuthClientRow = typeof oauthClients.$inferInsert;
export type OAuthClientPatch = Partial<
  Pick<
    NewOAuthClientRow,
    | "name"
    | "tokenEndpointAuthMethod"
    | "redirectUris"
    | "allowedScopes"
    | "logoUri"
    | "clientUri"
    | "policyUri"
    | "tosUri"
    | "jwks"
    | "jwksUri"
    | "secretHash"
    | "secretPrefix"
  >
>;

const byId = (projectId: string, clientId: string) => and(eq(oauthClients.projectId, projectId), eq(oauthClients.clientId, clientId));

/** One client of the project, by its client id (a CIMD client's row is its cached document). */
export async function findOAuthClient(db: Db, projectId: string, clientId: string): Promise<OAuthClientRow | null> {
  const rows = await db.select().from(oauthClients).where(byId(projectId, clientId)).limit(1);
  return rows[0] ?? null;
}

/** The project's clients, oldest first. */
export function listOAuthClients(db: Db, projectId: string): Promise<OAuthClientRow[]> {
  return db
    .select()
    .from(oauthClients)
    .where(eq(oauthClients.projectId, projectId))
    .orderBy(asc(oauthClients.createdAt), asc(oauthClients.clientId));
}

/** Registers a client (its id is new and random, so this never conflicts). */
export function insertOAuthClientStatement(db: Db, row: NewOAuthClientRow) {
  return db.insert(oauthClients).values(row);
}

/** The row as an INSERT … SELECT whose WHERE is `condition` (a cap checked in the same statement as the write). */
function insertWhere(db: Db, row: NewOAuthClientRow, condition: SQL) {
  const v = (value: unknown, name: string) => sql`${value ?? null}`.as(name);
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  return db.insert(oauthClients).select(
    db
      .select({
        projectId: v(row.projectId, "project_id"),
        clientId: v(row.clientId, "client_id"),
        source: v(row.source, "source"),
        name: v(row.name, "name"),
        clientType: v(row.clientType, "client_type"),
        tokenEndpointAuthMethod: v(row.tokenEndpointAuthMethod, "token_endpoint_auth_method"),
        secretHash: v(row.secretHash, "secret_hash"),
        secretPrefix: v(row.secretPrefix, "secret_prefix"),
        redirectUris: v(json(row.redirectUris), "redirect_uris"),
        allowedScopes: v(json(row.allowedScopes), "allowed_scopes"),
        logoUri: v(row.logoUri, "logo_uri"),
        clientUri: v(row.clientUri, "client_uri"),
        policyUri: v(row.policyUri, "policy_uri"),
        tosUri: v(row.tosUri, "tos_uri"),
        jwks: v(json(row.jwks), "jwks"),
        jwksUri: v(row.jwksUri, "jwks_uri"),
        metadataExpiresAt: v(row.metadataExpiresAt, "metadata_expires_at"),
        createdAt: v(row.createdAt, "created_at"),
        updatedAt: v(row.updatedAt, "updated_at"),
      })
      .from(sql`(SELECT 1) AS one`)
      .where(condition),
  );
}

const countOfSource = (projectId: string, source: OAuthClientRow["source"]) =>
  sql`(SELECT count(*) FROM ${oauthClients} WHERE ${oauthClients.projectId} = ${projectId} AND ${oauthClients.source} = ${source})`;

/** An RFC 7591 registration, inserted only while the project has fewer than `cap` dynamic clients (changes() says which). */
export function insertDynamicClientStatement(db: Db, row: NewOAuthClientRow, cap: number) {
  return insertWhere(db, { ...row, source: "dynamic" }, sql`${countOfSource(row.projectId, "dynamic")} < ${cap}`);
}

/**
 * Caches a client ID metadata document as the client's row: a new row only while the project caches
 * fewer than `cap` documents, an existing one refreshed. Concurrent resolutions of one URL both land
 * here: the primary key makes the second an update, never an error.
 */
export function upsertMetadataDocumentClientStatement(db: Db, row: NewOAuthClientRow, cap: number) {
  const exists = sql`EXISTS (SELECT 1 FROM ${oauthClients} WHERE ${oauthClients.projectId} = ${row.projectId} AND ${oauthClients.clientId} = ${row.clientId})`;
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  return insertWhere(
    db,
    { ...row, source: "metadata_document" },
    sql`(${exists} OR ${countOfSource(row.projectId, "metadata_document")} < ${cap})`,
  ).onConflictDoUpdate({
    target: [oauthClients.projectId, oauthClients.clientId],
    set: {
      name: excluded("name"),
      clientType: excluded("client_type"),
      tokenEndpointAuthMethod: excluded("token_endpoint_auth_method"),
      redirectUris: excluded("redirect_uris"),
      allowedScopes: excluded("allowed_scopes"),
      logoUri: excluded("logo_uri"),
      clientUri: excluded("client_uri"),
      policyUri: excluded("policy_uri"),
      tosUri: excluded("tos_uri"),
      jwks: excluded("jwks"),
      jwksUri: excluded("jwks_uri"),
      metadataExpiresAt: excluded("metadata_expires_at"),
      updatedAt: excluded("updated_at"),
    },
    // Only a document's own cache row is refreshed from a document.
    setWhere: eq(oauthClients.source, "metadata_document"),
  });
}

/** Drops the project's cached documents that expired before `now` (they are fetched again when used). */
export function deleteExpiredMetadataDocumentsStatement(db: Db, projectId: string, now: number) {
  return db
    .delete(oauthClients)
    .where(
      and(eq(oauthClients.projectId, projectId), eq(oauthClients.source, "metadata_document"), lt(oauthClients.metadataExpiresAt, now)),
    );
}

/** Changes a client if it is still as it was read (`updatedAt`): a concurrent change makes this one match nothing. */
export function updateOAuthClientStatement(
  db: Db,
  projectId: string,
  clientId: string,
  readUpdatedAt: number,
  patch: OAuthClientPatch & { updatedAt: number },
) {
  return db
    .update(oauthClients)
    .set(patch)
    .where(and(byId(projectId, clientId), eq(oauthClients.updatedAt, readUpdatedAt)));
}

/** Replaces the secret of a client that has one (a public or private_key_jwt client matches nothing). */
export function replaceOAuthClientSecretStatement(
  db: Db,
  projectId: string,
  clientId: string,
  secretHash: string,
  secretPrefix: string,
  now: number,
) {
  return db
    .update(oauthClients)
    .set({ secretHash, secretPrefix, updatedAt: now })
    .where(and(byId(projectId, clientId), sql`${oauthClients.secretHash} IS NOT NULL`));
}

export function deleteOAuthClientStatement(db: Db, projectId: string, clientId: string) {
  return db.delete(oauthClients).where(byId(projectId, clientId));
}

/** What a deleted client leaves behind: its grants' refresh tokens, its grants and its users' consents. */
export function deleteOAuthClientDependentsStatements(db: Db, projectId: string, clientId: string) {
  const grantsOf = and(eq(oauthGrants.projectId, projectId), eq(oauthGrants.clientId, clientId));
  return [
    db
      .delete(oauthRefreshTokens)
      .where(inArray(oauthRefreshTokens.grantId, db.select({ id: oauthGrants.id }).from(oauthGrants).where(grantsOf))),
    db.delete(oauthGrants).where(grantsOf),
    db.delete(oauthConsents).where(and(eq(oauthConsents.projectId, projectId), eq(oauthConsents.clientId, clientId))),
  ] as const;
}
