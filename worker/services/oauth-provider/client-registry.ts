/**
 * The owners' client registry (/internal/oauth-clients): register a third-party app (its secret
 * answered once), list, read, change, rotate the secret, delete. Every change writes its
 * oauth_client.* event in the same D1 batch; deleting a client also deletes its users' consents and
 * its grants (their refresh tokens with them), so nothing it was given keeps working.
 */
import {
  deleteOAuthClientDependentsStatements,
  deleteOAuthClientStatement,
  findOAuthClient,
  insertOAuthClientStatement,
  listOAuthClients,
  type OAuthClientPatch,
  type OAuthClientRow,
  replaceOAuthClientSecretStatement,
  updateOAuthClientStatement,
} from "../../db/queries/oauth-clients";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { eventIfChangedStatement, eventStatement } from "../events";
import { fail, type Problem } from "../result";
import { allowsLocalUrls, type ClientMetadata, checkClientMetadata, offeredScopes, type TokenEndpointAuthMethod } from "./client-rules";
import { newClientId, newClientSecret } from "./client-secret";

export type ClientWithSecret = { client: OAuthClientRow; secret: string | null };
type Invalid = Problem<"oauth_client_invalid">;
type NotFound = Problem<"oauth_client_not_found">;

/** What an owner sends to register a client (the auth method defaults by type). */
export type ClientRegistration = Omit<ClientMetadata, "tokenEndpointAuthMethod"> & { tokenEndpointAuthMethod?: TokenEndpointAuthMethod };
/** The fields an owner changes (absent: unchanged; null: cleared). */
export type ClientChanges = Partial<Omit<ClientMetadata, "clientType">>;

/** The wire name of each changeable field, for the event's `fields`. */
const WIRE_FIELDS: Record<keyof ClientChanges, string> = {
  name: "name",
  tokenEndpointAuthMethod: "token_endpoint_auth_method",
  redirectUris: "redirect_uris",
  allowedScopes: "allowed_scopes",
  logoUri: "logo_uri",
  clientUri: "client_uri",
  policyUri: "policy_uri",
  tosUri: "tos_uri",
  jwks: "jwks",
  jwksUri: "jwks_uri",
};

export const defaultAuthMethod = (type: ClientMetadata["clientType"]): TokenEndpointAuthMethod =>
  type === "public" ? "none" : "client_secret_basic";

/** A secret for the methods that use one; none for public and private_key_jwt clients. */
export const usesSecret = (method: string) => method === "client_secret_basic" || method === "client_secret_post";

export function ruleContext(deps: Deps, project: ProjectRow) {
  return { offeredScopes: offeredScopes(project), development: allowsLocalUrls(deps.config.environment, project) };
}

