/**
 * The hosted pages' publishable client key of a project: `pck_hosted_` + hex HMAC-SHA256 of the
 * project id under the server secret. Hosted pages have no stored key to hand out, so the worker
 * derives one; it is public exactly like any publishable key (every visitor of the pages sees it).
 */
import { constantTimeEqual, toHex } from "./hash";

export const HOSTED_KEY_PREFIX = "pck_hosted_";

const encoder = new TextEncoder();

async function derive(secret: string, projectId: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`doorman-hosted-pages-key:v1:${projectId}`));
  return `${HOSTED_KEY_PREFIX}${toHex(mac)}`;
}

/** The key the hosted pages of `projectId` use (derived from the current server secret). */
export function hostedPagesKey(secret: string, projectId: string): Promise<string> {
  return derive(secret, projectId);
}

/** True when `value` is the hosted-pages key of this project under the current or the previous secret. */
export async function isHostedPagesKey(
  keys: { secret: string; previousSecret?: string },
  projectId: string,
  value: string,
): Promise<boolean> {
  if (!value.startsWith(HOSTED_KEY_PREFIX)) return false;
  // Constant-time comparison: the key must not be guessable byte by byte from response times.
  if (constantTimeEqual(value, await derive(keys.secret, projectId))) return true;
  return keys.previousSecret !== undefined && constantTimeEqual(value, await derive(keys.previousSecret, projectId));
}
