/**
 * Client authentication at the token, introspection and revocation endpoints (RFC 6749 §2.3,
 * OpenID Connect Core §9): client_secret_basic, client_secret_post, private_key_jwt (RFC 7523) and
 * none (a public client names itself; PKCE protects its codes). A request uses exactly one method,
 * and it must be the one the client registered: a confidential client cannot downgrade to "none".
 */
import { constantTimeEqual, sha256Hex } from "../../crypto/hash";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { assertionSubject, CLIENT_ASSERTION_TYPE, verifyClientAssertion } from "./client-assertion";
import { type OAuthClient, resolveClient } from "./clients";
import { type ProtocolError, protocolError } from "./protocol-error";
import { endpointUrl, issuerOf } from "./provider";

/** What a request carries that may authenticate a client. */
export type ClientCredentials = {
  /** The Authorization header, as sent. */
  authorization?: string;
  clientId?: string;
  clientSecret?: string;
  clientAssertionType?: string;
  clientAssertion?: string;
};

export type AuthMethod = "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";

/** The endpoint being called: its URL is an audience a client assertion may name. */
export type ClientAuthEndpoint = "token" | "introspection" | "revocation";

export type AuthenticatedClient = { ok: true; client: OAuthClient; method: AuthMethod };

/** RFC 6749 §2.3.1: client id and secret are form-urlencoded, then joined with ":" and base64-encoded. */
export function parseBasicAuthorization(header: string): { clientId: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(atob(match[1] as string), (c) => c.charCodeAt(0)),
    );
  } catch {
    return null;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  try {
    const form = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { clientId: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

const refused = (description: string) => protocolError("invalid_client", description);

/** Which one method the request uses, with the client id it names; invalid_request/invalid_client when it is not exactly one. */
function methodOf(creds: ClientCredentials): { method: AuthMethod; clientId: string; secret?: string; assertion?: string } | ProtocolError {
  const basicHeader = creds.authorization && /^basic\s/i.test(creds.authorization) ? creds.authorization : undefined;
  const used = [basicHeader !== undefined, creds.clientSecret !== undefined, creds.clientAssertion !== undefined].filter(Boolean).length;
  // RFC 6749 §2.3: a client must not use more than one authentication method in a request.
  if (used > 1) return protocolError("invalid_request", "Use one client authentication method per request.");
  if (basicHeader !== undefined) {
    const basic = parseBasicAuthorization(basicHeader);
    if (!basic) return refused("The Authorization header is not valid Basic credentials.");
    if (creds.clientId !== undefined && creds.clientId !== basic.clientId)
      return protocolError("invalid_request", "client_id differs from the Authorization header's.");
    return { method: "client_secret_basic", clientId: basic.clientId, secret: basic.secret };
  }
  if (creds.clientAssertion !== undefined) {
    if (creds.clientAssertionType !== CLIENT_ASSERTION_TYPE)
      return protocolError("invalid_request", `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}.`);
    const subject = assertionSubject(creds.clientAssertion);
    if (subject === null) return refused("The client assertion is not a JWT with a sub.");
    if (creds.clientId !== undefined && creds.clientId !== subject)
      return protocolError("invalid_request", "client_id differs from the client assertion's subject.");
    return { method: "private_key_jwt", clientId: subject, assertion: creds.clientAssertion };
  }
  if (!creds.clientId) return refused("The request does not say which client it is (no client authentication).");
  if (creds.clientSecret !== undefined) return { method: "client_secret_post", clientId: creds.clientId, secret: creds.clientSecret };
  return { method: "none", clientId: creds.clientId };
}

/** Authenticates the calling client of `project`; invalid_client (401) for any failure, without saying which part was wrong. */
export async function authenticateClient(
  deps: Deps,
  project: ProjectRow,
  creds: ClientCredentials,
  endpoint: ClientAuthEndpoint,
): Promise<AuthenticatedClient | ProtocolError> {
  const used = methodOf(creds);
  if ("ok" in used) return used;
  const client = await resolveClient(deps, project, used.clientId);
  if (!client) return refused("Client authentication failed.");
  if (client.tokenEndpointAuthMethod !== used.method)
    return refused(`This client authenticates with ${client.tokenEndpointAuthMethod}, not ${used.method}.`);
  if (used.method === "client_secret_basic" || used.method === "client_secret_post") {
    // Constant-time comparison of the secret's SHA-256 with the stored one: timing tells nothing about it.
    const presented = await sha256Hex(used.secret ?? "");
    if (!client.secretHash || !constantTimeEqual(presented, client.secretHash)) return refused("Client authentication failed.");
  } else if (used.method === "private_key_jwt") {
    const audiences = [
      ...new Set([endpointUrl(deps, project.id, "token"), issuerOf(deps, project.id), endpointUrl(deps, project.id, endpoint)]),
    ];
    const verified = await verifyClientAssertion(deps, project.id, client, used.assertion as string, audiences);
    if (!verified.ok) return verified;
  } else if (client.clientType !== "public") {
    return refused("A confidential client must authenticate.");
  }
  return { ok: true, client, method: used.method };
}
