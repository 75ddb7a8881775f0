/**
 * Provider tokens at rest: OAuth access/refresh tokens from providers are sealed (AES-256-GCM,
 * key derived from SERVER_SECRET) before they reach D1, and opened only when needed.
 */
import { encryptAtRest, openSealed } from "../../crypto/at-rest";
import type { Deps } from "../deps";

/** Seals a provider token for storage. Why: a database leak must not hand out live provider tokens. */
export function sealProviderToken(deps: Deps, plain: string): Promise<string> {
  return encryptAtRest(deps.tokenKeys.secret, plain);
}

/** Opens a sealed provider token with the current secret, then the previous one (rotation); null if neither works. */
export function openProviderToken(deps: Deps, sealed: string): Promise<string | null> {
  return openSealed(deps.tokenKeys, sealed);
}
