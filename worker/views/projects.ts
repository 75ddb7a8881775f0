/** Wire views of projects and their key sets (wire-protocol.md §2). Outputs never carry secrets. */
import type { BotChallengeClientJson, KeySetJson, ProjectAdminJson, ProjectClientJson } from "@doorman/shared/wire";
import type { KeySetRow } from "../db/queries/key-sets";
import type { ProjectRow } from "../db/queries/projects";
import { renderedConfigOf } from "../services/project-config/cache";
import { readProjectConfig } from "../services/project-config/flat";
import { withoutConfigSecrets } from "../services/project-config/secrets";
import { BOT_CHALLENGE_FLOWS } from "../services/protection/config";

/** The Turnstile widget a client renders: public keys only (the secret never leaves the worker), null without both keys. */
function botChallengeView(project: ProjectRow, scriptUrl: string): BotChallengeClientJson | null {
  const turnstile = renderedConfigOf(project).doorman.protection.turnstile;
  if (!turnstile.siteKey || !turnstile.secretKey) return null;
  const flows = { signUp: "sign_up", signIn: "sign_in", otp: "otp", oauth: "oauth" } as const;
  return {
    site_key: turnstile.siteKey,
    invisible_site_key: turnstile.invisibleSiteKey ?? turnstile.siteKey,
    mode: turnstile.mode,
    script_url: scriptUrl,
    required_flows: BOT_CHALLENGE_FLOWS.filter((flow) => turnstile.require[flow]).map((flow) => flows[flow]),
  };
}

/** The client view; `turnstileScriptUrl` is the deployment's widget script (deps.config.turnstile.scriptUrl). */
export function projectClientView(project: ProjectRow, turnstileScriptUrl: string): ProjectClientJson {
  const config = readProjectConfig(project.config);
  return {
    id: project.id,
    display_name: project.displayName,
    config: {
      sign_up_enabled: config.sign_up_enabled,
      credential_enabled: config.credential_enabled,
      magic_link_enabled: config.magic_link_enabled,
      passkey_enabled: config.passkey_enabled,
      client_team_creation_enabled: config.client_team_creation_enabled,
      client_user_deletion_enabled: config.client_user_deletion_enabled,
      allow_user_api_keys: config.allow_user_api_keys,
      allow_team_api_keys: config.allow_team_api_keys,
      enabled_oauth_providers: config.oauth_providers.map(({ id }) => ({ id })),
      domains: config.domains,
      bot_challenge: botChallengeView(project, turnstileScriptUrl),
    },
  };
}

/** The project as its admins read it. Config secrets are write-only: never echoed, not even sealed. */
export function projectAdminView(project: ProjectRow): ProjectAdminJson {
  const raw = readProjectConfig(project.config);
  const config = withoutConfigSecrets(raw);
  // Whether a secret is stored (never the secret): the console shows "stored" only when one is.
  const hasSecret = new Set(raw.oauth_providers.filter((p) => p.client_secret).map((p) => p.id));
  const hasPassword = raw.email_config.type === "standard" && Boolean(raw.email_config.password);
  // Doorman extension: whether a Turnstile secret key is stored (never the key), for the console's Protection page.
  const hasTurnstileSecretKey = Boolean(renderedConfigOf(project).doorman.protection.turnstile.secretKey);
  return {
    id: project.id,
    display_name: project.displayName,
    description: project.description,
    logo_url: project.logoUrl ?? null,
    logo_full_url: project.fullLogoUrl ?? null,
    logo_dark_mode_url: null,
    logo_full_dark_mode_url: null,
    created_at_millis: project.createdAt,
    is_production_mode: project.isProductionMode,
    owner_team_id: project.ownerTeamId ?? null,
    onboarding_status: project.onboardingStatus,
    config: {
      ...config,
      oauth_providers: config.oauth_providers.map((p) => ({ provider_config_id: p.id, ...p, has_client_secret: hasSecret.has(p.id) })),
      enabled_oauth_providers: config.oauth_providers.map(({ id }) => ({ id })),
      email_config: config.email_config.type === "standard" ? { ...config.email_config, has_password: hasPassword } : config.email_config,
      has_turnstile_secret_key: hasTurnstileSecretKey,
    },
  };
}

type KeyValues = { publishable?: string; secret?: string; admin?: string };

/** Full key values appear only in the create response; reads show the last four characters. */
export function keySetView(row: KeySetRow, full?: KeyValues): KeySetJson {
  const show = (value: string | undefined, lastFour: string | null) => (value ? value : lastFour ? { last_four: lastFour } : undefined);
  return {
    id: row.id,
    description: row.description,
    expires_at_millis: row.expiresAt,
    created_at_millis: row.createdAt,
    manually_revoked_at_millis: row.revokedAt ?? undefined,
    publishable_client_key: show(full?.publishable, row.publishableLastFour),
    secret_server_key: show(full?.secret, row.secretLastFour),
    super_secret_admin_key: show(full?.admin, row.adminLastFour),
  };
}
