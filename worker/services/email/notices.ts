/**
 * Security notices to a user's primary email: "password changed" after a change or reset, and
 * "new sign-in" when a sign-in comes from a user agent and country the user never signed in from
 * before. Both run after the response (deps.defer) and only put a row in the outbox: the consumer
 * renders and sends it to the user's primary email as it is then.
 */
import { signInHistory } from "../../db/queries/email-recipients";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { queueBuiltInEmail } from "./outbox";

/** Emails "your password was changed" to the user's primary email, if they have one. */
export async function notifyPasswordChanged(deps: Deps, project: ProjectRow, userId: string): Promise<boolean> {
  const record = await findUserRecord(deps.db, project.id, userId);
  const email = record?.primaryEmail?.value;
  if (!record || !email) return false;
  await queueBuiltInEmail(
    deps,
    project,
    "password_changed",
    { type: "user-primary-email", user_id: userId },
    {
      userDisplayName: record.user.displayName,
    },
  );
  return true;
}

function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * After a sign-in at `signedInAt`: when the user signed in before, but never from this user agent
 * and country (the request's, deps.audit), emails the "new sign-in" notice. The first sign-in
 * (sign-up) sends nothing.
 */
export async function notifyIfNewDevice(deps: Deps, project: ProjectRow, userId: string, signedInAt: number): Promise<boolean> {
  const device = { userAgent: deps.audit.userAgent, countryCode: deps.audit.countryCode };
  const history = await signInHistory(deps.db, project.id, userId, device, signedInAt);
  if (!history.signedInBefore || history.seenDevice) return false;
  const record = await findUserRecord(deps.db, project.id, userId);
  const email = record?.primaryEmail?.value;
  if (!record || !email) return false;
  await queueBuiltInEmail(
    deps,
    project,
    "new_sign_in",
    { type: "user-primary-email", user_id: userId },
    {
      userDisplayName: record.user.displayName,
      // Unknown ones are named in the reader's language when the email is rendered (built-in.ts).
      ...(device.userAgent ? { device: device.userAgent } : {}),
      ...(device.countryCode ? { location: device.countryCode } : {}),
      time: utcTime(signedInAt),
    },
  );
  return true;
}
