/**
 * The account lockout's email: when an account's password sign-in closes for the rest of its hour
 * (SIGN_IN_PER_EMAIL, 100 failures from all addresses), its owner hears about it once per window,
 * with the ways in that still work (emailed code, passkey, OAuth). Runs after the response.
 */
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecordByAuthEmail } from "../../db/queries/users";
import type { Deps } from "../deps";
import { queueBuiltInEmail } from "../email/outbox";
import { eventStatement } from "../events";
import { readProjectConfig } from "../project-config/flat";
import { ruleLimit } from "../rate-limit";

/** Emails the locked account's owner (nothing when no user has this sign-in email). */
export async function notifyAccountLockout(deps: Deps, project: ProjectRow, email: string): Promise<boolean> {
  const record = await findUserRecordByAuthEmail(deps.db, project.id, email);
  if (!record) return false;
  const limit = ruleLimit(deps, "SIGN_IN_PER_EMAIL", { id: project.id, limits: readProjectConfig(project.config).rate_limits });
  const windowMs = (limit?.seconds ?? 3600) * 1000;
  const now = deps.now();
  const until = new Date(Math.floor(now / windowMs) * windowMs + windowMs).toISOString().slice(0, 16).replace("T", " ");
  await eventStatement(deps, project.id, "sign_in.locked_out", { userId: record.user.id });
  await queueBuiltInEmail(
    deps,
    project,
    "sign_in_locked",
    { type: "user-primary-email", user_id: record.user.id },
    { userDisplayName: record.user.displayName, time: `${until} UTC` },
    // Why not the request's language: whoever typed the wrong passwords is not the reader.
    null,
  );
  return true;
}
