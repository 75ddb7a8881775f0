/** Wire and product constants shared by the worker and the SDK (SPEC.md §9, wire-protocol.md §1, §4). */

export const INTERNAL_PROJECT_ID = "internal";
// The internal project's public publishable key in development (the console's fallback, web/app/lib/env.server.ts).
// Its secret and admin keys and seed ids are the worker's (worker/internal-seed.ts): not part of the published SDK.
export const DEV_PUBLISHABLE_CLIENT_KEY = "this-publishable-client-key-is-for-local-development-only";
export const PUBLIC_CLIENT_SENTINEL = "__stack_public_client__";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 70;

export const ACCESS_TOKEN_FRESHNESS_MS = 20_000;
export const DEFAULT_SESSION_EXPIRY_MS = 31_536_000_000; // one year
export const MAX_SESSION_EXPIRY_MS = 367 * 24 * 3600 * 1000;
export const DEFAULT_ACCESS_TOKEN_TTL_S = 600; // 10 minutes
export const MIN_ACCESS_TOKEN_TTL_S = 60; // the SDK breaks under ~45 s
export const REFRESH_COOKIE_MAX_AGE_S = 31_536_000;
export const ACCESS_COOKIE_MAX_AGE_S = 86_400;
export const CACHE_THROTTLE_MS = 300;
export const CACHE_DROP_AFTER_MS = 5_000;
export const NETWORK_RETRY_ATTEMPTS = 5;
export const NETWORK_RETRY_BASE_MS = 1_000;
export const DEFAULT_HANDLER_PATH = "/handler";

// CLI login (wire §5 "CLI auth", SPEC §9).
export const CLI_LOGIN_DEFAULT_EXPIRY_MS = 2 * 3600 * 1000;
export const CLI_LOGIN_MAX_EXPIRY_MS = 24 * 3600 * 1000;
export const CLI_POLL_DEFAULT_WAIT_MS = 2_000;

export const SYSTEM_TEAM_PERMISSIONS = [
  "$update_team",
  "$delete_team",
  "$read_members",
  "$remove_members",
  "$invite_members",
  "$manage_api_keys",
] as const;

// New-device verification (issue 29): the SDK sends its long-lived device token in this header on
// sign-ins, and keeps the one a sign-in answers (`device_token`). Browsers keep it in this cookie.
export const DEVICE_TOKEN_HEADER = "x-doorman-device-token";
export const deviceTokenCookieName = (projectId: string) => `stack-device-${projectId}`;
export const DEVICE_TOKEN_MAX_AGE_S = 400 * 24 * 3600; // the longest a browser keeps a cookie (Chrome caps at 400 days)
