/** Data access for users, their primary email and selected team. */
import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or, Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { aliasedColumns } from "../prepared";
import { contactChannels, oauthAccounts, teamMembers, teams, users } from "../schema";

export type UserRow = typeof users.$inferSelect;
export type ContactChannelRow = typeof contactChannels.$inferSelect;
export type TeamRow = typeof teams.$inferSelect;
/** A linked provider account as the user views list it (`oauth_providers`). */
export type OAuthProviderRef = { providerConfigId: string; accountId: string; email: string | null };
export type UserRecord = {
  user: UserRow;
  primaryEmail: ContactChannelRow | null;
  selectedTeam: TeamRow | null;
  /** Absent where a caller assembled the record itself (views then list none). */
  oauthProviders?: OAuthProviderRef[];
};

/** The OAuth account refs of the users this condition picks (a list of ids, or one user). */
function oauthProviderRefsQuery(db: Db, which: SQL | undefined) {
  return db
    .select({
      userId: oauthAccounts.userId,
      providerConfigId: oauthAccounts.providerConfigId,
      accountId: oauthAccounts.providerAccountId,
      email: oauthAccounts.email,
    })
    .from(oauthAccounts)
    .where(which)
    .orderBy(asc(oauthAccounts.createdAt), asc(oauthAccounts.id));
}

function refsOf(rows: { userId: string; providerConfigId: string; accountId: string; email: string | null }[], userId: string) {
  return rows.filter((r) => r.userId === userId).map(({ providerConfigId, accountId, email }) => ({ providerConfigId, accountId, email }));
}

