/**
 * A team's email domains (issue 31, ADMIN): claim (pending, with a random TXT token), list, change
 * the routing and policies (connection, enforce SSO, auto-join), remove. Verification is in
 * domain-verification.ts. Several teams may claim one domain; only one can hold it verified. Every
 * change writes its sso_domain.* event in the batch of the change.
 */
import type { SsoDomainUpdateJson } from "@doorman/shared/wire-sso";
import { findSsoConnection } from "../../db/queries/sso-connections";
import {
  deleteSsoDomainStatement,
  findSsoDomain,
  insertSsoDomainStatement,
  listTeamSsoDomains,
  type SsoDomainPatch,
  type SsoDomainRow,
  updateSsoDomainStatement,
} from "../../db/queries/sso-domains";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";
import { fail, type Problem } from "../result";
import { checkSsoTeamAccess, loadManagedDomain, managerEventData, type SsoAccessProblem, type SsoManager } from "./access";
import { normaliseClaimedDomain } from "./domain-name";

type NotFound = Problem<"sso_domain_not_found">;

export async function listSsoDomains(
  deps: Deps,
  projectId: string,
  teamId: string,
  manager: SsoManager,
): Promise<{ ok: true; value: SsoDomainRow[] } | SsoAccessProblem> {
  const access = await checkSsoTeamAccess(deps, projectId, teamId, manager);
  if (!access.ok) return access;
  return { ok: true, value: await listTeamSsoDomains(deps.db, projectId, teamId) };
}

/** Claims a domain for a team (pending until its TXT record is found). */
export async function claimSsoDomain(
  deps: Deps,
  projectId: string,
  teamId: string,
  input: string,
  manager: SsoManager,
): Promise<{ ok: true; value: SsoDomainRow } | SsoAccessProblem | Problem<"sso_domain_invalid" | "sso_domain_already_claimed">> {
  const access = await checkSsoTeamAccess(deps, projectId, teamId, manager);
  if (!access.ok) return access;
  const name = normaliseClaimedDomain(input);
  if (!name.ok) return fail("sso_domain_invalid", { domain: input.slice(0, 300), message: name.message });
  const row: SsoDomainRow = {
    id: deps.random.uuid(),
    projectId,
    teamId,
    connectionId: null,
    domain: name.domain,
    // Public (it is the TXT record's value) but unguessable: one team's record never verifies another team's claim.
    verificationToken: deps.random.code(32),
    status: "pending",
    verifiedAt: null,
    checkedAt: null,
    enforceSso: false,
    autoJoin: false,
    createdAt: deps.now(),
  };
  const [inserted] = await deps.db.batch([
    insertSsoDomainStatement(deps.db, row),
    eventIfChangedStatement(
      deps,
      projectId,
      "sso_domain.added",
      { teamId },
      { domain_id: row.id, domain: row.domain, ...managerEventData(manager) },
    ),
  ]);
  if (inserted.meta.changes === 0) return fail("sso_domain_already_claimed", { domain: row.domain });
  return { ok: true, value: row };
}

/** Changes a claim's connection (one of the team's, or null), enforcement and auto-join. */
export async function updateSsoDomain(
  deps: Deps,
  projectId: string,
  domainId: string,
  manager: SsoManager,
  body: SsoDomainUpdateJson,
): Promise<{ ok: true; value: SsoDomainRow } | SsoAccessProblem | NotFound | Problem<"sso_admin_connection_not_found">> {
  const loaded = await loadManagedDomain(deps, projectId, domainId, manager);
  if (!loaded.ok) return loaded;
  const { domain } = loaded;
  const patch: SsoDomainPatch = {};
  const fields: string[] = [];
  if (body.connection_id !== undefined) {
    // Only a connection of the claiming team: a team must not route its domain's emails to another team's IdP.
    const connection = body.connection_id === null ? null : await findSsoConnection(deps.db, projectId, body.connection_id);
    if (body.connection_id !== null && connection?.teamId !== domain.teamId)
      return fail("sso_admin_connection_not_found", { connectionId: body.connection_id });
    patch.connectionId = body.connection_id;
    fields.push("connection_id");
  }
  if (body.enforce_sso !== undefined) {
    patch.enforceSso = body.enforce_sso;
    fields.push("enforce_sso");
  }
  if (body.auto_join !== undefined) {
    patch.autoJoin = body.auto_join;
    fields.push("auto_join");
  }
  if (fields.length === 0) return { ok: true, value: domain };
  await deps.db.batch([
    updateSsoDomainStatement(deps.db, projectId, domainId, patch),
    eventIfChangedStatement(
      deps,
      projectId,
      "sso_domain.updated",
      { teamId: domain.teamId },
      { domain_id: domainId, domain: domain.domain, fields, ...managerEventData(manager) },
    ),
  ]);
  const updated = await findSsoDomain(deps.db, projectId, domainId);
  return updated ? { ok: true, value: updated } : fail("sso_domain_not_found", { domainId });
}

/** Removes a claim (verified or not): its emails stop routing, enforcing and auto-joining at once. */
export async function removeSsoDomain(
  deps: Deps,
  projectId: string,
  domainId: string,
  manager: SsoManager,
): Promise<{ ok: true } | SsoAccessProblem | NotFound> {
  const loaded = await loadManagedDomain(deps, projectId, domainId, manager);
  if (!loaded.ok) return loaded;
  const { domain } = loaded;
  const [deleted] = await deps.db.batch([
    deleteSsoDomainStatement(deps.db, projectId, domainId),
    eventIfChangedStatement(
      deps,
      projectId,
      "sso_domain.removed",
      { teamId: domain.teamId },
      { domain_id: domainId, domain: domain.domain, ...managerEventData(manager) },
    ),
  ]);
  return deleted.meta.changes > 0 ? { ok: true } : fail("sso_domain_not_found", { domainId });
}
