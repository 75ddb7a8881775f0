/**
 * The authorization endpoint's work (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2, OAuth 2.1): check
 * the request, store it as a pending authorization request (10 minutes), and send the browser to the
 * project's consent page. Until the client and its redirect URI are known good, an error is shown to
 * the user and never redirected (RFC 6749 §4.1.2.1: an unchecked redirect would be an open redirector);
 * after, it goes back to the app's redirect URI with `error`, `error_description`, `state` and `iss`.
 */
import { insertAuthorizationRequest } from "../../db/queries/oauth-authorization-requests";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { resolveClient } from "./clients";
import { consentPageUrl } from "./consent-page";
import type { OAuthErrorCode } from "./protocol-error";
import { issuerOf, providerConfigOf } from "./provider";
import { isUsableRedirectUri, matchesRegisteredRedirectUri } from "./redirect-uris";
import { checkResource } from "./resource";
import { checkRequestedScopes } from "./scopes";

/** How long a request waits on the consent page. */
export const AUTHORIZATION_REQUEST_TTL_MS = 10 * 60 * 1000;

export type AuthorizeInput = {
  /** The request's parameters (query or form), first value of each. */
  params: Readonly<Record<string, string | undefined>>;
  /** Names given more than once (RFC 6749 §3.1 forbids repeating a parameter; RFC 8707 lets `resource` repeat). */
  repeated: readonly string[];
  /** Every `resource` value, in order. */
  resources: readonly string[];
};

export type AuthorizeOutcome =
  /** Checked and stored: the browser goes to the consent page. */
  | { kind: "consent"; location: string }
  /** Refused after the client and redirect URI were checked: back to the app with the error. */
  | { kind: "error_redirect"; location: string }
  /** Refused before they were: shown to the user, never redirected. */
  | { kind: "invalid"; description: string };

const PROMPTS = new Set(["none", "login", "consent", "select_account"]);
/** What a stored request may carry: the row is written before anyone signed in, so its size is bounded. */
const MAX_LENGTH: Record<string, number> = { state: 2048, nonce: 512, scope: 2048, prompt: 128, resource: 512, max_age: 9 };
const MAX_REDIRECT_URI = 2048;
/** RFC 7636 §4.2: BASE64URL(SHA-256(verifier)) is 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** `uri` with the response parameters added to its query (RFC 6749 §4.1.2: keeping the query it has). */
export function withResponseParams(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.append(k, v);
  return `${uri}${uri.includes("?") ? "&" : "?"}${query.toString()}`;
}

type Checked = { ok: true } | { ok: false; error: OAuthErrorCode; description: string };
const refuse = (error: OAuthErrorCode, description: string): Checked => ({ ok: false, error, description });

/** The checks that need no client: response type, PKCE, prompt, max_age and unsupported request objects. */
function checkParameters(p: AuthorizeInput["params"], repeated: readonly string[]): Checked {
  const long = Object.keys(MAX_LENGTH).find((name) => (p[name]?.length ?? 0) > (MAX_LENGTH[name] as number));
  if (long) return refuse("invalid_request", `The parameter ${long} is too long.`);
  const again = repeated.find((name) => name !== "resource");
  if (again) return refuse("invalid_request", `The parameter ${again} is repeated.`);
  if (p.request !== undefined) return refuse("request_not_supported", "Request objects are not supported.");
  if (p.request_uri !== undefined) return refuse("request_uri_not_supported", "request_uri is not supported.");
  if (p.registration !== undefined) return refuse("registration_not_supported", "The registration parameter is not supported.");
  if (p.response_type === undefined) return refuse("invalid_request", "response_type is required.");
  // OAuth 2.1: the code flow only. The implicit and hybrid flows put tokens in the browser's address.
  if (p.response_type !== "code") return refuse("unsupported_response_type", "Only response_type=code is supported.");
  if (p.response_mode !== undefined && p.response_mode !== "query")
    return refuse("invalid_request", "Only response_mode=query is supported.");
  // PKCE for every client, confidential or public (RFC 9700 §2.1.1); "plain" would leak the verifier itself.
  if (p.code_challenge === undefined) return refuse("invalid_request", "code_challenge is required (PKCE with S256).");
  if (p.code_challenge_method !== "S256") return refuse("invalid_request", "code_challenge_method must be S256.");
  if (!S256_CHALLENGE.test(p.code_challenge)) return refuse("invalid_request", "code_challenge is not an S256 challenge.");
  if (p.prompt !== undefined) {
    const prompts = p.prompt.split(" ").filter(Boolean);
    if (prompts.some((v) => !PROMPTS.has(v))) return refuse("invalid_request", "prompt has an unknown value.");
    if (prompts.includes("none") && prompts.length > 1)
      return refuse("invalid_request", "prompt=none cannot be combined with other values.");
  }
  if (p.max_age !== undefined && !/^\d{1,9}$/.test(p.max_age)) return refuse("invalid_request", "max_age must be a number of seconds.");
  return { ok: true };
}

