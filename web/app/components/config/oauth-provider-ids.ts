/** The OAuth providers Doorman can sign in with, by id, with their display names (sdk/src/shared/oauth-providers.ts). */
import { PROVIDER_IDS, PROVIDER_NAMES } from "@doorman/shared/oauth-providers";

export const OAUTH_PROVIDERS = PROVIDER_IDS.map((id) => ({ id, name: PROVIDER_NAMES[id] }));

/** The display name of a provider id (the id itself when unknown). */
export function providerName(id: string): string {
  return PROVIDER_NAMES[id as keyof typeof PROVIDER_NAMES] ?? id;
}
