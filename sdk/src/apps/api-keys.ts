/**
 * User and team API keys as SDK objects: create (the full key is in the first view only), list,
 * update, revoke, and validate a presented key on a back end. Works over any requester (the
 * client's user session or the server key), so users, teams and server apps share one shape.
 */
import type { RequestOptions } from "../interface/http";
import { KnownError } from "../shared/known-errors";
import type { ListJson, TeamApiKeyJson, UserApiKeyJson } from "./wire-types";

export type ApiKeyType = "user" | "team";

/** A user or team key as the wire sends it (the full `value` only in the create answer). */
export type ApiKeyJson = UserApiKeyJson | TeamApiKeyJson;

type Requester = <T>(path: string, options?: RequestOptions) => Promise<T>;
type Owner = { userId: string } | { teamId: string };

export type ApiKey<Type extends ApiKeyType = ApiKeyType> = {
  readonly id: string;
  readonly type: Type;
  /** The owning user's id (user keys) or team's id (team keys). */
  readonly userId: Type extends "user" ? string : undefined;
  readonly teamId: Type extends "team" ? string : undefined;
  readonly description: string;
  readonly isPublic: boolean;
  readonly createdAt: Date;
  /** Undefined when the key never expires. */
  readonly expiresAt: Date | undefined;
  readonly manuallyRevokedAt: Date | null;
  readonly value: { lastFour: string };
  /** Expired first, then manually revoked (SPEC §4). */
  whyInvalid(): "expired" | "manually-revoked" | null;
  isValid(): boolean;
  /** Revokes the key for good (there is no un-revoke). */
  revoke(): Promise<void>;
  update(update: { description?: string }): Promise<void>;
};

/** The create response: the only time the full key string exists outside its owner's hands. */
export type ApiKeyFirstView<Type extends ApiKeyType = ApiKeyType> = Omit<ApiKey<Type>, "value"> & { readonly value: string };

export type CreateApiKeyOptions = { description: string; expiresAt: Date | null; isPublic?: boolean };

function ownerQuery(owner: Owner): string {
  return "userId" in owner ? `user_id=${encodeURIComponent(owner.userId)}` : `team_id=${encodeURIComponent(owner.teamId)}`;
}

const endpointOf = (type: ApiKeyType) => `/${type}-api-keys`;

/** @internal Builds the SDK object of a key read from the wire. */
export function apiKeyFromJson<Type extends ApiKeyType>(request: Requester, json: ApiKeyJson): ApiKey<Type> {
  const owner: Owner = json.type === "team" ? { teamId: json.team_id as string } : { userId: json.user_id as string };
  const path = `${endpointOf(json.type)}/${encodeURIComponent(json.id)}?${ownerQuery(owner)}`;
  const expiresAt = typeof json.expires_at_millis === "number" ? new Date(json.expires_at_millis) : undefined;
  const manuallyRevokedAt = typeof json.manually_revoked_at_millis === "number" ? new Date(json.manually_revoked_at_millis) : null;
  const whyInvalid = () => (expiresAt && expiresAt.getTime() <= Date.now() ? "expired" : manuallyRevokedAt ? "manually-revoked" : null);
  return {
    id: json.id,
    type: json.type as Type,
    userId: (json.type === "user" ? json.user_id : undefined) as ApiKey<Type>["userId"],
    teamId: (json.type === "team" ? json.team_id : undefined) as ApiKey<Type>["teamId"],
    description: json.description,
    isPublic: json.is_public,
    createdAt: new Date(json.created_at_millis),
    expiresAt,
    manuallyRevokedAt,
    value: { lastFour: typeof json.value === "string" ? json.value.slice(-4) : json.value.last_four },
    whyInvalid,
    isValid: () => whyInvalid() === null,
    async revoke() {
      await request(path, { method: "PATCH", body: { revoked: true } });
    },
    async update(update) {
      const body: Record<string, unknown> = {};
      if (update.description !== undefined) body.description = update.description;
      await request(path, { method: "PATCH", body });
    },
  };
}

/** @internal A user's or team's keys, newest first. */
export async function listApiKeys<Type extends ApiKeyType>(request: Requester, owner: Owner): Promise<ApiKey<Type>[]> {
  const type: ApiKeyType = "userId" in owner ? "user" : "team";
  const list = await request<ListJson<ApiKeyJson>>(`${endpointOf(type)}?${ownerQuery(owner)}`);
  return list.items.map((k) => apiKeyFromJson<Type>(request, k));
}

/** @internal Creates a key; the first view carries the full `value`. */
export async function createApiKey<Type extends ApiKeyType>(
  request: Requester,
  owner: Owner,
  options: CreateApiKeyOptions,
): Promise<ApiKeyFirstView<Type>> {
  const type: ApiKeyType = "userId" in owner ? "user" : "team";
  const body: Record<string, unknown> = {
    description: options.description,
    expires_at_millis: options.expiresAt ? options.expiresAt.getTime() : null,
    ...("userId" in owner ? { user_id: owner.userId } : { team_id: owner.teamId }),
  };
  if (options.isPublic !== undefined) body.is_public = options.isPublic;
  const json = await request<ApiKeyJson>(endpointOf(type), { body });
  return { ...apiKeyFromJson<Type>(request, json), value: json.value as string };
}

/** @internal Validates a presented key (server key); any API_KEY_NOT_VALID error means "not valid" → null. */
export async function validateApiKey<Type extends ApiKeyType>(
  request: Requester,
  type: Type,
  apiKey: string,
): Promise<ApiKey<Type> | null> {
  try {
    return apiKeyFromJson<Type>(request, await request<ApiKeyJson>(`${endpointOf(type)}/check`, { body: { api_key: apiKey } }));
  } catch (error) {
    if (error instanceof KnownError && error.is("API_KEY_NOT_VALID")) return null;
    throw error;
  }
}

/** The API-key methods of a team object (client or server). */
export type TeamApiKeyMethods = {
  /** Creates a team API key (needs `$manage_api_keys` from a client); the first view has the full `value`. */
  createApiKey(options: CreateApiKeyOptions): Promise<ApiKeyFirstView<"team">>;
  /** The team's API keys, newest first (last four characters only). */
  listApiKeys(): Promise<ApiKey<"team">[]>;
};

/**
 * @internal Binds the team API-key methods to a requester and team id.
 *
 * @example
 * const team = { ...teamFields, ...teamApiKeyMethods(request, teamId) };
 * const key = await team.createApiKey({ description: "CI", expiresAt: null });
 */
export function teamApiKeyMethods(request: Requester, teamId: string): TeamApiKeyMethods {
  return {
    createApiKey: (options) => createApiKey<"team">(request, { teamId }, options),
    listApiKeys: () => listApiKeys<"team">(request, { teamId }),
  };
}
