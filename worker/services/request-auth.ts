/**
 * Request authentication in the exact order of wire-protocol.md §1 (parseAuth): access type,
 * project id, access token, project, keys or admin access token, branch. Throws known errors.
 */

import { INTERNAL_PROJECT_ID, PUBLIC_CLIENT_SENTINEL } from "@doorman/shared/constants";
import { KnownError } from "@doorman/shared/known-errors";
import { type AccessTokenClaims, type DecodedToken, verifyAccessToken } from "../crypto/access-tokens";
import { sha256Hex } from "../crypto/hash";
import { HOSTED_KEY_PREFIX, isHostedPagesKey } from "../crypto/hosted-key";
import { lookupAuthRows as lookupAuthRowsOnce } from "../db/queries/auth-lookup";
import type { KeyKind } from "../db/queries/key-sets";
import { isProjectOwnedByUser, type ProjectRow } from "../db/queries/projects";
import { findLiveSession } from "../db/queries/sessions";
import { findUserRecord, type UserRecord } from "../db/queries/users";
import { StatusError } from "../lib/errors";
import type { Deps } from "./deps";
import { authRowsSurvivingOutage, type OutageAuthRows } from "./outage/degraded";
import { readProjectConfig } from "./project-config/flat";
import { loadProject } from "./seed";

export type AccessType = "client" | "server" | "admin";

export type AuthHeaders = {
  projectId?: string;
  accessType?: string;
  branchId?: string;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  adminAccessToken?: string;
  accessToken?: string;
  allowAnonymousUser: boolean;
  allowRestrictedUser: boolean;
};

export type RequestAuth = {
  type: AccessType;
  project: ProjectRow;
  /** The signed-in user (from x-stack-access-token), or null. */
  user: UserRecord | null;
  /** The session behind the access token (its refresh_token_id). */
  sessionId: string | null;
  /** Set when an owner's admin access token authenticated the request, at whatever access type (`type` is unchanged). */
  adminUserId: string | null;
  /** D1 was away (services/outage/): the user was not read, and the access token's verified claims stand in for it. */
  degraded?: AccessTokenClaims | null;
};

type ValidToken = Extract<DecodedToken, { ok: true }>["claims"];

function accessTokenError(decoded: Exclude<DecodedToken, { ok: true }>): KnownError {
  if (decoded.reason === "expired") {
    return new KnownError("ACCESS_TOKEN_EXPIRED", {
      expired_at_millis: decoded.expiredAtMs,
      project_id: decoded.projectId,
      user_id: decoded.userId,
      refresh_token_id: decoded.refreshTokenId,
    });
  }
  return new KnownError("UNPARSABLE_ACCESS_TOKEN");
}

/**
 * The credentials an access type reads; the other levels' keys are dropped unread. An owner's
 * admin access token is read at every level (as the reference does): it stands in for the
 * level's key and the request keeps its access type, so a client request with it is still a
 * client request. Elevation needs the access type that asks for it (and then its credential).
 */
export function credentialsFor(accessType: AccessType, h: AuthHeaders): AuthHeaders {
  if (accessType === "client") return { ...h, secretServerKey: undefined, superSecretAdminKey: undefined };
  if (accessType === "server") return { ...h, publishableClientKey: undefined, superSecretAdminKey: undefined };
  return { ...h, publishableClientKey: undefined, secretServerKey: undefined };
}

