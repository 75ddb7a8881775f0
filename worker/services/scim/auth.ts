/**
 * Who calls a connection's SCIM endpoints (issue 31): `Authorization: Bearer dmscim_…`, the token the
 * connection's admins were shown once. It is looked up by its SHA-256 through the unique index, then
 * the connection must be the one in the URL and enabled, and the call counts against the connection's
 * rate limit (SCIM_PER_CONNECTION: IdPs batch their calls, so the limit is per connection, not per IP).
 */
import { SCIM_TOKEN_PREFIX } from "@doorman/shared/wire-sso";
import { sha256Hex } from "../../crypto/hash";
import type { ProjectRow } from "../../db/queries/projects";
import { findSsoConnectionByScimTokenHash } from "../../db/queries/scim-tokens";
import type { SsoConnectionRow } from "../../db/queries/sso-connections";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { hitRateLimit } from "../rate-limit";
import { loadProjectCached } from "../seed";
import { type ScimProblem, scimProblem } from "./errors";

export type ScimCaller = { project: ProjectRow; connection: SsoConnectionRow };

const MAX_TOKEN_LENGTH = 256;

const unauthorized = () => scimProblem(401, "A valid SCIM bearer token of this connection is required.");

function bearerToken(authorization: string | undefined): string | null {
  const match = authorization ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization) : null;
  const token = match?.[1];
  return token?.startsWith(SCIM_TOKEN_PREFIX) && token.length <= MAX_TOKEN_LENGTH ? token : null;
}

export async function authenticateScimCaller(
  deps: Deps,
  connectionId: string,
  authorization: string | undefined,
): Promise<{ ok: true; caller: ScimCaller } | ScimProblem> {
  const token = bearerToken(authorization);
  if (!token) return unauthorized();
  // The token is stored hashed (a leaked table holds no usable token), and found by its hash through a
  // unique index: the lookup compares hashes, so its timing says nothing about the token itself.
  const connection = await findSsoConnectionByScimTokenHash(deps.db, await sha256Hex(token));
  // Another connection's token is as wrong here as no token: it is never a way in to this one.
  if (!connection || connection.id !== connectionId) return unauthorized();
  const project = await loadProjectCached(deps, connection.projectId);
  if (!project) return unauthorized();
  if (!connection.enabled) return scimProblem(403, "This SSO connection is disabled.");
  const limit = await hitRateLimit(deps, "SCIM_PER_CONNECTION", `scim:${connection.id}`, deps.now(), {
    id: project.id,
    limits: readProjectConfig(project.config).rate_limits,
  });
  if (!limit.ok) return { ...scimProblem(429, "Too many SCIM requests for this connection."), retryAfterSeconds: limit.retryAfterSeconds };
  // The event log's actor: the connection's IdP, a system actor (its id is in each event's data).
  deps.audit.actorType = "system";
  deps.audit.actorId = null;
  return { ok: true, caller: { project, connection } };
}