export async function startAuthorization(deps: Deps, project: ProjectRow, input: AuthorizeInput): Promise<AuthorizeOutcome> {
  const p = input.params;
  if (input.repeated.includes("client_id") || input.repeated.includes("redirect_uri"))
    return { kind: "invalid", description: "The client_id or redirect_uri parameter is repeated." };
  if (!p.client_id) return { kind: "invalid", description: "The request has no client_id." };
  const client = await resolveClient(deps, project, p.client_id);
  if (!client) return { kind: "invalid", description: "This app is not registered with this provider (unknown client_id)." };
  // OpenID Connect requires redirect_uri; asking for it always keeps the token request's check exact.
  if (!p.redirect_uri) return { kind: "invalid", description: "The request has no redirect_uri." };
  if (p.redirect_uri.length > MAX_REDIRECT_URI) return { kind: "invalid", description: "The redirect_uri is too long." };
  if (!isUsableRedirectUri(p.redirect_uri) || !matchesRegisteredRedirectUri(client.redirectUris, p.redirect_uri))
    return { kind: "invalid", description: "The redirect_uri is not one this app registered." };

  const issuer = issuerOf(deps, project.id);
  const back = (error: OAuthErrorCode, description: string): AuthorizeOutcome => ({
    kind: "error_redirect",
    // RFC 9207: `iss` on every authorization response, so the app can tell which provider answered.
    location: withResponseParams(p.redirect_uri as string, { error, error_description: description, state: p.state, iss: issuer }),
  });

  const config = providerConfigOf(project);
  if (!config.enabled) return back("unauthorized_client", "This provider does not accept apps at the moment.");
  const checked = checkParameters(p, input.repeated);
  if (!checked.ok) return back(checked.error, checked.description);
  const scopes = checkRequestedScopes(client, config, p.scope);
  if (!scopes.ok) return back(scopes.error, scopes.description);
  const resource = checkResource(config, input.resources);
  if (!resource.ok) return back(resource.error, resource.description);

  const now = deps.now();
  const id = deps.random.uuid();
  const prompt = p.prompt?.split(" ").filter(Boolean) ?? [];
  await insertAuthorizationRequest(deps.db, {
    id,
    projectId: project.id,
    clientId: client.clientId,
    redirectUri: p.redirect_uri,
    scope: scopes.scopes.join(" "),
    state: p.state ?? null,
    nonce: p.nonce ?? null,
    codeChallenge: p.code_challenge as string,
    resource: resource.resource,
    prompt: prompt.length ? prompt.join(" ") : null,
    maxAge: p.max_age !== undefined ? Number(p.max_age) : null,
    teamRequested: scopes.scopes.includes("team"),
    status: "pending",
    createdAt: now,
    expiresAt: now + AUTHORIZATION_REQUEST_TTL_MS,
  });
  return { kind: "consent", location: await consentPageUrl(deps, project.id, id) };
}
