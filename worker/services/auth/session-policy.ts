/**
 * The project's session policy (config `doorman.sessions`, 0 = no limit): an idle timeout and an
 * absolute lifetime, enforced on refresh (and the lifetime on every request with an access token),
 * and a maximum number of sessions per user, the oldest ended first when a new one is created.
 */
import { NO_SESSION_LIMITS, type SessionLimits } from "../../db/queries/sessions";
import type { FlatProjectConfig } from "../project-config/flat";

/** The policy as times for the refresh statements: live sessions were last used after idleSince and created after bornAfter. */
export function sessionLimits(config: FlatProjectConfig, now: number): SessionLimits {
  const idle = config.session_idle_timeout_minutes;
  const max = config.session_max_lifetime_minutes;
  if (!idle && !max) return NO_SESSION_LIMITS;
  return { idleSince: idle ? now - idle * 60_000 : -1, bornAfter: max ? now - max * 60_000 : -1 };
}

/** Is a session of this age and last use still live under the policy? (The rotation path checks in code.) */
export function withinSessionLimits(limits: SessionLimits, session: { createdAt: number; lastUsedAt: number }): boolean {
  return session.lastUsedAt > limits.idleSince && session.createdAt > limits.bornAfter;
}