export async function resolveRequestAuth(deps: Deps, headers: AuthHeaders): Promise<RequestAuth | null> {
  const hasKeyOrToken = Boolean(
    headers.publishableClientKey || headers.secretServerKey || headers.superSecretAdminKey || headers.adminAccessToken,
  );
  if (!headers.accessType) {
    if (hasKeyOrToken) throw new KnownError("PROJECT_KEY_WITHOUT_ACCESS_TYPE");
    return null;
  }
  if (headers.accessType !== "client" && headers.accessType !== "server" && headers.accessType !== "admin")
    throw new KnownError("INVALID_ACCESS_TYPE");
  const accessType: AccessType = headers.accessType;
  const h = credentialsFor(accessType, headers);
  if (!h.projectId) throw new KnownError("ACCESS_TYPE_WITHOUT_PROJECT_ID", { request_type: accessType });
  const projectId = h.projectId;

  let token: ValidToken | null = null;
  if (h.accessToken) {
    const decoded = await verifyAccessToken(deps.tokenKeys, h.accessToken, deps.now());
    if (!decoded.ok) throw accessTokenError(decoded);
    if (decoded.claims.project_id !== projectId) {
      throw new KnownError("INVALID_PROJECT_FOR_ACCESS_TOKEN", {
        expected_project_id: projectId,
        actual_project_id: decoded.claims.project_id,
      });
    }
    if (decoded.claims.is_anonymous && !h.allowAnonymousUser) throw new KnownError("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    if (decoded.claims.is_restricted && !decoded.claims.is_anonymous && !h.allowRestrictedUser) {
      throw new KnownError("RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: decoded.claims.restricted_reason });
    }
    token = decoded.claims;
  }

  // Project, key and user come back in one D1 round trip; they are checked below in the wire's order.
  // A hosted-pages key (derived, never stored) is checked here instead of in D1.
  const hostedKey = !h.adminAccessToken && accessType === "client" && h.publishableClientKey?.startsWith(HOSTED_KEY_PREFIX);
  const keyToCheck = h.adminAccessToken || hostedKey ? null : await keyFor(accessType, h);
  const rows = await lookupAuthRows(deps, projectId, keyToCheck, token?.sub ?? null, token?.refresh_token_id ?? null);
  const project = rows.project;
  if (!project) throw new KnownError("CURRENT_PROJECT_NOT_FOUND", { project_id: projectId });

  const type: AccessType = accessType;
  let adminUserId: string | null = null;
  if (h.adminAccessToken) {
    // At every access level the owner's token stands in for the level's key, which is then not read
    // (wire §1). The type stays the one asked for: the token never raises a client or server request.
    adminUserId = await checkAdminAccessToken(deps, project, h.adminAccessToken);
  } else {
    const keyValid = hostedKey ? await isHostedPagesKey(deps.tokenKeys, project.id, h.publishableClientKey ?? "") : rows.keyValid;
    checkKey(project, accessType, h, keyValid);
  }

  if (h.branchId && h.branchId !== "main") throw new KnownError("BRANCH_DOES_NOT_EXIST", { branch_id: h.branchId });

  // D1 is away (services/outage/degraded.ts): the user and the session were not read; the token's claims stand in.
  if (rows.outage) return { type, project, user: null, sessionId: token?.refresh_token_id ?? null, adminUserId, degraded: token };

  // The user was deleted: the token names nobody, so the request goes on without a user, as the
  // wire's (a refresh then finds no session; `me` is CANNOT_GET_OWN_USER_WITHOUT_USER). It grants nothing.
  if (token && !rows.user) return { type, project, user: null, sessionId: null, adminUserId };
  // A signed-out, revoked or expired session ends its access tokens at once, not at their exp (ASVS 7.4.1).
  // An INVALID_ACCESS_TOKEN subtype: the SDKs refresh, get REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED and sign out.
  if (token && !sessionIsLive(rows.session, project, deps.now())) throw sessionEnded();
  return { type, project, user: rows.user, sessionId: token?.refresh_token_id ?? null, adminUserId };
}

type KeyToCheck = { kind: KeyKind; hash: string } | null;

const sessionEnded = () => new KnownError("UNPARSABLE_ACCESS_TOKEN", undefined, "The session of this access token has ended.");

/** Live: the row is there (not signed out, revoked or expired) and within the project's absolute session lifetime. */
function sessionIsLive(session: { createdAt: number } | null | undefined, project: ProjectRow, now: number): boolean {
  if (!session) return false;
  const maxMinutes = readProjectConfig(project.config).session_max_lifetime_minutes;
  return maxMinutes === 0 || session.createdAt + maxMinutes * 60_000 > now;
}

/** The key this access type is checked with (null: none sent, or the public sentinel). */
async function keyFor(accessType: AccessType, h: AuthHeaders): Promise<KeyToCheck> {
  const [kind, value]: [KeyKind, string | undefined] =
    accessType === "client"
      ? ["publishable", h.publishableClientKey]
      : accessType === "server"
        ? ["secret", h.secretServerKey]
        : ["admin", h.superSecretAdminKey];
  if (!value || (kind === "publishable" && value === PUBLIC_CLIENT_SENTINEL)) return null;
  return { kind, hash: await sha256Hex(value) };
}

async function lookupAuthRows(
  deps: Deps,
  projectId: string,
  key: KeyToCheck,
  userId: string | null,
  sessionId: string | null,
  seeded = false,
): Promise<OutageAuthRows> {
  // On a D1 failure or stall: the last-known-good project and keys (services/outage/degraded.ts).
  const rows = await authRowsSurvivingOutage(deps, { projectId, key }, () =>
    lookupAuthRowsOnce(deps.db, { projectId, key, userId, sessionId, now: deps.now() }),
  );
  if (!rows.project && !seeded && (await loadProject(deps, projectId)))
    return lookupAuthRows(deps, projectId, key, userId, sessionId, true);
  return rows;
}

function checkKey(project: ProjectRow, accessType: AccessType, h: AuthHeaders, keyValid: boolean | null): void {
  const config = readProjectConfig(project.config);
  if (accessType === "client") {
    if (keyValid === null) {
      if (config.require_publishable_client_key)
        throw new KnownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: project.id });
      return;
    }
    if (!keyValid) throw new KnownError("INVALID_PUBLISHABLE_CLIENT_KEY", { project_id: project.id });
    return;
  }
  if (accessType === "server") {
    if (!h.secretServerKey) throw new KnownError("SERVER_AUTHENTICATION_REQUIRED");
    if (!keyValid) throw new KnownError("INVALID_SECRET_SERVER_KEY", { project_id: project.id });
    return;
  }
  if (!h.superSecretAdminKey) throw new KnownError("ADMIN_AUTHENTICATION_REQUIRED");
  if (!keyValid) throw new KnownError("INVALID_SUPER_SECRET_ADMIN_KEY", { project_id: project.id });
}

