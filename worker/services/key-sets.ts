/** Project key sets (pck_/ssk_/sak_): created once with full values, stored as SHA-256 only. */
import { sha256Hex } from "../crypto/hash";
import { findKeySet, insertKeySetStatement, type KeySetRow, listKeySets, updateKeySet } from "../db/queries/key-sets";
import type { Deps } from "./deps";
import { forgetLastKnownAuth } from "./outage/last-known-auth";

export type NewKeySet = { row: KeySetRow; full: { publishable?: string; secret?: string; admin?: string } };

export async function createKeySet(
  deps: Deps,
  projectId: string,
  input: { description: string; expiresAt: number; publishable: boolean; secret: boolean; admin: boolean },
): Promise<NewKeySet> {
  const full = {
    publishable: input.publishable ? `pck_${deps.random.code(45)}` : undefined,
    secret: input.secret ? `ssk_${deps.random.code(45)}` : undefined,
    admin: input.admin ? `sak_${deps.random.code(45)}` : undefined,
  };
  const hash = async (value?: string) => (value ? sha256Hex(value) : null);
  const id = deps.random.uuid();
  // Keys are shown once and stored hashed: a database leak does not leak working keys.
  await insertKeySetStatement(deps.db, {
    id,
    projectId,
    description: input.description,
    publishableKeyHash: await hash(full.publishable),
    secretKeyHash: await hash(full.secret),
    adminKeyHash: await hash(full.admin),
    publishableLastFour: full.publishable?.slice(-4) ?? null,
    secretLastFour: full.secret?.slice(-4) ?? null,
    adminLastFour: full.admin?.slice(-4) ?? null,
    createdAt: deps.now(),
    expiresAt: input.expiresAt,
  });
  const row = await findKeySet(deps.db, projectId, id);
  if (!row) throw new Error("key set vanished right after creation");
  return { row, full };
}

export const listProjectKeySets = (deps: Deps, projectId: string) => listKeySets(deps.db, projectId);
export const getProjectKeySet = (deps: Deps, projectId: string, id: string) => findKeySet(deps.db, projectId, id);

/** Revocation is one-way: `revoked: true` stamps the time once; there is no un-revoke. */
export function updateProjectKeySet(deps: Deps, projectId: string, id: string, input: { description?: string; revoked?: boolean }) {
  // A revoked key must not outlive its revocation in the outage copy of the project's keys (services/outage/last-known-auth.ts).
  if (input.revoked) forgetLastKnownAuth(deps, projectId);
  return updateKeySet(deps.db, projectId, id, { description: input.description, revokedAt: input.revoked ? deps.now() : undefined });
}
