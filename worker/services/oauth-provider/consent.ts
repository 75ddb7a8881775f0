/**
 * The consent page's work (issue 30): show a pending authorization request to the signed-in user,
 * approve it (a one-time code for the app, the consent remembered) or deny it. The request id is
 * the capability: it reached this browser through /authorize's redirect and names nothing else.
 */
import { type OAuthAppJson, type OAuthScopeJson, oauthIssuer } from "@doorman/shared/wire-oauth-provider";
import { sha256Hex } from "../../crypto/hash";
import {
  approveAuthorizationRequestStatement,
  denyAuthorizationRequestStatement,
  findPendingAuthorizationRequest,
  type OAuthAuthorizationRequestRow,
} from "../../db/queries/oauth-consent-decisions";
import { findOAuthConsent, type OAuthConsentRow, rememberOAuthConsentStatement } from "../../db/queries/oauth-consents";
import type { ProjectRow } from "../../db/queries/projects";
import { findSession } from "../../db/queries/sessions";
import { listTeamsOfProject } from "../../db/queries/teams";
import type { UserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";
import { renderedConfigOf } from "../project-config/cache";
import { fail, type Problem } from "../result";
import { oauthAppView } from "./app-view";
import { type OAuthClient, resolveClient } from "./clients";
import {
  CODE_TTL_MS,
  consentCovers,
  describeScopes,
  MFA_ACR,
  needsReauthentication,
  redirectWith,
  spaceList,
  unionScopes,
} from "./consent-rules";

export type DenyError = "access_denied" | "login_required" | "consent_required" | "interaction_required" | "account_selection_required";

export type AuthorizationRequestView = {
  id: string;
  client: OAuthAppJson;
  scopes: OAuthScopeJson[];
  resource: string | null;
  redirectUri: string;
  teamRequested: boolean;
  teams: { id: string; displayName: string }[];
  prompt: string[];
  consentRequired: boolean;
  reauthenticationRequired: boolean;
  expiresAt: number;
};

type Pending = { ok: true; request: OAuthAuthorizationRequestRow; client: OAuthClient };
type Signed = { user: UserRecord; sessionId: string | null };

/** The pending request and its app; another project's, expired, answered, or one whose app is gone is "not found". */
async function loadPending(deps: Deps, project: ProjectRow, requestId: string): Promise<Pending | Problem<"oauth_request_not_found">> {
  const request = await findPendingAuthorizationRequest(deps.db, project.id, requestId, deps.now());
  const client = request ? await resolveClient(deps, project, request.clientId) : null;
  return request && client ? { ok: true, request, client } : fail("oauth_request_not_found", { requestId });
}

/** An anonymous user has no account to share with an app: the page treats it as signed out. */
function signedIn(user: UserRecord | null): user is UserRecord {
  return user !== null && !user.user.isAnonymous;
}

/** Everything a signed-in answer reads: the request and its app, the user's teams (when asked for), their consent and session. */
async function loadForUser(deps: Deps, project: ProjectRow, signed: Signed, requestId: string) {
  if (!signedIn(signed.user)) return fail("oauth_consent_user_required");
  const pending = await loadPending(deps, project, requestId);
  if (!pending.ok) return pending;
  const { request } = pending;
  const userId = signed.user.user.id;
  const [teams, consent, session] = await Promise.all([
    request.teamRequested ? listTeamsOfProject(deps.db, project.id, userId) : [],
    findOAuthConsent(deps.db, project.id, userId, request.clientId),
    signed.sessionId ? findSession(deps.db, project.id, signed.sessionId) : null,
  ]);
  return { ...pending, userId, teams, teamIds: teams.map((t) => t.id), consent, session };
}

/** What the consent page shows, and whether it may approve at once or must sign the user in again first. */
export async function viewAuthorizationRequest(
  deps: Deps,
  project: ProjectRow,
  signed: Signed,
  requestId: string,
): Promise<{ ok: true; view: AuthorizationRequestView } | Problem<"oauth_request_not_found" | "oauth_consent_user_required">> {
  const loaded = await loadForUser(deps, project, signed, requestId);
  if (!loaded.ok) return loaded;
  const { request, client, teams, session } = loaded;
  const prompt = spaceList(request.prompt);
  const covered = consentCovers(loaded.consent, request, loaded.teamIds);
  return {
    ok: true,
    view: {
      id: request.id,
      client: oauthAppView(client),
      scopes: describeScopes(request.scope, renderedConfigOf(project).doorman.oauthProvider),
      resource: request.resource,
      redirectUri: request.redirectUri,
      teamRequested: request.teamRequested,
      teams: teams.map((t) => ({ id: t.id, displayName: t.displayName })),
      prompt,
      consentRequired: !covered || prompt.includes("consent"),
      reauthenticationRequired: needsReauthentication(request, session, deps.now()),
      expiresAt: request.expiresAt,
    },
  };
}

export type ApproveProblem = Problem<
  "oauth_request_not_found" | "oauth_consent_user_required" | "oauth_reauthentication_required" | "oauth_team_required" | "team_not_member"
>;

/**
 * Approves: one D1 batch sets the pending request to approved with a fresh code (compare-and-set:
 * of two racing approvals exactly one lands), records oauth_app.authorized, and remembers the
 * consent (union of scopes; the chosen team) only if the approval landed. Answers the app's
 * redirect URI with code, state and iss.
 */
export async function approveAuthorizationRequest(
  deps: Deps,
  project: ProjectRow,
  signed: Signed,
  requestId: string,
  teamId: string | undefined,
): Promise<{ ok: true; redirectUrl: string } | ApproveProblem> {
  const loaded = await loadForUser(deps, project, signed, requestId);
  if (!loaded.ok) return loaded;
  const { request, client, userId, teamIds, consent, session } = loaded;
  // Checked here too, not only by the page: an app's prompt=login / max_age is the server's promise.
  if (!session || needsReauthentication(request, session, deps.now())) return fail("oauth_reauthentication_required");

  let boundTeam: string | null = null;
  if (request.teamRequested) {
    // Without a choice, a remembered consent's team (the page approves at once when nothing changed).
    const chosen = teamId ?? (consentCovers(consent, request, teamIds) ? consent?.teamId : null);
    if (!chosen) return fail("oauth_team_required");
    // Only one of the user's own teams of this project: a token must never speak for a team the user is not in.
    if (!teamIds.includes(chosen)) return fail("team_not_member", { teamId: chosen, userId });
    boundTeam = chosen;
  }

  // Why: the code is a bearer credential; only its SHA-256 is stored (the design's 43 random characters).
  const code = deps.random.code(43);
  const codeHash = await sha256Hex(code);
  const now = deps.now();
  const amr = session.amr ?? null;
  const consentTeam = request.teamRequested ? boundTeam : (consent?.teamId ?? null);
  const remember = (previous: OAuthConsentRow | null) =>
    rememberOAuthConsentStatement(deps.db, {
      projectId: project.id,
      userId,
      clientId: request.clientId,
      scope: unionScopes(previous?.scope ?? null, request.scope),
      teamId: consentTeam,
      now,
      previousScope: previous?.scope ?? null,
      approval: { requestId, codeHash },
    });
  const [approved, , remembered] = await deps.db.batch([
    approveAuthorizationRequestStatement(deps.db, project.id, requestId, now, {
      userId,
      teamId: boundTeam,
      authTime: session.createdAt,
      amr,
      acr: amr?.includes("mfa") ? MFA_ACR : null,
      codeHash,
      codeExpiresAt: now + CODE_TTL_MS,
    }),
    eventIfChangedStatement(
      deps,
      project.id,
      "oauth_app.authorized",
      { userId, teamId: boundTeam },
      {
        client_id: client.clientId,
        client_name: client.name,
        scope: request.scope,
        ...(boundTeam ? { team_id: boundTeam } : {}),
      },
    ),
    remember(consent),
  ]);
  if (approved.length === 0) return fail("oauth_request_not_found", { requestId });
  if (remembered.length === 0) await rememberAgain(deps, project.id, userId, request.clientId, remember);

  const redirectUrl = redirectWith(request.redirectUri, { code, state: request.state, iss: oauthIssuer(deps.apiUrl, project.id) });
  return { ok: true, redirectUrl };
}

/**
 * Another approval of the same app changed the consent between our read and our batch: widen what
 * is there now instead (a few tries; each is a compare-and-set on the scope it read).
 */
async function rememberAgain(
  deps: Deps,
  projectId: string,
  userId: string,
  clientId: string,
  remember: (previous: OAuthConsentRow | null) => ReturnType<typeof rememberOAuthConsentStatement>,
): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await findOAuthConsent(deps.db, projectId, userId, clientId);
    if ((await remember(current)).length > 0) return;
  }
}

