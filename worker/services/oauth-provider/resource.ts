/**
 * RFC 8707 resource indicators: the one API an authorization is for, which becomes its tokens'
 * audience. An absolute URI without a fragment; when the owner lists the project's resources
 * (`doorman.oauthProvider.resources`), one of those exactly; otherwise any https URL, or http on a
 * loopback host (an MCP server under development).
 */
import type { OAuthProviderConfig } from "./config";
import { type ProtocolError, protocolError } from "./protocol-error";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The request's resource (null when none was given), or invalid_target. */
export function checkResource(
  config: OAuthProviderConfig,
  values: readonly string[],
): { ok: true; resource: string | null } | ProtocolError {
  if (values.length === 0) return { ok: true, resource: null };
  // One audience per token: a token good for two APIs is the confusion RFC 8707 exists to prevent.
  if (values.length > 1) return protocolError("invalid_target", "Ask for one resource per authorization.");
  const value = values[0] as string;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return protocolError("invalid_target", "The resource must be an absolute URI.");
  }
  if (value.includes("#")) return protocolError("invalid_target", "The resource must not contain a fragment.");
  if (config.resources.length > 0) {
    if (!config.resources.includes(value)) return protocolError("invalid_target", "This provider does not issue tokens for that resource.");
    return { ok: true, resource: value };
  }
  const secure = url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
  if (!secure || url.username || url.password) return protocolError("invalid_target", "The resource must be an https URL.");
  return { ok: true, resource: value };
}
