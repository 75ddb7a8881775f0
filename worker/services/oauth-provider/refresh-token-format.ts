/** The provider's refresh tokens: `dmrt_` + 43 random characters; only their SHA-256 is stored. */
import { sha256Hex } from "../../crypto/hash";
import type { Deps } from "../deps";

export const REFRESH_TOKEN_PREFIX = "dmrt_";

/** A new refresh token and the hash D1 keeps (a database leak hands out no live token). */
export async function newRefreshToken(deps: Deps): Promise<{ token: string; hash: string }> {
  const token = `${REFRESH_TOKEN_PREFIX}${deps.random.code(43)}`;
  return { token, hash: await sha256Hex(token) };
}

/** Whether a presented token has the refresh tokens' shape (a hint for introspection and revocation). */
export function looksLikeRefreshToken(token: string): boolean {
  return token.startsWith(REFRESH_TOKEN_PREFIX) && token.length <= 64;
}
