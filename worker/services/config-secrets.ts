/**
 * Secrets inside a project's config (OAuth client secrets, the SMTP password): sealed with
 * AES-256-GCM (crypto/at-rest.ts, key derived from SERVER_SECRET) before the config reaches D1,
 * opened only where they are used (sending mail, talking to the provider), and never shown on reads.
 */
import { decryptAtRest, encryptAtRest } from "../crypto/at-rest";
import type { Deps } from "../lib/context";
import type { ProjectConfig, ProjectConfigUpdate } from "./project-config";

/** A sealed value in the stored config: `sealed:v1.<iv>.<data>`. */
const SEALED_PREFIX = "sealed:";

function isSealed(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

async function seal(deps: Deps, plain: string): Promise<string> {
  return `${SEALED_PREFIX}${await encryptAtRest(deps.tokenKeys.secret, plain)}`;
}

/** Seals a secret submitted in a config override (always anew, for the reason in sealSubmitted). */
export const sealConfigValue = seal;

/**
 * The clear value of a stored config secret; null when it cannot be opened (sealed under a
 * secret that is gone). A value without the prefix is a config written before sealing existed.
 */
export async function openConfigSecret(deps: Deps, stored: string | undefined): Promise<string | null> {
  if (stored === undefined) return null;
  if (!isSealed(stored)) return stored;
  const secrets = [deps.tokenKeys.secret, deps.tokenKeys.previousSecret ?? ""].filter(Boolean);
  return decryptAtRest(secrets, stored.slice(SEALED_PREFIX.length));
}

/** Seals a submitted value; a stored one (kept because the update omitted it) is resealed only if still clear. */
async function sealSubmitted(deps: Deps, submitted: string | undefined, stored: string | undefined): Promise<string | undefined> {
  // Why: a submitted value is always sealed anew, even one that looks sealed, so no one can plant
  // another project's sealed blob and have the worker open it toward a server of their choice.
  if (submitted !== undefined) return seal(deps, submitted);
  if (stored === undefined) return undefined;
  return isSealed(stored) ? stored : seal(deps, stored);
}

/**
 * The submitted part of a config, with every secret in it sealed, ready to merge and store. Only
 * submitted fields are touched: stored ones are sealed already. Secrets are write-only on the wire,
 * so a submitted provider without `client_secret` keeps the stored one of the same id and type,
 * and a standard email config without `password` keeps the stored password.
 */
export async function sealConfigSecrets(
  deps: Deps,
  update: ProjectConfigUpdate | undefined,
  previous: ProjectConfig | null,
): Promise<ProjectConfigUpdate | undefined> {
  if (!update) return update;
  const sealed: ProjectConfigUpdate = { ...update };
  if (update.oauth_providers)
    sealed.oauth_providers = await Promise.all(
      update.oauth_providers.map(async (p) => {
        const before = previous?.oauth_providers.find((o) => o.id === p.id && o.type === p.type);
        const client_secret = await sealSubmitted(deps, p.client_secret, before?.client_secret);
        return client_secret === undefined ? p : { ...p, client_secret };
      }),
    );
  if (update.email_config?.type === "standard") {
    const before = previous?.email_config.type === "standard" ? previous.email_config.password : undefined;
    sealed.email_config = { ...update.email_config, password: await sealSubmitted(deps, update.email_config.password, before) };
  }
  return sealed;
}

/** The config as read back by admins: the same, without any secret. */
export function withoutConfigSecrets(config: ProjectConfig): ProjectConfig {
  const oauth_providers = config.oauth_providers.map(({ client_secret: _secret, ...p }) => p);
  if (config.email_config.type !== "standard") return { ...config, oauth_providers };
  const { password: _password, ...email } = config.email_config;
  return { ...config, oauth_providers, email_config: email as ProjectConfig["email_config"] };
}
