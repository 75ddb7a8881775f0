/**
 * SCIM Groups of a connection (RFC 7644 §3.3–§3.6; issue 31). Members are the connection's Users.
 * A member's team permissions follow the connection's group mapping (membership.ts): joining a mapped
 * group grants its permissions, leaving it (or a rename, or the group's deletion) revokes those no
 * other group of the member maps. Every write is ONE batch led by a compare-and-set on the group's
 * version; a PATCH that loses to a concurrent write re-reads and re-applies its operations, so 20
 * PATCHes adding different members at once all land, one version step each.
 */
import { abortUnlessChangedStatement, isLostCompareAndSet } from "../../db/queries/scim-compare-and-set";
import {
  deleteGroupMembersStatement,
  deleteMembersOfGroupStatement,
  deleteScimGroupIfVersionStatement,
  findScimGroup,
  findScimGroupByName,
  insertGroupMembersStatement,
  insertScimGroupStatement,
  listMembersOfGroups,
  listScimGroupsPage,
  type ScimGroupMember,
  type ScimGroupRow,
  updateScimGroupIfVersionStatement,
} from "../../db/queries/scim-groups";
import { listSsoIdentitiesByIds } from "../../db/queries/sso-identities";
import { isUniqueViolation } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventStatement } from "../events";
import type { BatchItem } from "../permissions";
import type { ScimCaller } from "./auth";
import { attempt, type ScimProblem, scimProblem } from "./errors";
import { groupFilterConditions } from "./list-filter";
import { grantMappedStatements, groupMappingOf, type Member, permissionsOfGroups, revokeUnmappedStatements } from "./membership";
import { type GroupAttributes, isObject, normalizeGroup } from "./normalize";
import { applyPatch, readPatchRequest } from "./patch";
import { checkIfMatch, type IfMatch, readPage, retryLostWrites } from "./requests";
import { GROUP_RESOURCE_SCHEMA } from "./schema-definitions";

export type ScimGroup = { group: ScimGroupRow; members: ScimGroupMember[] };
export type ScimGroupResult = { ok: true } & ScimGroup;
type Batch = [BatchItem, ...BatchItem[]];

/**
 * Most members one write may add or remove. The membership rows are one statement, but each member's
 * mapped permissions are statements of their own (with their events), and the batch is one transaction.
 */
export const MAX_MEMBER_CHANGES = 1000;

const notFound = (id: string) => scimProblem(404, `Group ${id} not found.`);
const nameTaken = (name: string) => scimProblem(409, `A Group with displayName ${name} already exists.`, "uniqueness");

async function reload(deps: Deps, caller: ScimCaller, id: string, withMembers = true): Promise<ScimGroupResult | ScimProblem> {
  const group = await findScimGroup(deps.db, caller.connection.id, id);
  if (!group) return notFound(id);
  return { ok: true, group, members: withMembers ? await listMembersOfGroups(deps.db, [group.id]) : [] };
}

function eventData(caller: ScimCaller, groupId: string, extra: Record<string, unknown> = {}) {
  return { connection_id: caller.connection.id, group_id: groupId, ...extra };
}

export async function getScimGroup(
  deps: Deps,
  caller: ScimCaller,
  id: string,
  withMembers: boolean,
): Promise<ScimGroupResult | ScimProblem> {
  return reload(deps, caller, id, withMembers);
}

export type ScimGroupPage = { ok: true; total: number; startIndex: number; groups: ScimGroup[] };

export async function listScimGroups(
  deps: Deps,
  caller: ScimCaller,
  query: { filter?: string; startIndex?: string; count?: string },
  withMembers: boolean,
): Promise<ScimGroupPage | ScimProblem> {
  const read = attempt(() => ({ conditions: groupFilterConditions(query.filter), page: readPage(query) }));
  if (!read.ok) return read;
  const { conditions, page } = read.value;
  const { rows, total } = await listScimGroupsPage(deps.db, caller.connection.id, conditions, page.offset, page.limit);
  const members = withMembers
    ? await listMembersOfGroups(
        deps.db,
        rows.map((r) => r.id),
      )
    : [];
  return {
    ok: true,
    total,
    startIndex: page.startIndex,
    groups: rows.map((group) => ({ group, members: members.filter((m) => m.groupId === group.id) })),
  };
}

/** The connection's Users among `ids`, by id. */
async function membersOf(deps: Deps, caller: ScimCaller, ids: readonly string[]): Promise<Map<string, Member>> {
  const rows = await listSsoIdentitiesByIds(deps.db, caller.connection.id, ids);
  return new Map(rows.map((r) => [r.id, { identityId: r.id, userId: r.userId }]));
}

const unknownMember = (id: string) => scimProblem(400, `No User of this connection has id ${id}.`, "invalidValue");

