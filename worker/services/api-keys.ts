/**
 * User and team API keys: create (the full key is returned once), list, read, update/revoke,
 * and check a presented key. Keys are stored as SHA-256 only. Who may act:
 * - server/admin callers act on any user or team of the project;
 * - a client acts on its own user's keys, and on a team's keys when it holds `$manage_api_keys`
 *   in that team (which implies membership).
 * Validity (SPEC §4): expired first, then manually revoked, then valid; revoking is one-way.
 */
import { type ApiKeyType, formatApiKey, parseApiKey } from "../crypto/api-key-format";
import { sha256Hex } from "../crypto/hash";
import {
  type ApiKeyOwner,
  type ApiKeyRow,
  findApiKey,
  findApiKeyByHash,
  insertApiKey,
  listApiKeysOf,
  revokeApiKey,
  updateApiKey,
} from "../db/queries/api-keys";
import type { ProjectRow } from "../db/queries/projects";
import { findTeam, isTeamMember } from "../db/queries/teams";
import { findUserRecord } from "../db/queries/users";
import type { Deps } from "./deps";
import { eventFor } from "./events";
import { hasTeamPermission } from "./permissions";
import { readProjectConfig } from "./project-config/flat";
import { fail, type Problem } from "./result";

export type { ApiKeyOwner, ApiKeyRow };

/** Who is asking: a client acting as its signed-in user, or a trusted back end (server/admin key). */
export type ApiKeyActor = { kind: "client"; userId: string } | { kind: "trusted" };

export const MANAGE_API_KEYS = "$manage_api_keys";

export type ApiKeyProblem = Problem<
  | "api_keys_disabled"
  | "api_key_not_found"
  | "api_key_expired"
  | "api_key_revoked"
  | "wrong_api_key_type"
  | "public_api_key_cannot_be_revoked"
  | "user_not_found"
  | "api_key_team_not_found"
>;

const NOT_FOUND = fail("api_key_not_found");

/** Why a key is not valid at `now`: expiry is checked before revocation (SPEC §4). */
export function whyInvalid(row: ApiKeyRow, now: number): "expired" | "manually-revoked" | null {
  if (row.expiresAt !== null && row.expiresAt <= now) return "expired";
  if (row.revokedAt !== null) return "manually-revoked";
  return null;
}

function featureGate(project: ProjectRow, type: ApiKeyType): ApiKeyProblem | null {
  const config = readProjectConfig(project.config);
  const enabled = type === "user" ? config.allow_user_api_keys : config.allow_team_api_keys;
  return enabled ? null : fail("api_keys_disabled", { type });
}

/** May the actor manage this owner's keys? If not, the answer is API_KEY_NOT_FOUND. */
async function authorise(deps: Deps, projectId: string, actor: ApiKeyActor, owner: ApiKeyOwner): Promise<ApiKeyProblem | null> {
  if (actor.kind === "trusted") return null;
  if (owner.type === "user") return owner.userId === actor.userId ? null : NOT_FOUND;
  const allowed =
    (await isTeamMember(deps.db, owner.teamId, actor.userId)) &&
    (await hasTeamPermission(deps, projectId, owner.teamId, actor.userId, MANAGE_API_KEYS));
  // A team the caller cannot manage answers "not found" (as the wire does): its existence does not leak.
  return allowed ? null : NOT_FOUND;
}

function ownerOf(row: ApiKeyRow): ApiKeyOwner | null {
  if (row.type === "user" && row.userId) return { type: "user", userId: row.userId };
  if (row.type === "team" && row.teamId) return { type: "team", teamId: row.teamId };
  return null;
}

function sameOwner(a: ApiKeyOwner, b: ApiKeyOwner): boolean {
  return a.type === "user" ? b.type === "user" && a.userId === b.userId : b.type === "team" && a.teamId === b.teamId;
}

export async function listApiKeys(
  deps: Deps,
  project: ProjectRow,
  actor: ApiKeyActor,
  owner: ApiKeyOwner,
): Promise<{ ok: true; rows: ApiKeyRow[] } | ApiKeyProblem> {
  const problem = featureGate(project, owner.type) ?? (await authorise(deps, project.id, actor, owner));
  if (problem) return problem;
  return { ok: true, rows: await listApiKeysOf(deps.db, project.id, owner) };
}

export type CreateApiKeyInput = { description: string; expiresAt: number | null; isPublic: boolean };

export async function createApiKey(
  deps: Deps,
  project: ProjectRow,
  actor: ApiKeyActor,
  owner: ApiKeyOwner,
  input: CreateApiKeyInput,
): Promise<{ ok: true; row: ApiKeyRow; value: string } | ApiKeyProblem> {
  const problem = featureGate(project, owner.type) ?? (await authorise(deps, project.id, actor, owner));
  if (problem) return problem;
  if (owner.type === "user" && !(await findUserRecord(deps.db, project.id, owner.userId))) return fail("user_not_found");
  if (owner.type === "team" && !(await findTeam(deps.db, project.id, owner.teamId)))
    return fail("api_key_team_not_found", { teamId: owner.teamId });
  const id = deps.random.uuid();
  const value = formatApiKey({ id, type: owner.type, isPublic: input.isPublic, secret: deps.random.code(45) });
  // Shown once, stored as SHA-256: a database leak yields no working keys. The key has 224 random
  // bits, so a plain (unsalted, fast) hash is safe, and lookups by hash need no per-row salt.
  const row = await insertApiKey(
    deps.db,
    {
      id,
      projectId: project.id,
      type: owner.type,
      userId: owner.type === "user" ? owner.userId : null,
      teamId: owner.type === "team" ? owner.teamId : null,
      description: input.description,
      isPublic: input.isPublic,
      keyHash: await sha256Hex(value),
      lastFour: value.slice(-4),
      createdAt: deps.now(),
      expiresAt: input.expiresAt,
    },
    apiKeyEvent(deps, project.id, "api_key.created", id, owner),
  );
  return { ok: true, row, value };
}

