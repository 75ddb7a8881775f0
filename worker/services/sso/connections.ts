/**
 * A team's SSO connections (issue 31, ADMIN): list, create (a draft until its IdP settings are
 * complete), read, change with a compare-and-set on updated_at, delete. Every change writes its
 * sso_connection.* event in the batch of the change. Deleting a connection removes its identities,
 * SCIM groups and used assertions (foreign-key cascade) but never a user or a membership; its
 * domains stay claimed, routed to the team's other connections.
 */
import type { SsoConnectionCreateJson, SsoConnectionUpdateJson, SsoGroupMappingJson } from "@doorman/shared/wire-sso";
import type { ProjectRow } from "../../db/queries/projects";
import {
  deleteSsoConnectionStatement,
  findSsoConnection,
  insertSsoConnectionStatement,
  listTeamSsoConnections,
  type SsoConnectionPatch,
  type SsoConnectionRow,
  updateSsoConnectionStatement,
} from "../../db/queries/sso-connections";
import type { Deps } from "../deps";
import { eventIfChangedStatement, eventStatement } from "../events";
import { containmentMap } from "../permissions";
import { fail, type Problem } from "../result";
import { checkSsoTeamAccess, loadManagedConnection, managerEventData, type SsoAccessProblem, type SsoManager } from "./access";
import { emptyConfig, isCompleteConfig, type SettingsProblem, type SsoProtocol } from "./connection-settings";
import { allowsLocalIdpUrls, applySettings, type SettingsInput } from "./connection-update";
import { generateSpCredentials } from "./saml/sp-keys";

type NotFound = Problem<"sso_admin_connection_not_found">;
type Modified = Problem<"sso_connection_modified">;

const invalid = (field: string, message: string): SettingsProblem => fail("sso_connection_invalid_config", { field, message });

/** The wire names of the changeable fields, for the event's `fields`. */
type ChangeableField = keyof SsoConnectionUpdateJson;

export async function listSsoConnections(
  deps: Deps,
  projectId: string,
  teamId: string,
  manager: SsoManager,
): Promise<{ ok: true; value: SsoConnectionRow[] } | SsoAccessProblem> {
  const access = await checkSsoTeamAccess(deps, projectId, teamId, manager);
  if (!access.ok) return access;
  return { ok: true, value: await listTeamSsoConnections(deps.db, projectId, teamId) };
}

export async function getSsoConnection(
  deps: Deps,
  projectId: string,
  connectionId: string,
  manager: SsoManager,
): Promise<{ ok: true; value: SsoConnectionRow } | SsoAccessProblem | NotFound> {
  const loaded = await loadManagedConnection(deps, projectId, connectionId, manager);
  return loaded.ok ? { ok: true, value: loaded.connection } : loaded;
}

/**
 * The group mapping as stored (group → permission ids), if every permission is a team permission of
 * the project. Only back ends (the project's owners, server code) set it: a team admin mapping an IdP
 * group to `$delete_team` or `team_admin` would grant through SCIM what they could not grant directly.
 */
async function checkGroupMapping(
  deps: Deps,
  projectId: string,
  manager: SsoManager,
  mapping: SsoGroupMappingJson,
): Promise<{ ok: true; value: Record<string, string[]> } | SettingsProblem> {
  if (manager.kind !== "backend")
    return invalid("scim_group_mapping", "only the project's owners (admin or server access) map groups to team permissions.");
  const known = await containmentMap(deps, projectId, "team");
  const out: Record<string, string[]> = {};
  for (const { group, permission_ids } of mapping) {
    if (Object.hasOwn(out, group)) return invalid("scim_group_mapping", `the group ${JSON.stringify(group)} is listed twice.`);
    const unknown = permission_ids.find((id) => !known.has(id));
    if (unknown !== undefined) return invalid("scim_group_mapping", `${JSON.stringify(unknown)} is not a team permission of this project.`);
    out[group] = [...new Set(permission_ids)];
  }
  return { ok: true, value: out };
}

