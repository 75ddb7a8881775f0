/**
 * The bounds of every outbound call of an OIDC connection (issue 31, FLOW): discovery, the key set and
 * the token endpoint are the customer's servers, so each call has the OAuth provider calls' time limits
 * (OAUTH_TIMEOUT_MS, config.outbound.oauth) and a small body cap (these are a few KiB of JSON).
 */
import type { OutboundBounds } from "../../../lib/outbound-fetch";
import type { Deps } from "../../deps";

/** Discovery documents, key sets and token answers are a few KiB; 64 KiB leaves room for large key sets. */
export const OIDC_MAX_BODY_BYTES = 64 * 1024;

export function oidcBounds(deps: Deps): OutboundBounds {
  const oauth = deps.config.outbound.oauth;
  return { ...oauth, maxBodyBytes: Math.min(oauth.maxBodyBytes, OIDC_MAX_BODY_BYTES) };
}

/** A JSON object from a bounded answer, or null (not JSON, or not an object). */
export function parseJsonObject(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
