/**
 * Permission definitions (admin): list, create, update (including a rename), delete, for the
 * team and project scopes. Contained ids must exist in the same scope (system permissions count
 * for teams) and containment may never form a cycle.
 */
import {
  deleteDefinitionEverywhere,
  findDefinition,
  insertDefinition,
  listDefinitions,
  type PermissionDefinitionRow,
  type PermissionScope,
  rewriteDefinition,
} from "../db/queries/permissions";
import { isUniqueViolation } from "../db/queries/users";
import type { Deps } from "./deps";
import {
  containmentMap,
  isSystemTeamPermission,
  type ScopeProblem,
  SYSTEM_PERMISSION_DESCRIPTIONS,
  SYSTEM_TEAM_PERMISSIONS,
} from "./permissions";
import { pinDefaultPermissions } from "./projects";
import { fail, type Problem } from "./result";

export type PermissionDefinitionView = { id: string; description?: string; contained_permission_ids: string[] };

export type DefinitionProblem = ScopeProblem | Problem<"permission_id_exists" | "contained_permission_not_found" | "permission_cycle">;

export function definitionView(
  row: Pick<PermissionDefinitionRow, "id" | "description" | "containedPermissionIds">,
): PermissionDefinitionView {
  const view: PermissionDefinitionView = { id: row.id, contained_permission_ids: [...row.containedPermissionIds].sort() };
  if (row.description) view.description = row.description;
  return view;
}

/** Stored definitions of the scope; for teams also the built-in system permissions (read-only). Sorted by id. */
export async function listPermissionDefinitions(
  deps: Deps,
  projectId: string,
  scope: PermissionScope,
): Promise<PermissionDefinitionView[]> {
  const stored = (await listDefinitions(deps.db, projectId, scope)).map(definitionView);
  const system =
    scope === "team"
      ? SYSTEM_TEAM_PERMISSIONS.map((id) => ({ id, description: SYSTEM_PERMISSION_DESCRIPTIONS[id], contained_permission_ids: [] }))
      : [];
  return [...system, ...stored].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Checks contained ids against the scope's definitions. `selfIds` are the id(s) of the definition
 * being written: containing itself, or anything that reaches it, would be a cycle.
 */
async function checkContained(
  deps: Deps,
  projectId: string,
  scope: PermissionScope,
  contained: string[],
  selfIds: string[],
): Promise<{ ok: true } | DefinitionProblem> {
  const containment = await containmentMap(deps, projectId, scope);
  for (const id of contained) {
    if (selfIds.includes(id)) return fail("permission_cycle", { permissionId: selfIds[0]!, containedId: id });
    if (!containment.has(id)) return fail("contained_permission_not_found", { permissionId: id });
  }
  // Walk down from each contained id: reaching the definition itself means a cycle.
  for (const start of contained) {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (selfIds.includes(id)) return fail("permission_cycle", { permissionId: selfIds[0]!, containedId: start });
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(containment.get(id) ?? []));
    }
  }
  return { ok: true };
}

export async function createPermissionDefinition(
  deps: Deps,
  projectId: string,
  scope: PermissionScope,
  input: { id: string; description?: string | null; containedPermissionIds?: string[] },
): Promise<{ ok: true; definition: PermissionDefinitionView } | DefinitionProblem> {
  if (isSystemTeamPermission(input.id) || (await findDefinition(deps.db, projectId, input.id)))
    return fail("permission_id_exists", { permissionId: input.id });
  const contained = [...new Set(input.containedPermissionIds ?? [])];
  const check = await checkContained(deps, projectId, scope, contained, [input.id]);
  if (!check.ok) return check;
  const row = {
    projectId,
    id: input.id,
    scope,
    description: input.description ?? null,
    containedPermissionIds: contained,
    createdAt: deps.now(),
  };
  // Ids are unique per project across both scopes (the primary key); a racing create loses here.
  if (!(await insertDefinition(deps.db, row))) return fail("permission_id_exists", { permissionId: input.id });
  return { ok: true, definition: definitionView(row) };
}

/** Finds a definition of `scope`, telling "absent" from "exists in the other scope". */
async function findInScope(deps: Deps, projectId: string, id: string, scope: PermissionScope) {
  const row = await findDefinition(deps.db, projectId, id);
  if (!row) return fail("permission_not_found", { permissionId: id });
  if (row.scope !== scope)
    return fail("wrong_permission_scope", { permissionId: id, expected: scope, actual: row.scope as PermissionScope });
  return { ok: true as const, row };
}

export async function updatePermissionDefinition(
  deps: Deps,
  projectId: string,
  scope: PermissionScope,
  id: string,
  patch: { id?: string; description?: string | null; containedPermissionIds?: string[] },
): Promise<{ ok: true; definition: PermissionDefinitionView } | DefinitionProblem> {
  const found = await findInScope(deps, projectId, id, scope);
  if (!found.ok) return found;
  const newId = patch.id ?? id;
  if (newId !== id && (isSystemTeamPermission(newId) || (await findDefinition(deps.db, projectId, newId))))
    return fail("permission_id_exists", { permissionId: newId });
  const contained = patch.containedPermissionIds === undefined ? undefined : [...new Set(patch.containedPermissionIds)];
  if (contained) {
    const check = await checkContained(deps, projectId, scope, contained, [id, newId]);
    if (!check.ok) return check;
  }
  try {
    const row = await rewriteDefinition(deps.db, projectId, id, scope, {
      id: newId,
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(contained ? { containedPermissionIds: contained } : {}),
    });
    if (!row) return fail("permission_not_found", { permissionId: id });
    if (newId !== id) await pinDefaultPermissions(deps, projectId, scope);
    return { ok: true, definition: definitionView(row) };
  } catch (err) {
    if (isUniqueViolation(err)) return fail("permission_id_exists", { permissionId: newId });
    throw err;
  }
}

/** Deletes a definition, every grant of it, and its id from other definitions' containment. */
export async function deletePermissionDefinition(
  deps: Deps,
  projectId: string,
  scope: PermissionScope,
  id: string,
): Promise<{ ok: true } | ScopeProblem> {
  const found = await findInScope(deps, projectId, id, scope);
  if (!found.ok) return found;
  if (!(await deleteDefinitionEverywhere(deps.db, projectId, id, scope))) return fail("permission_not_found", { permissionId: id });
  await pinDefaultPermissions(deps, projectId, scope);
  return { ok: true };
}