/** An owner's session on the internal project, for a project their team owns. Returns the owner's user id. */
async function checkAdminAccessToken(deps: Deps, project: ProjectRow, token: string): Promise<string> {
  const decoded = await verifyAccessToken(deps.tokenKeys, token, deps.now());
  if (!decoded.ok) {
    if (decoded.reason === "expired") throw new KnownError("ADMIN_ACCESS_TOKEN_EXPIRED", { expired_at_millis: decoded.expiredAtMs });
    throw new KnownError("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  }
  // An anonymous or restricted session is never an admin's: the reference decodes admin tokens with
  // neither allowed, so they fail there as unparsable (before the project is looked at).
  if (decoded.claims.is_anonymous || decoded.claims.is_restricted) throw new KnownError("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  // Admin tokens are sessions of the internal project only: a project's own users never administer it.
  if (decoded.claims.project_id !== INTERNAL_PROJECT_ID) throw new KnownError("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  const [owner, session] = await Promise.all([
    findUserRecord(deps.db, INTERNAL_PROJECT_ID, decoded.claims.sub),
    findLiveSession(deps.db, INTERNAL_PROJECT_ID, decoded.claims.refresh_token_id, decoded.claims.sub, deps.now()),
  ]);
  if (!owner) throw new StatusError(401, "The user of this admin access token no longer exists.");
  // The owner signed out (or was signed out everywhere): the console's admin token ends with the session.
  if (!session) throw new KnownError("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  if (!(await isProjectOwnedByUser(deps.db, project.id, owner.user.id))) throw new KnownError("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  return owner.user.id;
}