function tooManyChanges(count: number): ScimProblem | null {
  if (count <= MAX_MEMBER_CHANGES) return null;
  return scimProblem(
    400,
    `One request may add or remove at most ${MAX_MEMBER_CHANGES} members; send them in smaller requests.`,
    "invalidValue",
  );
}

// ---- create -------------------------------------------------------------------------------------

export async function createScimGroup(deps: Deps, caller: ScimCaller, body: unknown): Promise<ScimGroupResult | ScimProblem> {
  const parsed = attempt(() => normalizeGroup(body));
  if (!parsed.ok) return parsed;
  const attrs = parsed.value;
  const { project, connection } = caller;
  const limit = tooManyChanges(attrs.memberIds.length);
  if (limit) return limit;
  if (await findScimGroupByName(deps.db, connection.id, attrs.displayName)) return nameTaken(attrs.displayName);
  const members = await membersOf(deps, caller, attrs.memberIds);
  const missing = attrs.memberIds.find((m) => !members.has(m));
  if (missing !== undefined) return unknownMember(missing);
  const id = deps.random.uuid();
  const now = deps.now();
  const granted = permissionsOfGroups(groupMappingOf(caller), [attrs.displayName]);
  const statements: BatchItem[] = [
    insertScimGroupStatement(deps.db, {
      id,
      projectId: project.id,
      connectionId: connection.id,
      displayName: attrs.displayName,
      externalId: attrs.externalId,
      version: 1,
      createdAt: now,
      updatedAt: now,
    }),
    ...(attrs.memberIds.length ? [insertGroupMembersStatement(deps.db, connection.id, id, attrs.memberIds)] : []),
    ...[...members.values()].flatMap((member) => grantMappedStatements(deps, caller, member, granted)),
    eventStatement(
      deps,
      project.id,
      "scim.group_created",
      { teamId: connection.teamId },
      eventData(caller, id, { display_name: attrs.displayName }),
    ),
  ];
  try {
    await deps.db.batch(statements as Batch);
  } catch (err) {
    // The unique index on (connection, displayName) decides two creates of one name.
    if (isUniqueViolation(err)) return nameTaken(attrs.displayName);
    throw err;
  }
  return reload(deps, caller, id);
}

// ---- replace and patch --------------------------------------------------------------------------

/** One attempt at writing `next` over `current` (whose members are `currentIds`): "lost" when another write got there first. */
async function writeGroup(
  deps: Deps,
  caller: ScimCaller,
  current: ScimGroupRow,
  currentIds: readonly string[],
  next: GroupAttributes,
): Promise<ScimGroupResult | ScimProblem | "lost"> {
  const { project, connection } = caller;
  const before = new Set(currentIds);
  const after = new Set(next.memberIds);
  const added = next.memberIds.filter((id) => !before.has(id));
  const removed = currentIds.filter((id) => !after.has(id));
  const renamed = next.displayName !== current.displayName;
  if (!added.length && !removed.length && !renamed && next.externalId === current.externalId) return reload(deps, caller, current.id);
  const limit = tooManyChanges(added.length + removed.length);
  if (limit) return limit;
  if (renamed) {
    const holder = await findScimGroupByName(deps.db, connection.id, next.displayName);
    if (holder && holder.id !== current.id) return nameTaken(next.displayName);
  }
  const staying = renamed ? next.memberIds.filter((id) => before.has(id)) : [];
  const members = await membersOf(deps, caller, [...added, ...removed, ...staying]);
  const missing = added.find((m) => !members.has(m));
  if (missing !== undefined) return unknownMember(missing);
  // A current member whose User was deleted since the read: that delete moved the version, so this write lost.
  if ([...removed, ...staying].some((m) => !members.has(m))) return "lost";
  const mapping = groupMappingOf(caller);
  const oldPermissions = permissionsOfGroups(mapping, [current.displayName]);
  const newPermissions = permissionsOfGroups(mapping, [next.displayName]);
  const member = (id: string) => members.get(id) as Member;
  const statements: BatchItem[] = [
    updateScimGroupIfVersionStatement(deps.db, current.id, current.version, {
      displayName: next.displayName,
      externalId: next.externalId,
      updatedAt: deps.now(),
    }),
    abortUnlessChangedStatement(deps.db),
    ...(removed.length ? [deleteGroupMembersStatement(deps.db, current.id, removed)] : []),
    ...(added.length ? [insertGroupMembersStatement(deps.db, connection.id, current.id, added)] : []),
    ...added.flatMap((id) => grantMappedStatements(deps, caller, member(id), newPermissions)),
    ...removed.flatMap((id) => revokeUnmappedStatements(deps, caller, member(id), oldPermissions)),
    ...staying.flatMap((id) => [
      ...grantMappedStatements(
        deps,
        caller,
        member(id),
        [...newPermissions].filter((p) => !oldPermissions.has(p)),
      ),
      ...revokeUnmappedStatements(
        deps,
        caller,
        member(id),
        [...oldPermissions].filter((p) => !newPermissions.has(p)),
      ),
    ]),
    eventStatement(
      deps,
      project.id,
      "scim.group_updated",
      { teamId: connection.teamId },
      eventData(caller, current.id, { added: added.length, removed: removed.length, renamed }),
    ),
  ];
  try {
    await deps.db.batch(statements as Batch);
  } catch (err) {
    if (isLostCompareAndSet(err)) return "lost";
    if (isUniqueViolation(err)) return nameTaken(next.displayName);
    throw err;
  }
  return reload(deps, caller, current.id);
}

