/**
 * The reads of a password sign-in, in one D1 batch prepared once per isolate (issue 32): the verified
 * SSO claim on the typed address's domain (issue 31's enforcement), the user who signs in with that
 * address (the user record, its id found by the auth email channel inside the batch) and that user's
 * recent devices (the risk signals). Independent reads: one round trip where they took five.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { batchPrepared, preparedOnce } from "../prepared";
import { contactChannels } from "../schema";
import { type KnownDeviceRow, recentDevicesQuery } from "./known-devices";
import { emailDomain, type SsoDomainRow, verifiedDomainQuery } from "./sso-domains";
import { type UserRecord, userRecordFrom, userRecordQueries } from "./users";

export type PasswordSignInRows = {
  /** The verified claim on the address's domain (enforcing SSO or not), or null. */
  ssoDomain: SsoDomainRow | null;
  /** The user who signs in with the address, or null. */
  record: UserRecord | null;
  /** That user's devices, the most recently seen first (none without a user). */
  devices: KnownDeviceRow[];
};

const p = { projectId: sql.placeholder("projectId"), email: sql.placeholder("email"), domain: sql.placeholder("domain") };

const queries = preparedOnce((db) => {
  // The auth-enabled email channel's user (findAuthEmailChannel's row; at most one: a partial unique index).
  const owner = sql`SELECT ${contactChannels.userId} FROM ${contactChannels} WHERE ${and(
    eq(contactChannels.projectId, p.projectId),
    eq(contactChannels.type, "email"),
    eq(contactChannels.value, p.email),
    eq(contactChannels.usedForAuth, true),
  )}`;
  return [
    verifiedDomainQuery(db, p.projectId, p.domain),
    recentDevicesQuery(db, p.projectId, owner),
    ...userRecordQueries(db, p.projectId, owner),
  ];
});

/** `email`: normalised (trimmed, lower-cased), as the auth channels store it. */
export async function readPasswordSignIn(db: Db, projectId: string, email: string): Promise<PasswordSignInRows> {
  // No domain (not an address): null matches no claim.
  const values = { projectId, email, domain: emailDomain(email) };
  const [domainRows, deviceRows, ...userRows] = (await batchPrepared(
    db,
    queries(db).map((query) => ({ query, values })),
  )) as unknown[][];
  const record = userRecordFrom(userRows);
  return {
    ssoDomain: (domainRows?.[0] as SsoDomainRow | undefined) ?? null,
    record,
    devices: record ? ((deviceRows ?? []) as KnownDeviceRow[]) : [],
  };
}
