/** The wire shape of a user/team API key (wire-protocol.md §2). Reads carry only the last four characters. */
import type { ApiKeyRow } from "../db/queries/api-keys";

/**
 * @param value the full key string: only in the create response (the one time it exists in clear).
 */
export function apiKeyView(row: ApiKeyRow, value?: string) {
  return {
    id: row.id,
    description: row.description,
    is_public: row.isPublic,
    created_at_millis: row.createdAt,
    expires_at_millis: row.expiresAt ?? undefined,
    manually_revoked_at_millis: row.revokedAt ?? undefined,
    value: value ?? { last_four: row.lastFour },
    ...(row.type === "team" ? { type: "team" as const, team_id: row.teamId } : { type: "user" as const, user_id: row.userId }),
  };
}