/** A key by id, if it is of `type`, belongs to `expectedOwner` (when named) and the actor may see it. */
export async function getApiKey(
  deps: Deps,
  project: ProjectRow,
  actor: ApiKeyActor,
  type: ApiKeyType,
  id: string,
  expectedOwner: ApiKeyOwner | null,
): Promise<{ ok: true; row: ApiKeyRow } | ApiKeyProblem> {
  const gate = featureGate(project, type);
  if (gate) return gate;
  const row = await findApiKey(deps.db, project.id, id);
  const owner = row && row.type === type ? ownerOf(row) : null;
  if (!row || !owner || (expectedOwner && !sameOwner(owner, expectedOwner))) return NOT_FOUND;
  const problem = await authorise(deps, project.id, actor, owner);
  return problem ?? { ok: true, row };
}

export async function updateApiKeyOf(
  deps: Deps,
  project: ProjectRow,
  actor: ApiKeyActor,
  type: ApiKeyType,
  id: string,
  expectedOwner: ApiKeyOwner | null,
  input: { description?: string; revoked?: true },
): Promise<{ ok: true; row: ApiKeyRow } | ApiKeyProblem> {
  const found = await getApiKey(deps, project, actor, type, id, expectedOwner);
  if (!found.ok) return found;
  if (input.revoked) {
    const owner = ownerOf(found.row);
    if (owner) await revokeApiKey(deps.db, project.id, id, deps.now(), apiKeyEvent(deps, project.id, "api_key.revoked", id, owner));
  }
  const row = await updateApiKey(deps.db, project.id, id, { description: input.description });
  return row ? { ok: true, row } : NOT_FOUND;
}

/**
 * Checks a presented key at the `/{type}-api-keys/check` endpoint: not found, then wrong type,
 * then expired, then revoked. A malformed string or a bad checksum is "not found" without a lookup.
 */
export async function checkApiKey(
  deps: Deps,
  project: ProjectRow,
  type: ApiKeyType,
  apiKey: string,
): Promise<{ ok: true; row: ApiKeyRow } | ApiKeyProblem> {
  const gate = featureGate(project, type);
  if (gate) return gate;
  const parsed = parseApiKey(apiKey);
  if (!parsed) return NOT_FOUND;
  // Lookup by the hash of the whole key through the unique index: equal hashes mean equal keys,
  // and the index lookup's timing depends only on the hash, which reveals nothing about the key.
  const row = await findApiKeyByHash(deps.db, project.id, await sha256Hex(apiKey));
  if (!row || row.id !== parsed.id) return NOT_FOUND;
  if (row.type !== type) return fail("wrong_api_key_type", { expected: type, actual: row.type as ApiKeyType });
  const why = whyInvalid(row, deps.now());
  if (why === "expired") return fail("api_key_expired");
  if (why === "manually-revoked") return fail("api_key_revoked");
  return { ok: true, row };
}

/**
 * The secret-scanner path (`POST /integrations/credential-scanning/revoke`): whoever holds a
 * leaked secret key may revoke it, in any project. Public keys are meant to be published, so
 * they cannot be revoked this way; an expired key is reported; an already revoked key is a no-op.
 */
export async function revokeLeakedApiKey(deps: Deps, apiKey: string): Promise<{ ok: true; revoked: ApiKeyRow | null } | ApiKeyProblem> {
  if (!parseApiKey(apiKey)) return NOT_FOUND;
  const row = await findApiKeyByHash(deps.db, null, await sha256Hex(apiKey));
  if (!row) return NOT_FOUND;
  if (row.isPublic) return fail("public_api_key_cannot_be_revoked");
  if (row.expiresAt !== null && row.expiresAt <= deps.now()) return fail("api_key_expired");
  if (row.revokedAt !== null) return { ok: true, revoked: null };
  const owner = ownerOf(row);
  if (!owner) return NOT_FOUND;
  const event = apiKeyEvent(deps, row.projectId, "api_key.revoked", row.id, owner, { by: "credential_scanning" });
  return { ok: true, revoked: await revokeApiKey(deps.db, row.projectId, row.id, deps.now(), event) };
}

function apiKeyEvent(
  deps: Deps,
  projectId: string,
  type: "api_key.created" | "api_key.revoked",
  id: string,
  owner: ApiKeyOwner,
  extra?: Record<string, unknown>,
) {
  const subject = owner.type === "user" ? { userId: owner.userId } : { teamId: owner.teamId };
  return eventFor(deps, projectId, type, subject, { api_key_id: id, kind: owner.type, ...extra });
}
