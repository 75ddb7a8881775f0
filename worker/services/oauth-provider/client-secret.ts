/**
 * Client ids and secrets of registered clients: `dmc_` + 24 random characters for the id, and
 * `dmcs_` + 43 random characters (215 bits) for the secret, which is shown once and stored as its
 * SHA-256 (hex) with its first characters for display. `clientSecretMatches` is the one comparison.
 */
import { constantTimeEqual, sha256Hex } from "../../crypto/hash";
import type { OAuthClientRow } from "../../db/queries/oauth-clients";
import type { Deps } from "../deps";

export const CLIENT_ID_PREFIX = "dmc_";
export const CLIENT_SECRET_PREFIX = "dmcs_";
/** How much of a secret is kept in the clear: the prefix and 4 characters, enough to tell two apart. */
const SHOWN_LENGTH = 9;

export function newClientId(deps: Deps): string {
  return `${CLIENT_ID_PREFIX}${deps.random.code(24)}`;
}

/** A new secret with what is stored of it. */
export async function newClientSecret(deps: Deps): Promise<{ secret: string; hash: string; prefix: string }> {
  const secret = `${CLIENT_SECRET_PREFIX}${deps.random.code(43)}`;
  // Why SHA-256 and not a slow hash: the secret is 215 random bits, so a fast hash cannot be brute-forced.
  return { secret, hash: await sha256Hex(secret), prefix: secret.slice(0, SHOWN_LENGTH) };
}

/** Whether `presented` is the client's current secret (false for a client without one). */
export async function clientSecretMatches(client: Pick<OAuthClientRow, "secretHash">, presented: string): Promise<boolean> {
  if (!client.secretHash) return false;
  // Constant-time comparison of the hashes: the time taken says nothing about how much matched.
  return constantTimeEqual(await sha256Hex(presented), client.secretHash);
}
