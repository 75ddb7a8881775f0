/** The API-key types the React layer relies on: slices of the SDK's `ApiKey` objects and their owners. */
import type { ApiKey, ApiKeyFirstView, CurrentUser, UserTeam } from "../index";

export type ReactApiKey = Pick<
  ApiKey,
  "id" | "description" | "isPublic" | "createdAt" | "expiresAt" | "manuallyRevokedAt" | "value" | "whyInvalid" | "revoke"
>;

/** The create response: the full key, shown once. */
export type ReactApiKeyFirstView = Pick<ApiKeyFirstView, Exclude<keyof ReactApiKey, "value"> | "value">;

/** A user or a team: anything that lists and creates API keys. */
export type ReactApiKeyOwner = Pick<CurrentUser, "createApiKey" | "listApiKeys"> | Pick<UserTeam, "createApiKey" | "listApiKeys">;
