/** Why a user is restricted (wire §2 restricted_reason): anonymous, restricted by an admin, or an unverified email. */
import type { RestrictedReason } from "../crypto/access-tokens";
import type { UserRecord } from "../db/queries/users";
import type { FlatProjectConfig } from "./project-config/flat";

export function restrictedReasonOf(record: UserRecord, config: FlatProjectConfig): RestrictedReason | null {
  if (record.user.isAnonymous) return { type: "anonymous" };
  // The reference's order: an unverified email first, since the user can fix that one.
  if (config.require_email_verification && !record.primaryEmail?.isVerified) return { type: "email_not_verified" };
  if (record.user.restrictedByAdmin) return { type: "restricted_by_administrator" };
  return null;
}
