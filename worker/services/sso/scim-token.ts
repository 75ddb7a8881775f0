/**
 * A connection's SCIM bearer token (issue 31, ADMIN): `dmscim_` + 43 random characters (215 bits),
 * answered once when made; Doorman keeps its SHA-256 (the SCIM server finds the connection by it
 * through a unique index) and its first characters for display. A new token replaces the old one at
 * once. Also the connection's last SCIM calls: its scim.* events.
 */
import { EVENT_AREAS } from "@doorman/shared/event-types";
import { SCIM_TOKEN_PREFIX } from "@doorman/shared/wire-sso";
import { sha256Hex } from "../../crypto/hash";
import type { EventRow } from "../../db/queries/events";
import { replaceScimTokenStatement, type SsoConnectionRow } from "../../db/queries/sso-connections";
import { listConnectionEvents } from "../../db/queries/sso-events";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";
import { fail, type Problem } from "../result";
import { loadManagedConnection, managerEventData, type SsoAccessProblem, type SsoManager } from "./access";

type NotFound = Problem<"sso_admin_connection_not_found">;

/** How much of a token is kept in the clear: the prefix and 4 characters, enough to tell two apart. */
const SHOWN_LENGTH = SCIM_TOKEN_PREFIX.length + 4;

/** The SCIM event types: what an IdP's provisioning did through the connection. */
export const SCIM_EVENT_TYPES: readonly string[] =
  EVENT_AREAS.find((a) => a.area === "Enterprise SSO")?.types.filter((t) => t.startsWith("scim.")) ?? [];

export async function newScimToken(deps: Deps): Promise<{ token: string; hash: string; prefix: string }> {
  const token = `${SCIM_TOKEN_PREFIX}${deps.random.code(43)}`;
  // Why SHA-256 and not a slow hash: the token is 215 random bits, so a fast hash cannot be brute-forced.
  return { token, hash: await sha256Hex(token), prefix: token.slice(0, SHOWN_LENGTH) };
}

/** Replaces the connection's SCIM token; the new token is in the answer only. */
export async function rotateScimToken(
  deps: Deps,
  projectId: string,
  connectionId: string,
  manager: SsoManager,
): Promise<{ ok: true; value: { connection: SsoConnectionRow; token: string } } | SsoAccessProblem | NotFound> {
  const loaded = await loadManagedConnection(deps, projectId, connectionId, manager);
  if (!loaded.ok) return loaded;
  const { token, hash, prefix } = await newScimToken(deps);
  const now = Math.max(deps.now(), loaded.connection.updatedAt + 1);
  const [replaced] = await deps.db.batch([
    replaceScimTokenStatement(deps.db, projectId, connectionId, hash, prefix, now),
    eventIfChangedStatement(
      deps,
      projectId,
      "sso_connection.scim_token_rotated",
      { teamId: loaded.connection.teamId },
      { connection_id: connectionId, ...managerEventData(manager) },
    ),
  ]);
  if (replaced.meta.changes === 0) return fail("sso_admin_connection_not_found", { connectionId });
  return { ok: true, value: { connection: { ...loaded.connection, scimTokenHash: hash, scimTokenPrefix: prefix, updatedAt: now }, token } };
}

/** The connection's last SCIM calls, newest first. */
export async function listScimCalls(
  deps: Deps,
  projectId: string,
  connectionId: string,
  manager: SsoManager,
  limit: number,
): Promise<{ ok: true; value: EventRow[] } | SsoAccessProblem | NotFound> {
  const loaded = await loadManagedConnection(deps, projectId, connectionId, manager);
  if (!loaded.ok) return loaded;
  return { ok: true, value: await listConnectionEvents(deps.db, projectId, connectionId, SCIM_EVENT_TYPES, limit) };
}
