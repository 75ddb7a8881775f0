/**
 * The apps a user authorized (issue 30): listed in account settings with what they may do and when
 * they last used it, and revoked there. Revoking forgets the consent (the next sign-in asks again)
 * and revokes every grant the user gave the app, in one batch.
 */
import type { OAuthAppJson } from "@doorman/shared/wire-oauth-provider";
import { expireApprovedCodesStatement } from "../../db/queries/oauth-consent-decisions";
import {
  deleteOAuthConsentStatement,
  findOAuthConsent,
  listOAuthConsentsOfUser,
  revokeGrantsOfConsentStatement,
} from "../../db/queries/oauth-consents";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";
import { fail, type Problem } from "../result";
import { oauthAppView } from "./app-view";
import { resolveClient } from "./clients";
import { spaceList } from "./consent-rules";

/** More than anyone authorizes by hand; bounds the list (and its client lookups) per request. */
const MAX_APPS = 200;

export type AuthorizedApp = {
  client: OAuthAppJson;
  scopes: string[];
  teamId: string | null;
  authorizedAt: number;
  lastUsedAt: number | null;
};

/** The user's authorized apps, oldest first; an app the project no longer has is left out. */
export async function listAuthorizedApps(deps: Deps, project: ProjectRow, userId: string): Promise<AuthorizedApp[]> {
  const rows = await listOAuthConsentsOfUser(deps.db, project.id, userId, MAX_APPS);
  const apps = await Promise.all(
    rows.map(async ({ consent, lastUsedAt }) => {
      const client = await resolveClient(deps, project, consent.clientId);
      if (!client) return null;
      return {
        client: oauthAppView(client),
        scopes: spaceList(consent.scope),
        teamId: consent.teamId,
        authorizedAt: consent.createdAt,
        lastUsedAt: lastUsedAt ?? null,
      };
    }),
  );
  return apps.filter((a): a is AuthorizedApp => a !== null);
}

/**
 * Revokes an app: the consent goes, every live grant of the user for it is revoked (reason "user";
 * its refresh tokens stop working), and its codes not yet redeemed expire; oauth_app.revoked is
 * written only if this call removed the consent. An app the user never authorized is not found.
 */
export async function revokeAuthorizedApp(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  clientId: string,
): Promise<{ ok: true } | Problem<"oauth_authorized_app_not_found">> {
  // Nothing to revoke: answered before any client lookup (which may fetch a metadata document).
  if (!(await findOAuthConsent(deps.db, project.id, userId, clientId))) return fail("oauth_authorized_app_not_found", { clientId });
  const client = await resolveClient(deps, project, clientId);
  const now = deps.now();
  const [deleted] = await deps.db.batch([
    deleteOAuthConsentStatement(deps.db, project.id, userId, clientId),
    eventIfChangedStatement(deps, project.id, "oauth_app.revoked", { userId }, { client_id: clientId, client_name: client?.name ?? null }),
    revokeGrantsOfConsentStatement(deps.db, project.id, userId, clientId, now),
    expireApprovedCodesStatement(deps.db, project.id, userId, clientId, now),
  ]);
  return deleted.length > 0 ? { ok: true } : fail("oauth_authorized_app_not_found", { clientId });
}