function baseSelect(db: Db) {
  return db
    .select({ user: users, primaryEmail: contactChannels, selectedTeam: teams })
    .from(users)
    .leftJoin(
      contactChannels,
      and(eq(contactChannels.userId, users.id), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")),
    )
    .leftJoin(teams, eq(teams.id, users.selectedTeamId));
}

export async function findUserRecord(db: Db, projectId: string, userId: string): Promise<UserRecord | null> {
  return userRecordFrom(await db.batch(userRecordQueries(db, projectId, userId)));
}

/**
 * findUserRecord as three single-table selects, for a D1 batch (drizzle mis-maps joined
 * selects inside db.batch because their column names collide). Assemble with userRecordFrom.
 */
/** A user id, or a SQL subquery answering one (a refresh reads the user of its session in the same batch). */
export type UserIdRef = string | SQL | Placeholder;
const userIdIs = (column: typeof users.id | typeof contactChannels.userId | typeof oauthAccounts.userId, ref: UserIdRef) =>
  typeof ref === "string" || ref instanceof Placeholder ? eq(column, ref) : sql`${column} = (${ref})`;

export function userRecordQueries(db: Db, projectId: string | Placeholder, userId: UserIdRef) {
  return [
    db
      .select()
      .from(users)
      .where(and(eq(users.projectId, projectId), userIdIs(users.id, userId)))
      .limit(1),
    db
      .select()
      .from(contactChannels)
      .where(and(userIdIs(contactChannels.userId, userId), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")))
      .limit(1),
    db
      .select()
      .from(teams)
      .where(inArray(teams.id, db.select({ id: users.selectedTeamId }).from(users).where(userIdIs(users.id, userId))))
      .limit(1),
    userOAuthRefsQuery(db, userId),
  ] as const;
}

const userColumns = aliasedColumns(users, "u_");
const primaryEmailColumns = aliasedColumns(contactChannels, "c_");
const selectedTeamColumns = aliasedColumns(teams, "t_");

/**
 * The user record's user, primary email and selected team as ONE joined row (the same rows userRecordQueries' first
 * three selects read), for rawPreparedOnce (db/prepared.ts): the hot read path (db/queries/auth-lookup.ts) asks D1
 * one statement instead of three and decodes it without drizzle's mapping. `extra`: more columns of the same row, which
 * the caller reads from `row`. Pair it with userOAuthRefsQuery and assemble with userRecordFromRow.
 */
export function userRecordRowQuery(db: Db, projectId: string | Placeholder, userId: UserIdRef, extra: Record<string, SQL.Aliased> = {}) {
  const query = db
    .select({ ...userColumns.fields, ...primaryEmailColumns.fields, ...selectedTeamColumns.fields, ...extra })
    .from(users)
    .leftJoin(
      contactChannels,
      and(eq(contactChannels.userId, users.id), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")),
    )
    .leftJoin(teams, eq(teams.id, users.selectedTeamId))
    .where(and(eq(users.projectId, projectId), userIdIs(users.id, userId)))
    .limit(1);
  const decode = (row: Record<string, unknown>) => ({
    user: userColumns.decode(row),
    primaryEmail: primaryEmailColumns.decode(row),
    selectedTeam: selectedTeamColumns.decode(row),
    row,
  });
  return { query, decode };
}

/** The OAuth account refs of one user (userRecordQueries' fourth select). */
export function userOAuthRefsQuery(db: Db, userId: UserIdRef) {
  return oauthProviderRefsQuery(db, userIdIs(oauthAccounts.userId, userId));
}

/** A user record from userRecordRowQuery's decoded row (or none) and userOAuthRefsQuery's rows. */
export function userRecordFromRow(
  decoded: { user: UserRow | null; primaryEmail: ContactChannelRow | null; selectedTeam: TeamRow | null } | undefined,
  oauthRows: readonly unknown[],
): UserRecord | null {
  if (!decoded?.user) return null;
  return {
    user: decoded.user,
    primaryEmail: decoded.primaryEmail,
    selectedTeam: decoded.selectedTeam,
    oauthProviders: refsOf(oauthRows as Parameters<typeof refsOf>[0], decoded.user.id),
  };
}

export function userRecordFrom(results: readonly unknown[][]): UserRecord | null {
  const user = results[0]?.[0] as UserRow | undefined;
  if (!user) return null;
  return {
    user,
    primaryEmail: (results[1]?.[0] as ContactChannelRow | undefined) ?? null,
    selectedTeam: (results[2]?.[0] as TeamRow | undefined) ?? null,
    oauthProviders: refsOf((results[3] ?? []) as Parameters<typeof refsOf>[0], user.id),
  };
}

/** The id of the user who signs in with this email (an auth-enabled contact channel), or null. */
async function findAuthEmailOwner(db: Db, projectId: string, email: string): Promise<string | null> {
  return (await findAuthEmailChannel(db, projectId, email))?.userId ?? null;
}

/** The auth-enabled contact channel with this email (its user and whether it is verified), or null. */
export async function findAuthEmailChannel(
  db: Db,
  projectId: string,
  email: string,
): Promise<{ userId: string; isVerified: boolean } | null> {
  const row = await db
    .select({ userId: contactChannels.userId, isVerified: contactChannels.isVerified })
    .from(contactChannels)
    .where(
      and(
        eq(contactChannels.projectId, projectId),
        eq(contactChannels.type, "email"),
        eq(contactChannels.value, email),
        eq(contactChannels.usedForAuth, true),
      ),
    )
    .get();
  return row ?? null;
}

/** The user who signs in with this email. */
export async function findUserRecordByAuthEmail(db: Db, projectId: string, email: string): Promise<UserRecord | null> {
  const userId = await findAuthEmailOwner(db, projectId, email);
  return userId ? findUserRecord(db, projectId, userId) : null;
}

/** Does another user already sign in with this email? */
export async function isAuthEmailTaken(db: Db, projectId: string, email: string, exceptUserId?: string): Promise<boolean> {
  const owner = await findAuthEmailOwner(db, projectId, email);
  return owner !== null && owner !== exceptUserId;
}

/** A D1 unique-constraint failure (the database deciding a race, e.g. two sign-ups with one email). */
export function isUniqueViolation(err: unknown): boolean {
  return /UNIQUE constraint failed/i.test(`${String(err)} ${String((err as { cause?: unknown })?.cause ?? "")}`);
}

export function insertUserStatement(db: Db, row: typeof users.$inferInsert) {
  return db.insert(users).values(row);
}

export function insertContactChannelStatement(db: Db, row: typeof contactChannels.$inferInsert) {
  return db.insert(contactChannels).values(row);
}

export function updateUserStatement(db: Db, projectId: string, userId: string, patch: Partial<typeof users.$inferInsert>) {
  return db
    .update(users)
    .set(patch)
    .where(and(eq(users.projectId, projectId), eq(users.id, userId)));
}

/** Deletes a user (everything of theirs follows by cascade), unexecuted; returns the deleted id. */
export function deleteUserStatement(db: Db, projectId: string, userId: string) {
  return db
    .delete(users)
    .where(and(eq(users.projectId, projectId), eq(users.id, userId)))
    .returning({ id: users.id });
}

/** Drops the primary email of a user (statements to run in one batch with its replacement). */
export function deletePrimaryEmailStatement(db: Db, userId: string) {
  return db
    .delete(contactChannels)
    .where(and(eq(contactChannels.userId, userId), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")));
}

export function updatePrimaryEmailStatement(db: Db, userId: string, patch: Partial<typeof contactChannels.$inferInsert>) {
  return db
    .update(contactChannels)
    .set(patch)
    .where(and(eq(contactChannels.userId, userId), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")));
}

/** Marks activity, at most once a minute per user, so reads do not become writes. */
export async function touchUserActivity(db: Db, userId: string, now: number): Promise<void> {
  await db
    .update(users)
    .set({ lastActiveAt: now })
    .where(and(eq(users.id, userId), lt(users.lastActiveAt, now - 60_000)));
}

/** The orders of the users list: sign-up date (as the reference), display name or primary email (Doorman). */
export type UserListOrder = "signed_up_at" | "display_name" | "primary_email";

export type ListUsersOptions = {
  projectId: string;
  limit: number;
  cursor?: string;
  /** signed_up_at unless set. */
  orderBy?: UserListOrder;
  desc: boolean;
  query?: string;
  teamId?: string;
  includeAnonymous: boolean;
  onlyAnonymous: boolean;
  /** Restricted users (by an admin, or unverified where the project requires verification) are left out unless this is set. */
  includeRestricted: boolean;
  /** The project's require_email_verification: an unverified primary email then restricts. */
  requireEmailVerification: boolean;
};

/**
 * The value a list order sorts by (over baseSelect's join), and whether it can be null. Names sort
 * without regard to case; emails are stored lower-case.
 */
function sortKey(order: UserListOrder): { value: SQL; nullable: boolean } {
  if (order === "display_name") return { value: sql`${users.displayName} COLLATE NOCASE`, nullable: true };
  if (order === "primary_email") return { value: sql`${contactChannels.value}`, nullable: true };
  return { value: sql`${users.signedUpAt}`, nullable: false };
}

/**
 * Keyset paging on (sort value, id), nulls last in both directions: the rows at or after the
 * anchor (the cursor's user, whose sort value is `anchor`).
 */
function afterAnchor(key: { value: SQL; nullable: boolean }, anchor: unknown, anchorId: string, descending: boolean): SQL {
  const cmp = descending ? lt : gt;
  const cmpEq = descending ? lte : gte;
  const idAtOrAfter = cmpEq(users.id, anchorId);
  if (anchor === null) return and(sql`${key.value} IS NULL`, idAtOrAfter)!;
  const atOrAfter = or(cmp(key.value, anchor), and(eq(key.value, anchor), idAtOrAfter))!;
  return key.nullable ? or(and(sql`${key.value} IS NOT NULL`, atOrAfter), sql`${key.value} IS NULL`)! : atOrAfter;
}

/**
 * One page ordered by (sort value, id), nulls last; the cursor is the id of the first item
 * (inclusive), so pages stay stable while users are added elsewhere in the order.
 * As the reference: anonymous users only on request (include_anonymous also brings restricted
 * ones), restricted users only with includeRestricted; `query` matches the id exactly, or the
 * display name or any email of the user in part.
 */
export async function listUserRecords(
  db: Db,
  o: ListUsersOptions,
): Promise<{ items: UserRecord[]; nextCursor: string | null } | { cursorNotFound: true }> {
  const key = sortKey(o.orderBy ?? "signed_up_at");
  const where: SQL[] = [eq(users.projectId, o.projectId)];
  if (o.onlyAnonymous) where.push(eq(users.isAnonymous, true));
  else if (!o.includeAnonymous) where.push(eq(users.isAnonymous, false));
  if (!o.includeRestricted && !o.includeAnonymous && !o.onlyAnonymous) {
    where.push(eq(users.restrictedByAdmin, false));
    // The joined primary email (baseSelect) must be verified; a user without one is restricted too.
    if (o.requireEmailVerification) where.push(eq(contactChannels.isVerified, true));
  }
  if (o.teamId) {
    where.push(inArray(users.id, db.select({ id: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, o.teamId))));
  }
  if (o.query) {
    const pattern = `%${o.query.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    where.push(
      or(
        eq(users.id, o.query),
        sql`${users.displayName} LIKE ${pattern} ESCAPE '\\'`,
        inArray(
          users.id,
          db
            .select({ id: contactChannels.userId })
            .from(contactChannels)
            .where(
              and(eq(contactChannels.projectId, o.projectId), sql`${contactChannels.value} LIKE ${pattern.toLowerCase()} ESCAPE '\\'`),
            ),
        ),
      )!,
    );
  }
  if (o.cursor) {
    const anchor = await baseSelect(db)
      .where(and(eq(users.projectId, o.projectId), eq(users.id, o.cursor)))
      .get();
    if (!anchor) return { cursorNotFound: true };
    where.push(afterAnchor(key, anchorValue(o.orderBy ?? "signed_up_at", anchor), o.cursor, o.desc));
  }
  const direction = o.desc ? desc : asc;
  const order = [...(key.nullable ? [sql`${key.value} IS NULL`] : []), direction(key.value), direction(users.id)];
  const rows = await baseSelect(db)
    .where(and(...where))
    .orderBy(...order)
    .limit(o.limit + 1)
    .all();
  const nextCursor = rows.length > o.limit ? rows[o.limit]!.user.id : null;
  const page = rows.slice(0, o.limit);
  // D1 binds at most 100 parameters per statement: look the page's accounts up in chunks.
  const ids = page.map((r) => r.user.id);
  const chunks = Array.from({ length: Math.ceil(ids.length / 90) }, (_, i) => ids.slice(i * 90, i * 90 + 90));
  const refs = (await Promise.all(chunks.map((chunk) => oauthProviderRefsQuery(db, inArray(oauthAccounts.userId, chunk)).all()))).flat();
  return { items: page.map((r) => ({ ...r, oauthProviders: refsOf(refs, r.user.id) })), nextCursor };
}

/** The anchor user's sort value, as sortKey reads it. */
function anchorValue(order: UserListOrder, record: { user: UserRow; primaryEmail: ContactChannelRow | null }): unknown {
  if (order === "display_name") return record.user.displayName;
  if (order === "primary_email") return record.primaryEmail?.value ?? null;
  return record.user.signedUpAt;
}
