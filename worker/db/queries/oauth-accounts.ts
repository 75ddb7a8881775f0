/**
 * Data access for users' provider accounts (oauth_accounts). Provider tokens arrive here already
 * sealed (worker/services/oauth/tokens.ts); these verbs never see a plaintext token.
 */
import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "../client";
import { oauthAccounts } from "../schema";

export type OAuthAccountRow = typeof oauthAccounts.$inferSelect;

/** Sealed provider tokens and what the provider granted, as stored on an account row. */
export type SealedProviderTokens = {
  accessTokenSealed: string | null;
  refreshTokenSealed: string | null;
  accessTokenExpiresAt: number | null;
  scopes: string;
};

// --- oauth sign-in verbs ---

/** The account that signs in with this provider identity (allow_sign_in), or null. */
export async function findSignInOAuthAccount(
  db: Db,
  projectId: string,
  providerConfigId: string,
  providerAccountId: string,
): Promise<OAuthAccountRow | null> {
  const row = await db
    .select()
    .from(oauthAccounts)
    .where(
      and(
        eq(oauthAccounts.projectId, projectId),
        eq(oauthAccounts.providerConfigId, providerConfigId),
        eq(oauthAccounts.providerAccountId, providerAccountId),
        eq(oauthAccounts.allowSignIn, true),
      ),
    )
    .get();
  return row ?? null;
}

/** Every row of this provider identity in the project (sign-in or connected-only), any user. */
export function findOAuthAccountsByProviderAccount(
  db: Db,
  projectId: string,
  providerConfigId: string,
  providerAccountId: string,
): Promise<OAuthAccountRow[]> {
  return db
    .select()
    .from(oauthAccounts)
    .where(
      and(
        eq(oauthAccounts.projectId, projectId),
        eq(oauthAccounts.providerConfigId, providerConfigId),
        eq(oauthAccounts.providerAccountId, providerAccountId),
      ),
    )
    .all();
}

export function insertOAuthAccountStatement(db: Db, row: typeof oauthAccounts.$inferInsert) {
  return db.insert(oauthAccounts).values(row);
}

/** Replaces an account's sealed tokens (and email) after a fresh provider sign-in. */
export async function updateOAuthAccountTokens(
  db: Db,
  id: string,
  tokens: SealedProviderTokens & { email?: string | null },
): Promise<void> {
  // A provider that sends no new refresh token keeps the old one valid: do not erase it.
  const patch: Partial<typeof oauthAccounts.$inferInsert> = {
    accessTokenSealed: tokens.accessTokenSealed,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    scopes: tokens.scopes,
  };
  if (tokens.refreshTokenSealed !== null) patch.refreshTokenSealed = tokens.refreshTokenSealed;
  if (tokens.email !== undefined) patch.email = tokens.email;
  await db.update(oauthAccounts).set(patch).where(eq(oauthAccounts.id, id));
}

// --- end of oauth sign-in verbs (connected-accounts / oauth-providers verbs go below) ---

/** A user's accounts (or, without a user, the whole project's), oldest first. */
export function listOAuthAccounts(db: Db, projectId: string, userId?: string): Promise<OAuthAccountRow[]> {
  const where = [eq(oauthAccounts.projectId, projectId)];
  if (userId !== undefined) where.push(eq(oauthAccounts.userId, userId));
  return db
    .select()
    .from(oauthAccounts)
    .where(and(...where))
    .orderBy(asc(oauthAccounts.createdAt), asc(oauthAccounts.id))
    .all();
}

/** One account of one user of the project, or null. */
export async function findOAuthAccountOfUser(db: Db, projectId: string, userId: string, id: string): Promise<OAuthAccountRow | null> {
  const row = await db
    .select()
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.projectId, projectId), eq(oauthAccounts.userId, userId), eq(oauthAccounts.id, id)))
    .get();
  return row ?? null;
}

/** Does this user already sign in with another account of this provider? */
export async function userHasSignInAccountOfProvider(
  db: Db,
  projectId: string,
  userId: string,
  providerConfigId: string,
  exceptId?: string,
): Promise<boolean> {
  const where = [
    eq(oauthAccounts.projectId, projectId),
    eq(oauthAccounts.userId, userId),
    eq(oauthAccounts.providerConfigId, providerConfigId),
    eq(oauthAccounts.allowSignIn, true),
  ];
  if (exceptId !== undefined) where.push(ne(oauthAccounts.id, exceptId));
  const row = await db
    .select({ id: oauthAccounts.id })
    .from(oauthAccounts)
    .where(and(...where))
    .get();
  return row !== undefined;
}