async function currentState(deps: Deps, caller: ScimCaller, id: string) {
  const group = await findScimGroup(deps.db, caller.connection.id, id);
  if (!group) return null;
  const members = await listMembersOfGroups(deps.db, [group.id]);
  return { group, memberIds: members.map((m) => m.identityId) };
}

/** PUT: the body replaces the Group, its members included (a body without members empties it, RFC 7644 §3.5.1). */
export async function replaceScimGroup(
  deps: Deps,
  caller: ScimCaller,
  id: string,
  body: unknown,
  ifMatch: IfMatch,
): Promise<ScimGroupResult | ScimProblem> {
  const parsed = attempt(() => normalizeGroup(body));
  if (!parsed.ok) return parsed;
  if (isObject(body) && typeof body.id === "string" && body.id !== id) return scimProblem(400, "id cannot be changed.", "mutability");
  return retryLostWrites(async () => {
    const state = await currentState(deps, caller, id);
    if (!state) return notFound(id);
    return checkIfMatch(ifMatch, state.group.version) ?? writeGroup(deps, caller, state.group, state.memberIds, parsed.value);
  });
}

const GROUP_PATCH_SCHEMAS = { core: GROUP_RESOURCE_SCHEMA, extensions: [] };

/** PATCH: members added or removed (by value list or `members[value eq "…"]`), displayName replaced; re-applied after a lost race. */
export async function patchScimGroup(
  deps: Deps,
  caller: ScimCaller,
  id: string,
  body: unknown,
  ifMatch: IfMatch,
): Promise<ScimGroupResult | ScimProblem> {
  const ops = attempt(() => readPatchRequest(body));
  if (!ops.ok) return ops;
  return retryLostWrites(async () => {
    const state = await currentState(deps, caller, id);
    if (!state) return notFound(id);
    const precondition = checkIfMatch(ifMatch, state.group.version);
    if (precondition) return precondition;
    const doc = {
      displayName: state.group.displayName,
      ...(state.group.externalId !== null ? { externalId: state.group.externalId } : {}),
      members: state.memberIds.map((value) => ({ value })),
    };
    const next = attempt(() => normalizeGroup(applyPatch(doc, ops.value, GROUP_PATCH_SCHEMAS, state.group.id)));
    if (!next.ok) return next;
    return writeGroup(deps, caller, state.group, state.memberIds, next.value);
  });
}

// ---- delete -------------------------------------------------------------------------------------

/** DELETE: the group and its memberships go, and the permissions only it mapped for its members. */
export async function deleteScimGroup(deps: Deps, caller: ScimCaller, id: string, ifMatch: IfMatch): Promise<{ ok: true } | ScimProblem> {
  const { project, connection } = caller;
  return retryLostWrites(async () => {
    const state = await currentState(deps, caller, id);
    if (!state) return notFound(id);
    const precondition = checkIfMatch(ifMatch, state.group.version);
    if (precondition) return precondition;
    const members = await listSsoIdentitiesByIds(deps.db, connection.id, state.memberIds);
    const permissions = permissionsOfGroups(groupMappingOf(caller), [state.group.displayName]);
    const statements: BatchItem[] = [
      deleteMembersOfGroupStatement(deps.db, state.group.id),
      deleteScimGroupIfVersionStatement(deps.db, state.group.id, state.group.version),
      abortUnlessChangedStatement(deps.db),
      ...members.flatMap((m) => revokeUnmappedStatements(deps, caller, { identityId: m.id, userId: m.userId }, permissions)),
      eventStatement(deps, project.id, "scim.group_deleted", { teamId: connection.teamId }, eventData(caller, state.group.id)),
    ];
    try {
      await deps.db.batch(statements as Batch);
    } catch (err) {
      if (isLostCompareAndSet(err)) return "lost";
      throw err;
    }
    return { ok: true as const };
  });
}
