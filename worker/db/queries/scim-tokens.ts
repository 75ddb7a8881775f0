/** The SCIM bearer token's lookup (issue 31): the connection whose `scim_token_hash` is this SHA-256, through its unique index. */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { ssoConnections } from "../schema";
import type { SsoConnectionRow } from "./sso-connections";

export async function findSsoConnectionByScimTokenHash(db: Db, tokenHash: string): Promise<SsoConnectionRow | null> {
  const row = await db.select().from(ssoConnections).where(eq(ssoConnections.scimTokenHash, tokenHash)).get();
  return row ?? null;
}