/** The row of a new client with `metadata`, and its secret when its method uses one. */
export async function newClientRow(deps: Deps, projectId: string, source: OAuthClientRow["source"], metadata: ClientMetadata) {
  const secret = usesSecret(metadata.tokenEndpointAuthMethod) ? await newClientSecret(deps) : null;
  const now = deps.now();
  const row: OAuthClientRow = {
    projectId,
    clientId: newClientId(deps),
    source,
    ...metadata,
    secretHash: secret?.hash ?? null,
    secretPrefix: secret?.prefix ?? null,
    metadataExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  return { row, secret: secret?.secret ?? null };
}

/** Registers a client for the project, as its owner; the secret (if any) is in the answer only. */
export async function createOAuthClient(
  deps: Deps,
  project: ProjectRow,
  input: ClientRegistration,
): Promise<{ ok: true; value: ClientWithSecret } | Invalid> {
  const checked = checkClientMetadata(
    { ...input, tokenEndpointAuthMethod: input.tokenEndpointAuthMethod ?? defaultAuthMethod(input.clientType) },
    ruleContext(deps, project),
  );
  if (!checked.ok) return checked;
  const { row, secret } = await newClientRow(deps, project.id, "console", checked.value);
  await deps.db.batch([
    insertOAuthClientStatement(deps.db, row),
    eventStatement(deps, project.id, "oauth_client.created", {}, { client_id: row.clientId, source: "console" }),
  ]);
  return { ok: true, value: { client: row, secret } };
}

export function listOAuthClientsOf(deps: Deps, projectId: string): Promise<OAuthClientRow[]> {
  return listOAuthClients(deps.db, projectId);
}

export async function getOAuthClient(
  deps: Deps,
  projectId: string,
  clientId: string,
): Promise<{ ok: true; value: OAuthClientRow } | NotFound> {
  const row = await findOAuthClient(deps.db, projectId, clientId);
  return row ? { ok: true, value: row } : fail("oauth_client_not_found", { clientId });
}

/** A cached metadata document is the document's: it is changed by changing the document, not here. */
function notEditable(row: OAuthClientRow): Invalid | null {
  if (row.source !== "metadata_document") return null;
  return fail("oauth_client_invalid", {
    field: "client_id",
    message:
      "this client is described by its metadata document at its URL; change the document (the cached copy is refreshed when it expires).",
  });
}

/** How often a change is tried again when a concurrent change came between its read and its write. */
const UPDATE_ATTEMPTS = 3;

/**
 * Changes a client: the whole result is checked against the rules, and written only if nobody changed
 * the client since it was read (a compare-and-set on updated_at). Switching between the two secret
 * methods keeps the secret; switching to or from private_key_jwt is refused (a secret cannot appear
 * or be kept silently): register a new client instead.
 */
export async function updateOAuthClient(
  deps: Deps,
  project: ProjectRow,
  clientId: string,
  changes: ClientChanges,
): Promise<{ ok: true; value: OAuthClientRow } | Invalid | NotFound> {
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
    const row = await findOAuthClient(deps.db, project.id, clientId);
    if (!row) return fail("oauth_client_not_found", { clientId });
    const frozen = notEditable(row);
    if (frozen) return frozen;
    const method = changes.tokenEndpointAuthMethod;
    if (method !== undefined && usesSecret(method) !== usesSecret(row.tokenEndpointAuthMethod))
      return fail("oauth_client_invalid", {
        field: "token_endpoint_auth_method",
        message: `a ${row.tokenEndpointAuthMethod} client cannot become ${method}: register a new client for that.`,
      });
    const given = definedOnly(changes);
    const fields = (Object.keys(given) as (keyof ClientChanges)[]).map((k) => WIRE_FIELDS[k]);
    if (fields.length === 0) return { ok: true, value: row };
    const checked = checkClientMetadata({ ...(row as ClientMetadata), ...given }, ruleContext(deps, project));
    if (!checked.ok) return checked;
    const { clientType: _fixed, ...metadata } = checked.value;
    const patch: OAuthClientPatch & { updatedAt: number } = { ...metadata, updatedAt: Math.max(deps.now(), row.updatedAt + 1) };
    const [updated] = await deps.db.batch([
      updateOAuthClientStatement(deps.db, project.id, clientId, row.updatedAt, patch),
      eventIfChangedStatement(deps, project.id, "oauth_client.updated", {}, { client_id: clientId, fields }),
    ]);
    if (updated.meta.changes > 0) return { ok: true, value: { ...row, ...patch } };
  }
  // Others kept changing it between each read and write: the owner reloads and decides again.
  return fail("oauth_client_invalid", { field: "client_id", message: "the client was changed meanwhile; reload it and try again." });
}

function definedOnly(changes: ClientChanges): ClientChanges {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ClientChanges;
}

/** Deletes a client with its consents and grants in one batch; the event only if it existed. */
export async function deleteOAuthClient(deps: Deps, projectId: string, clientId: string): Promise<{ ok: true } | NotFound> {
  const [deleted] = await deps.db.batch([
    deleteOAuthClientStatement(deps.db, projectId, clientId),
    eventIfChangedStatement(deps, projectId, "oauth_client.deleted", {}, { client_id: clientId }),
    ...deleteOAuthClientDependentsStatements(deps.db, projectId, clientId),
  ]);
  return deleted.meta.changes > 0 ? { ok: true } : fail("oauth_client_not_found", { clientId });
}

/** A new secret replaces the old one at once (the old one authenticates nothing more); answered this once. */
export async function rotateOAuthClientSecret(
  deps: Deps,
  projectId: string,
  clientId: string,
): Promise<{ ok: true; value: ClientWithSecret } | Invalid | NotFound> {
  const { secret, hash, prefix } = await newClientSecret(deps);
  const now = deps.now();
  const [replaced] = await deps.db.batch([
    replaceOAuthClientSecretStatement(deps.db, projectId, clientId, hash, prefix, now),
    eventIfChangedStatement(deps, projectId, "oauth_client.secret_rotated", {}, { client_id: clientId }),
  ]);
  const row = await findOAuthClient(deps.db, projectId, clientId);
  if (!row) return fail("oauth_client_not_found", { clientId });
  if (replaced.meta.changes === 0)
    return fail("oauth_client_invalid", {
      field: "token_endpoint_auth_method",
      message: `a ${row.tokenEndpointAuthMethod === "none" ? "public" : row.tokenEndpointAuthMethod} client has no secret to rotate.`,
    });
  return { ok: true, value: { client: row, secret } };
}
