/** The wire view of a session (wire-protocol.md §2). */
import type { SessionJson } from "@doorman/shared/wire";
import type { SessionRow } from "../db/queries/sessions";

export function sessionView(row: SessionRow, currentSessionId: string | null): SessionJson {
  return {
    id: row.id,
    user_id: row.userId,
    created_at: row.createdAt,
    is_impersonation: row.isImpersonation,
    last_used_at: row.lastUsedAt,
    is_current_session: row.id === currentSessionId,
    last_used_at_end_user_ip_info: (row.lastIpInfo as Record<string, unknown> | null) ?? undefined,
  };
}
