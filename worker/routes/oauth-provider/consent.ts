/**
 * /oauth-provider/authorization-requests (issue 30): the consent page's API. The hosted page reads
 * a pending authorization request (the app, the scopes, the user's teams, whether it may approve at
 * once) and answers it; both answers give the browser the app's redirect URI to go to.
 */

import {
  oauthApproveBodySchema,
  oauthAuthorizationRequestSchema,
  oauthDenyBodySchema,
  oauthRedirectSchema,
} from "@doorman/shared/wire-oauth-provider";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { approveAuthorizationRequest, denyAuthorizationRequest, viewAuthorizationRequest } from "../../services/oauth-provider/consent";

// The consent page acts for the person in the browser: their session, through the project's client key.
const access = ["client"] as const;
const params = z.strictObject({ requestId: z.string().min(1).max(256) });

const view = defineRoute({
  method: "get",
  path: "/{requestId}",
  summary: "Doorman: a pending authorization request of a third-party app, as the consent page shows it",
  description:
    "The app (name, logo, links, how it was registered), the scopes (standard ones with `description` null, custom ones with the owner's sentence), the resource, the user's teams when the app asks for one, and whether the page may approve at once (`consent_required` false: a remembered consent covers it and prompt has no `consent`) or must sign the user in again first (`reauthentication_required`: prompt=login, or the session is older than max_age).",
  access,
  user: true,
  params,
  response: oauthAuthorizationRequestSchema,
  errors: ["OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND"],
});

const approve = defineRoute({
  method: "post",
  path: "/{requestId}/approve",
  summary: "Doorman: approve a pending authorization request (the app gets a one-time code)",
  description:
    "Issues the code (valid 60 s) and remembers the consent. `team_id` is required when the app asks for a team (one of the user's teams), unless a remembered consent names one. Answers the app's redirect URI with `code`, `state` and `iss` (RFC 9207). Of two concurrent answers only one succeeds.",
  access,
  user: true,
  params,
  body: oauthApproveBodySchema,
  response: oauthRedirectSchema,
  errors: ["OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND", "OAUTH_TEAM_REQUIRED", "TEAM_MEMBERSHIP_NOT_FOUND", "OAUTH_REAUTHENTICATION_REQUIRED"],
});

const deny = defineRoute({
  method: "post",
  path: "/{requestId}/deny",
  summary: "Doorman: deny a pending authorization request (the app gets an error)",
  description:
    "Answers the app's redirect URI with `error` (access_denied by default), `state` and `iss`. Without a session only a prompt=none request can be answered (login_required); any other needs the user (CANNOT_GET_OWN_USER_WITHOUT_USER), so the page sends the person to sign in.",
  access,
  params,
  body: oauthDenyBodySchema,
  response: oauthRedirectSchema,
  errors: ["OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND", "CANNOT_GET_OWN_USER_WITHOUT_USER"],
});

export const oauthConsentRoutes = routeGroup();
addRoute(oauthConsentRoutes, view, async (c, { auth, params }) => {
  const { view } = unwrap(await viewAuthorizationRequest(c.get("deps"), auth.project, auth, params.requestId));
  return c.json({
    id: view.id,
    client: view.client,
    scopes: view.scopes,
    resource: view.resource,
    redirect_uri: view.redirectUri,
    team_requested: view.teamRequested,
    teams: view.teams.map((t) => ({ id: t.id, display_name: t.displayName })),
    prompt: view.prompt,
    consent_required: view.consentRequired,
    reauthentication_required: view.reauthenticationRequired,
    expires_at_millis: view.expiresAt,
  });
});
addRoute(oauthConsentRoutes, approve, async (c, { auth, params, body }) => {
  const result = unwrap(await approveAuthorizationRequest(c.get("deps"), auth.project, auth, params.requestId, body.team_id));
  return c.json({ redirect_url: result.redirectUrl });
});
addRoute(oauthConsentRoutes, deny, async (c, { auth, params, body }) => {
  const result = unwrap(await denyAuthorizationRequest(c.get("deps"), auth.project, auth.user, params.requestId, body.error));
  return c.json({ redirect_url: result.redirectUrl });
});
