/**
 * Doorman as an OpenID provider, the user's side (issue 30): what the consent page needs to show
 * a third-party app's authorization request and answer it, and the apps a user authorized (listed
 * and revoked in account settings). The page then sends the browser to the answer's `redirectUrl`.
 */
import type { RequestOptions } from "../interface/http";
import type { Result } from "../interface/result";
import type { OAuthAppJson, OAuthAuthorizationRequestJson, OAuthAuthorizedAppJson, OAuthRedirectJson } from "../shared/wire-oauth-provider";
import type { AppCore } from "./app-core";
import { camelKeys } from "./case";
import { asResult } from "./email-auth";

type Requester = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** A third-party app as its users see it. `source`: "console" (the project registered it), "dynamic" or "metadata_document" (it registered itself: its name is its own claim). */
export type OAuthApp = {
  clientId: string;
  name: string;
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  source: OAuthAppJson["source"];
};

/** A pending authorization request, as the consent page shows it. */
export type OAuthAuthorizationRequest = {
  id: string;
  client: OAuthApp;
  /** Standard scopes have `description` null (the page words them); custom ones carry the owner's sentence. */
  scopes: { name: string; description: string | null }[];
  /** The API the tokens will be for (RFC 8707), or null. */
  resource: string | null;
  redirectUri: string;
  /** The app asks for a token bound to one of the user's `teams`. */
  teamRequested: boolean;
  teams: { id: string; displayName: string }[];
  prompt: string[];
  /** False: a remembered consent covers this request; it may be approved at once. */
  consentRequired: boolean;
  /** The app asked for a fresher sign-in than the current session (prompt=login, max_age). */
  reauthenticationRequired: boolean;
  expiresAt: Date;
};

/** An app the user authorized. */
export type AuthorizedApp = {
  client: OAuthApp;
  scopes: string[];
  teamId: string | null;
  authorizedAt: Date;
  /** When the app last used its access (null: never yet). */
  lastUsedAt: Date | null;
};

export type OAuthDenyError =
  | "access_denied"
  | "login_required"
  | "consent_required"
  | "interaction_required"
  | "account_selection_required";

const REQUESTS = "/oauth-provider/authorization-requests/";
const APPS = "/oauth-provider/authorized-apps";

/** @internal GET the request as the signed-in user. */
export function getAuthorizationRequest(app: AppCore, id: string): Promise<Result<OAuthAuthorizationRequest>> {
  return asResult(async () => {
    const json = await app._userRequest<OAuthAuthorizationRequestJson>(REQUESTS + encodeURIComponent(id));
    const { expiresAtMillis, ...request } = camelKeys<Omit<OAuthAuthorizationRequest, "expiresAt"> & { expiresAtMillis: number }>(json);
    return { ...request, expiresAt: new Date(expiresAtMillis) };
  });
}

/** @internal Approves or denies; the answer is where the browser goes next. */
export function answerAuthorizationRequest(
  app: AppCore,
  id: string,
  answer: "approve" | "deny",
  body: { team_id?: string; error?: OAuthDenyError },
): Promise<Result<{ redirectUrl: string }>> {
  return asResult(async () => {
    const r = await app._userRequest<OAuthRedirectJson>(`${REQUESTS}${encodeURIComponent(id)}/${answer}`, { body });
    return { redirectUrl: r.redirect_url };
  });
}

type AuthorizedAppFields = Omit<AuthorizedApp, "authorizedAt" | "lastUsedAt"> & {
  authorizedAtMillis: number;
  lastUsedAtMillis: number | null;
};

/** @internal The user's authorized apps, oldest first. */
export async function listAuthorizedApps(request: Requester): Promise<AuthorizedApp[]> {
  const list = await request<{ items: OAuthAuthorizedAppJson[] }>(APPS);
  return camelKeys<AuthorizedAppFields[]>(list.items).map(({ authorizedAtMillis, lastUsedAtMillis, ...a }) => ({
    ...a,
    authorizedAt: new Date(authorizedAtMillis),
    lastUsedAt: lastUsedAtMillis === null ? null : new Date(lastUsedAtMillis),
  }));
}

/** @internal Revokes an app: its consent and every grant of the user (its tokens stop working). */
export async function revokeAuthorizedApp(request: Requester, clientId: string): Promise<void> {
  await request(`${APPS}/${encodeURIComponent(clientId)}`, { method: "DELETE" });
}