/** The accounts a user lets the app act through (allow_connected_accounts), oldest first. */
export function listConnectedOAuthAccounts(
  db: Db,
  projectId: string,
  userId: string,
  filter: { providerConfigId?: string; providerAccountId?: string } = {},
): Promise<OAuthAccountRow[]> {
  const where = [eq(oauthAccounts.projectId, projectId), eq(oauthAccounts.userId, userId), eq(oauthAccounts.allowConnectedAccounts, true)];
  if (filter.providerConfigId !== undefined) where.push(eq(oauthAccounts.providerConfigId, filter.providerConfigId));
  if (filter.providerAccountId !== undefined) where.push(eq(oauthAccounts.providerAccountId, filter.providerAccountId));
  return db
    .select()
    .from(oauthAccounts)
    .where(and(...where))
    .orderBy(asc(oauthAccounts.createdAt), asc(oauthAccounts.id))
    .all();
}

export type OAuthAccountPatch = Partial<Pick<OAuthAccountRow, "allowSignIn" | "allowConnectedAccounts" | "email" | "providerAccountId">>;

/** Updates one account of one user; null when there is no such account. */
export async function updateOAuthAccountOfUser(
  db: Db,
  projectId: string,
  userId: string,
  id: string,
  patch: OAuthAccountPatch,
): Promise<OAuthAccountRow | null> {
  const rows = await db
    .update(oauthAccounts)
    .set(patch)
    .where(and(eq(oauthAccounts.projectId, projectId), eq(oauthAccounts.userId, userId), eq(oauthAccounts.id, id)))
    .returning();
  return rows[0] ?? null;
}

/** Deletes one account of one user; false when there was none. */
export async function deleteOAuthAccountOfUser(db: Db, projectId: string, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(oauthAccounts)
    .where(and(eq(oauthAccounts.projectId, projectId), eq(oauthAccounts.userId, userId), eq(oauthAccounts.id, id)))
    .returning({ id: oauthAccounts.id });
  return rows.length > 0;
}

/**
 * Stores tokens from a refresh, only if the account still holds the value the refresher saw
 * (compare-and-set): a newer sign-in that replaced the tokens meanwhile is never overwritten.
 * False when the account changed underneath.
 */
export async function replaceRefreshedTokens(
  db: Db,
  id: string,
  usedRefreshTokenSealed: string,
  tokens: SealedProviderTokens,
): Promise<boolean> {
  const rows = await db
    .update(oauthAccounts)
    .set(tokens)
    .where(and(eq(oauthAccounts.id, id), eq(oauthAccounts.refreshTokenSealed, usedRefreshTokenSealed)))
    .returning({ id: oauthAccounts.id });
  return rows.length > 0;
}

/**
 * Compare-and-set of the refresh token column (claiming or releasing a refresh lease, see
 * worker/services/oauth/connected-accounts.ts): false when another request changed it first.
 */
export async function swapRefreshTokenSealed(db: Db, id: string, expected: string, next: string): Promise<boolean> {
  const rows = await db
    .update(oauthAccounts)
    .set({ refreshTokenSealed: next })
    .where(and(eq(oauthAccounts.id, id), eq(oauthAccounts.refreshTokenSealed, expected)))
    .returning({ id: oauthAccounts.id });
  return rows.length > 0;
}

/**
 * Forgets an access token the provider refused (compare-and-set on the token seen): false when
 * another request stored a new one first.
 */
export async function dropAccessTokenSealed(db: Db, id: string, refused: string): Promise<boolean> {
  const rows = await db
    .update(oauthAccounts)
    .set({ accessTokenSealed: null, accessTokenExpiresAt: null })
    .where(and(eq(oauthAccounts.id, id), eq(oauthAccounts.accessTokenSealed, refused)))
    .returning({ id: oauthAccounts.id });
  return rows.length > 0;
}

/** The row of one account by id (after a lost compare-and-set). */
export async function findOAuthAccountById(db: Db, id: string): Promise<OAuthAccountRow | null> {
  return (await db.select().from(oauthAccounts).where(eq(oauthAccounts.id, id)).get()) ?? null;
}