/**
 * Denies: the pending request becomes denied (compare-and-set) and the app gets `error` with its
 * state and iss. Without a session only a prompt=none request may be answered (login_required):
 * any other waits for the user to sign in, so a stray page cannot refuse on the user's behalf.
 */
export async function denyAuthorizationRequest(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord | null,
  requestId: string,
  error: DenyError | undefined,
): Promise<{ ok: true; redirectUrl: string } | Problem<"oauth_request_not_found" | "oauth_consent_user_required">> {
  const pending = await loadPending(deps, project, requestId);
  if (!pending.ok) return pending;
  const { request, client } = pending;
  const who = signedIn(user) ? user.user.id : null;
  if (!who && (!spaceList(request.prompt).includes("none") || (error && error !== "login_required"))) {
    return fail("oauth_consent_user_required");
  }
  const answer: DenyError = error ?? (who ? "access_denied" : "login_required");
  const now = deps.now();
  const deny = denyAuthorizationRequestStatement(deps.db, project.id, requestId, now, who);
  const data = { client_id: client.clientId, client_name: client.name, error: answer };
  // The event only when someone refused (and only if this call's compare-and-set landed).
  const [denied] = who
    ? await deps.db.batch([deny, eventIfChangedStatement(deps, project.id, "oauth_app.denied", { userId: who }, data)])
    : [await deny];
  if (denied.length === 0) return fail("oauth_request_not_found", { requestId });
  const redirectUrl = redirectWith(request.redirectUri, { error: answer, state: request.state, iss: oauthIssuer(deps.apiUrl, project.id) });
  return { ok: true, redirectUrl };
}
