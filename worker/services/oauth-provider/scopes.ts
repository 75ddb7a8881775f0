/**
 * Scopes of a request: parsing (RFC 6749 §3.3: space-separated scope tokens) and the check that each
 * is one the project offers and the client may ask for (invalid_scope otherwise).
 */
import type { OAuthClient } from "./clients";
import type { OAuthProviderConfig } from "./config";
import { type ProtocolError, protocolError } from "./protocol-error";
import { offeredScopes } from "./provider";

/** RFC 6749 §3.3's scope-token: printable ASCII without space, double quote and backslash. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/;
/** More scopes than anyone asks for is a malformed request, not a list to walk. */
const MAX_SCOPES = 60;

/** The distinct scopes of a scope parameter, in the order given; null when malformed. */
export function parseScope(raw: string | undefined): string[] | null {
  if (raw === undefined) return [];
  const scopes = [...new Set(raw.split(" ").filter((s) => s !== ""))];
  if (scopes.length > MAX_SCOPES || !scopes.every((s) => SCOPE_TOKEN.test(s))) return null;
  return scopes;
}

/** The requested scopes when every one is offered by the project and allowed to the client. */
export function checkRequestedScopes(
  client: OAuthClient,
  config: OAuthProviderConfig,
  raw: string | undefined,
): { ok: true; scopes: string[] } | ProtocolError {
  const scopes = parseScope(raw);
  if (scopes === null) return protocolError("invalid_scope", "The scope parameter is malformed.");
  const offered = new Set(offeredScopes(config));
  const unknown = scopes.filter((s) => !offered.has(s));
  if (unknown.length) return protocolError("invalid_scope", `This provider does not offer the scope ${unknown[0]}.`);
  // null = the client may ask for every scope the project offers.
  const allowed = client.allowedScopes ? new Set(client.allowedScopes) : offered;
  const refused = scopes.filter((s) => !allowed.has(s));
  if (refused.length) return protocolError("invalid_scope", `This client may not ask for the scope ${refused[0]}.`);
  return { ok: true, scopes };
}

/** A narrower scope for a refresh (RFC 6749 §6): every scope must be within what was granted. */
export function narrowScope(granted: string, raw: string | undefined): { ok: true; scope: string } | ProtocolError {
  if (raw === undefined) return { ok: true, scope: granted };
  const asked = parseScope(raw);
  if (asked === null) return protocolError("invalid_scope", "The scope parameter is malformed.");
  const grantedSet = new Set(granted.split(" "));
  const beyond = asked.filter((s) => !grantedSet.has(s));
  if (beyond.length) return protocolError("invalid_scope", `The scope ${beyond[0]} was not granted.`);
  return { ok: true, scope: asked.join(" ") };
}