/** The settings input of a create or update body (wire → service). */
function settingsOf(body: SsoConnectionUpdateJson): SettingsInput {
  return { saml: body.saml, oidc: body.oidc, attributeMapping: body.attribute_mapping };
}

/** Refuses settings of the other protocol (a connection's protocol is fixed). */
function protocolMismatch(protocol: SsoProtocol, body: SsoConnectionUpdateJson): SettingsProblem | null {
  if (protocol === "saml" && body.oidc !== undefined) return invalid("oidc", "this is a SAML connection: send its settings in `saml`.");
  if (protocol === "oidc" && body.saml !== undefined) return invalid("saml", "this is an OIDC connection: send its settings in `oidc`.");
  return null;
}

/** An enabled connection must be complete: a draft signs nobody in. */
function enabledButIncomplete(protocol: SsoProtocol, enabled: boolean, config: Record<string, unknown>): SettingsProblem | null {
  if (!enabled || isCompleteConfig(protocol, config)) return null;
  const needs = protocol === "saml" ? "the IdP entity id, SSO URL and signing certificate" : "the issuer and client id";
  return invalid("enabled", `the connection cannot be enabled before ${needs} are set.`);
}

/** Creates a connection for a team; without `enabled` it is enabled once complete, else stored as a disabled draft. */
export async function createSsoConnection(
  deps: Deps,
  project: ProjectRow,
  manager: SsoManager,
  body: SsoConnectionCreateJson,
): Promise<{ ok: true; value: SsoConnectionRow } | SsoAccessProblem | SettingsProblem> {
  const access = await checkSsoTeamAccess(deps, project.id, body.team_id, manager);
  if (!access.ok) return access;
  const mismatch = protocolMismatch(body.protocol, body);
  if (mismatch) return mismatch;
  const settings = await applySettings(
    deps,
    body.protocol,
    emptyConfig(body.protocol),
    settingsOf(body),
    allowsLocalIdpUrls(deps, project),
  );
  if (!settings.ok) return settings;
  let mapping: Record<string, string[]> = {};
  if (body.scim_group_mapping !== undefined) {
    const checked = await checkGroupMapping(deps, project.id, manager, body.scim_group_mapping);
    if (!checked.ok) return checked;
    mapping = checked.value;
  }
  const config = settings.value;
  const enabled = body.enabled ?? isCompleteConfig(body.protocol, config);
  const incomplete = enabledButIncomplete(body.protocol, enabled, config);
  if (incomplete) return incomplete;
  const now = deps.now();
  const id = deps.random.uuid();
  // Each SAML connection has its own SP key pair (signed AuthnRequests, encrypted assertions): a leak of one is that connection's alone.
  const sp = body.protocol === "saml" ? await generateSpCredentials(deps, { commonName: `Doorman SSO ${id}` }) : null;
  const row: SsoConnectionRow = {
    id,
    projectId: project.id,
    teamId: body.team_id,
    protocol: body.protocol,
    displayName: body.display_name,
    enabled,
    config,
    spPrivateKeySealed: sp?.spPrivateKeySealed ?? null,
    spCertificate: sp?.spCertificate ?? null,
    allowIdpInitiated: body.allow_idp_initiated ?? false,
    scimTokenHash: null,
    scimTokenPrefix: null,
    scimGroupMapping: mapping,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.batch([
    insertSsoConnectionStatement(deps.db, row),
    eventStatement(
      deps,
      project.id,
      "sso_connection.created",
      { teamId: row.teamId },
      { connection_id: row.id, protocol: row.protocol, ...managerEventData(manager) },
    ),
  ]);
  return { ok: true, value: row };
}

/** How often a change is tried again when a concurrent change came between its read and its write. */
const UPDATE_ATTEMPTS = 10;

/** A short random pause before another attempt, longer each time, so racing writers stop colliding in step. */
const backoff = (deps: Deps, attempt: number) => new Promise((r) => setTimeout(r, Math.ceil(deps.random.fraction() * 15 * attempt)));

/**
 * Changes a connection: the given fields are merged into the row as read, the result is checked
 * whole, and it is written only if nobody changed the row meanwhile (updated_at as read); otherwise
 * it is read and merged again, so concurrent changes of different fields all land.
 */
export async function updateSsoConnection(
  deps: Deps,
  project: ProjectRow,
  connectionId: string,
  manager: SsoManager,
  body: SsoConnectionUpdateJson,
): Promise<{ ok: true; value: SsoConnectionRow } | SsoAccessProblem | SettingsProblem | NotFound | Modified> {
  const fields = (Object.keys(body) as ChangeableField[]).filter((k) => body[k] !== undefined);
  const loaded = await loadManagedConnection(deps, project.id, connectionId, manager);
  if (!loaded.ok) return loaded;
  let row: SsoConnectionRow | null = loaded.connection;
  if (fields.length === 0) return { ok: true, value: row };
  const mismatch = protocolMismatch(row.protocol, body);
  if (mismatch) return mismatch;
  let mapping: Record<string, string[]> | undefined;
  if (body.scim_group_mapping !== undefined) {
    const checked = await checkGroupMapping(deps, project.id, manager, body.scim_group_mapping);
    if (!checked.ok) return checked;
    mapping = checked.value;
  }
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      await backoff(deps, attempt);
      row = await findSsoConnection(deps.db, project.id, connectionId);
      if (!row) return fail("sso_admin_connection_not_found", { connectionId });
    }
    const settings = await applySettings(deps, row.protocol, row.config, settingsOf(body), allowsLocalIdpUrls(deps, project));
    if (!settings.ok) return settings;
    const patch: SsoConnectionPatch = { config: settings.value, updatedAt: Math.max(deps.now(), row.updatedAt + 1) };
    if (body.display_name !== undefined) patch.displayName = body.display_name;
    if (body.enabled !== undefined) patch.enabled = body.enabled;
    if (body.allow_idp_initiated !== undefined) patch.allowIdpInitiated = body.allow_idp_initiated;
    if (mapping !== undefined) patch.scimGroupMapping = mapping;
    const incomplete = enabledButIncomplete(row.protocol, patch.enabled ?? row.enabled, settings.value);
    if (incomplete) return incomplete;
    const [updated] = await deps.db.batch([
      updateSsoConnectionStatement(deps.db, project.id, connectionId, row.updatedAt, patch),
      eventIfChangedStatement(
        deps,
        project.id,
        "sso_connection.updated",
        { teamId: row.teamId },
        { connection_id: connectionId, fields, ...managerEventData(manager) },
      ),
    ]);
    if (updated.meta.changes > 0) return { ok: true, value: { ...row, ...patch } };
  }
  // Others kept changing it between each read and write: the caller reloads and decides again.
  return fail("sso_connection_modified", { connectionId });
}

/** Deletes a connection (identities, SCIM groups and used assertions by cascade; users and memberships stay). */
export async function deleteSsoConnection(
  deps: Deps,
  projectId: string,
  connectionId: string,
  manager: SsoManager,
): Promise<{ ok: true } | SsoAccessProblem | NotFound> {
  const loaded = await loadManagedConnection(deps, projectId, connectionId, manager);
  if (!loaded.ok) return loaded;
  const [deleted] = await deps.db.batch([
    deleteSsoConnectionStatement(deps.db, projectId, connectionId),
    eventIfChangedStatement(
      deps,
      projectId,
      "sso_connection.deleted",
      { teamId: loaded.connection.teamId },
      { connection_id: connectionId, ...managerEventData(manager) },
    ),
  ]);
  return deleted.meta.changes > 0 ? { ok: true } : fail("sso_admin_connection_not_found", { connectionId });
}
