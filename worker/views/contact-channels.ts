/** The wire view of a contact channel (wire-protocol.md §2). */
import type { ContactChannelJson } from "@doorman/shared/wire";
import type { ContactChannelRow } from "../db/queries/contact-channels";

export function contactChannelView(row: ContactChannelRow): ContactChannelJson {
  return {
    user_id: row.userId,
    id: row.id,
    value: row.value,
    type: row.type,
    used_for_auth: row.usedForAuth,
    is_verified: row.isVerified,
    is_primary: row.isPrimary,
  };
}
