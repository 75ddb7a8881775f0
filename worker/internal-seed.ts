/**
 * The internal project's seed (worker/services/seed.ts): its display name, the fixed ids of its owner
 * team and of its key set, and the public development keys it is seeded with in development (refused
 * as INTERNAL_* keys in production, worker/config.ts). The worker's own: the wire contract
 * (@doorman/shared/constants) keeps only what the SDK and the console use, the project id "internal"
 * and the publishable development key the console falls back to.
 */

export const INTERNAL_PROJECT_DISPLAY_NAME = "Doorman";
export const INTERNAL_OWNER_TEAM_ID = "a23e1b7f-ab18-41fc-9ee6-7a9ca9fa543c";
export const INTERNAL_DEV_KEY_SET_ID = "3142e763-b230-44b5-8636-aa62f7489c26";
export const DEV_SECRET_SERVER_KEY = "this-secret-server-key-is-for-local-development-only";
export const DEV_SUPER_SECRET_ADMIN_KEY = "this-super-secret-admin-key-is-for-local-development-only";
