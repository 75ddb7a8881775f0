/**
 * Permissions in the SDK: a user's team and project permissions (check, get, list), grants and
 * revocations with the secret key, and the admin's permission definitions. A team scope is any
 * object with an `id` (a Team, or `{ id }`); without one, the project scope is meant.
 */
import type { RequestOptions } from "../interface/http";
import type { PermissionDefinitionJson as DefinitionJson, ListJson } from "./wire-types";

/** A permission the user holds (directly or, when listed recursively, through containment). */
export type TeamPermission = { readonly id: string };
export type ProjectPermission = { readonly id: string };

/** A team to scope a permission to: a Team object, or just its id in an object. */
export type PermissionScope = { readonly id: string };

export type PermissionDefinition = {
  readonly id: string;
  readonly description?: string;
  readonly containedPermissionIds: string[];
};

export type PermissionDefinitionCreateOptions = { id: string; description?: string; containedPermissionIds?: string[] };
export type PermissionDefinitionUpdateOptions = { id?: string; description?: string; containedPermissionIds?: string[] };

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

const enc = encodeURIComponent;

function isScope(value: unknown): value is PermissionScope {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string";
}

/** `(team, permissionId)` or `(permissionId)`: the team (or null for the project scope) and the id. */
function scoped(a: PermissionScope | string, b: string | undefined): { team: PermissionScope | null; permissionId: string } {
  if (typeof a === "string") return { team: null, permissionId: a };
  if (b === undefined) throw new TypeError("A permission id is required after the team.");
  return { team: a, permissionId: b };
}

/**
 * The permissions of one user (`userId` "me" for the signed-in user), as methods for a user object.
 * Listing is recursive by default: permissions held through containment are included.
 */
export function userPermissionMethods(request: Request, userId: string) {
  async function list(team: PermissionScope | null, recursive: boolean): Promise<{ id: string }[]> {
    const q = new URLSearchParams({ user_id: userId, recursive: String(recursive) });
    if (team) q.set("team_id", team.id);
    const json = await request<ListJson<{ id: string }>>(`/${team ? "team" : "project"}-permissions?${q}`);
    return json.items.map(({ id }) => ({ id }));
  }

  function listPermissions(scope: PermissionScope, options?: { recursive?: boolean }): Promise<TeamPermission[]>;
  function listPermissions(options?: { recursive?: boolean }): Promise<ProjectPermission[]>;
  function listPermissions(a?: PermissionScope | { recursive?: boolean }, b?: { recursive?: boolean }) {
    const team = isScope(a) ? a : null;
    const options = isScope(a) ? b : a;
    return list(team, options?.recursive ?? true);
  }

  function getPermission(scope: PermissionScope, permissionId: string): Promise<TeamPermission | null>;
  function getPermission(permissionId: string): Promise<ProjectPermission | null>;
  async function getPermission(a: PermissionScope | string, b?: string) {
    const { team, permissionId } = scoped(a, b);
    return (await list(team, true)).find((p) => p.id === permissionId) ?? null;
  }

  function hasPermission(scope: PermissionScope, permissionId: string): Promise<boolean>;
  function hasPermission(permissionId: string): Promise<boolean>;
  async function hasPermission(a: PermissionScope | string, b?: string) {
    return (await getPermission(a as PermissionScope, b as string)) !== null;
  }

  return { listPermissions, getPermission, hasPermission };
}

/** Grant and revoke for a user managed with the secret key. Both accept `(team, id)` or `(id)`. */
export function serverPermissionMethods(request: Request, userId: string) {
  const path = (team: PermissionScope | null, permissionId: string) =>
    team
      ? `/team-permissions/${enc(team.id)}/${enc(userId)}/${enc(permissionId)}`
      : `/project-permissions/${enc(userId)}/${enc(permissionId)}`;

  function grantPermission(scope: PermissionScope, permissionId: string): Promise<void>;
  function grantPermission(permissionId: string): Promise<void>;
  async function grantPermission(a: PermissionScope | string, b?: string) {
    const { team, permissionId } = scoped(a, b);
    await request(path(team, permissionId), { method: "POST", body: {} });
  }

  function revokePermission(scope: PermissionScope, permissionId: string): Promise<void>;
  function revokePermission(permissionId: string): Promise<void>;
  async function revokePermission(a: PermissionScope | string, b?: string) {
    const { team, permissionId } = scoped(a, b);
    await request(path(team, permissionId), { method: "DELETE" });
  }

  return { grantPermission, revokePermission };
}

function definitionFromJson(json: DefinitionJson): PermissionDefinition {
  return {
    id: json.id,
    ...(json.description !== undefined ? { description: json.description } : {}),
    containedPermissionIds: json.contained_permission_ids,
  };
}

function definitionToWire(options: PermissionDefinitionUpdateOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.id !== undefined) body.id = options.id;
  if (options.description !== undefined) body.description = options.description;
  if (options.containedPermissionIds !== undefined) body.contained_permission_ids = options.containedPermissionIds;
  return body;
}

/** Admin CRUD on one scope's permission definitions (team definitions include the `$…` system ones). */
export function definitionMethods(request: Request, scope: "team" | "project") {
  const base = `/${scope}-permission-definitions`;
  return {
    async list(): Promise<PermissionDefinition[]> {
      return (await request<ListJson<DefinitionJson>>(base)).items.map(definitionFromJson);
    },
    async create(options: PermissionDefinitionCreateOptions): Promise<PermissionDefinition> {
      return definitionFromJson(await request<DefinitionJson>(base, { method: "POST", body: definitionToWire(options) }));
    },
    async update(permissionId: string, options: PermissionDefinitionUpdateOptions): Promise<PermissionDefinition> {
      return definitionFromJson(
        await request<DefinitionJson>(`${base}/${enc(permissionId)}`, { method: "PATCH", body: definitionToWire(options) }),
      );
    },
    async delete(permissionId: string): Promise<void> {
      await request(`${base}/${enc(permissionId)}`, { method: "DELETE" });
    },
  };
}

export type UserPermissions = ReturnType<typeof userPermissionMethods>;
export type ServerUserPermissions = ReturnType<typeof serverPermissionMethods>;
