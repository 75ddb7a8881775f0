/**
 * Authenticating a request while D1 is away (the design: session-mirror.ts). request-auth.ts calls
 * authRowsSurvivingOutage around its D1 lookup: on a D1 failure or stall the project row and key
 * come from the last-known-good copy (last-known-auth.ts), and the signed-in user is known only by
 * the access token's verified claims (`degraded`). Routes that need the user then answer the known
 * 503, except those declared `answersDegraded` (/users/me where the project allows it, sign-out).
 */
import type { AccessTokenClaims } from "../../crypto/access-tokens";
import type { AuthRows } from "../../db/queries/auth-lookup";
import type { KeyKind } from "../../db/queries/key-sets";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { databaseUnavailable, isD1Failure, noteD1Down, withD1Deadline } from "./deadline";
import { lastKnownAuthRows, noteAuthRows } from "./last-known-auth";

/** The response header of an answer made from the access token's claims while D1 was away. */
export const DEGRADED_HEADER = "x-doorman-degraded";
export const DEGRADED_D1 = "d1-unavailable";

/** The part of a RequestAuth read here (request-auth.ts imports this module: no cycle back). */
type DegradableAuth = { type: string; project: ProjectRow; degraded?: AccessTokenClaims | null };

/** Rows read while D1 was away: the user was not read (the token's claims stand in). */
export type OutageAuthRows = AuthRows & { outage?: true };

export async function authRowsSurvivingOutage(
  deps: Deps,
  args: { projectId: string; key: { kind: KeyKind; hash: string } | null },
  lookup: () => Promise<AuthRows>,
): Promise<OutageAuthRows> {
  try {
    const rows = await withD1Deadline(lookup);
    if (rows.project) noteAuthRows(deps, rows.project, args.key, rows.keyValid);
    return rows;
  } catch (err) {
    if (!isD1Failure(err)) throw err;
    noteD1Down(deps);
    console.warn(`auth lookup of project ${args.projectId}: ${String(err)}; using the last-known-good copy`);
    const known = await lastKnownAuthRows(deps, args.projectId, args.key).catch(() => null);
    if (!known) throw databaseUnavailable();
    return { project: known.project, keyValid: known.keyValid, user: null, outage: true };
  }
}

/** The signed-in user as the access token says, on a request authenticated while D1 was away (null otherwise). */
export function degradedClaims(auth: DegradableAuth): AccessTokenClaims | null {
  return auth.degraded ?? null;
}

/**
 * /users/me from the token's claims, only where the project allows it (`degraded_reads_from_token`),
 * in the client view; otherwise the known 503 (a back end's server view needs fields no token carries).
 * The fields the token does not carry are their empty values.
 */
export function degradedMe(auth: DegradableAuth): { body: Record<string, unknown>; headers: Record<string, string> } {
  const claims = degradedClaims(auth);
  if (!claims || auth.type !== "client" || !readProjectConfig(auth.project.config).degraded_reads_from_token) throw databaseUnavailable();
  const body = {
    id: claims.sub,
    display_name: claims.name,
    primary_email: claims.email,
    primary_email_verified: claims.email_verified,
    selected_team_id: claims.selected_team_id,
    selected_team: null,
    signed_up_at_millis: claims.signed_up_at * 1000,
    is_anonymous: claims.is_anonymous,
    is_restricted: claims.is_restricted,
    restricted_reason: claims.restricted_reason,
    restricted_by_admin: claims.restricted_reason?.type === "restricted_by_administrator",
    restricted_by_admin_reason: null,
    requires_totp_mfa: claims.requires_totp_mfa,
    profile_image_url: null,
    client_metadata: null,
    client_read_only_metadata: null,
    has_password: false,
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    auth_with_email: claims.email !== null,
    oauth_providers: [],
  };
  return { body, headers: { [DEGRADED_HEADER]: DEGRADED_D1 } };
}
