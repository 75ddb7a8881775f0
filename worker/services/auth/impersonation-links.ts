/**
 * Impersonation links (issue 28): an owner opens the project's own app signed in as one of its
 * users, as Clerk and Stack do. The console asks for a one-time code; the link carries it to the
 * app's handler page (`{first trusted domain}{handler path}/impersonate#code=…`), which redeems it
 * into an impersonation session (is_impersonation, an hour at most).
 *
 * The code is a verification code of purpose "impersonation": only its SHA-256 is stored, it is
 * bound to the project (looked up within it) and the user (in its data), lives five minutes, and
 * is used up by one compare-and-set (used_at IS NULL), so concurrent redemptions yield one session.
 */
import { IMPERSONATION_HANDLER_PAGE } from "@doorman/shared/wire-impersonation";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventFor } from "../events";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { type CodeProblem, issueCode, redeemCode } from "../verification-codes";
import { createSessionForUser, type IpInfo } from "./sessions";

/** Minutes, not days: the link is opened at once by the owner who asked for it. */
export const IMPERSONATION_CODE_TTL_MS = 5 * 60 * 1000;
/** An owner looks around, then ends it (or it runs out): the console's impersonation sessions are as short. */
export const IMPERSONATION_SESSION_MS = 60 * 60 * 1000;

/** The app's page that redeems a code: the first trusted domain with its handler path, or null without one. */
export function impersonationPageUrl(project: ProjectRow, code: string): string | null {
  const first = readProjectConfig(project.config).domains[0];
  if (!first) return null;
  const base = first.domain.replace(/\/+$/, "");
  const path = `/${(first.handler_path || "/handler").replace(/^\/+|\/+$/g, "")}`.replace(/^\/$/, "");
  // In the fragment: never sent to the app's server, so the code reaches no access log or Referer.
  return `${base}${path}/${IMPERSONATION_HANDLER_PAGE}#code=${code}`;
}

export async function createImpersonationLink(
  deps: Deps,
  project: ProjectRow,
  userId: string,
): Promise<{ ok: true; code: string; expiresAt: number; url: string | null } | Problem<"user_not_found">> {
  if (!(await findUserRecord(deps.db, project.id, userId))) return fail("user_not_found");
  const expiresAt = deps.now() + IMPERSONATION_CODE_TTL_MS;
  const issued = await issueCode(
    deps,
    project.id,
    "impersonation",
    { user_id: userId, created_by: deps.audit.actorId },
    IMPERSONATION_CODE_TTL_MS,
    () => eventFor(deps, project.id, "impersonation.link_created", { userId }, { expires_at_millis: expiresAt }),
  );
  return { ok: true, code: issued.code, expiresAt: issued.expiresAt, url: impersonationPageUrl(project, issued.code) };
}

/** Uses up a code of this project and opens its user's impersonation session. */
export async function redeemImpersonationCode(
  deps: Deps,
  project: ProjectRow,
  code: string,
  ipInfo: IpInfo,
): Promise<
  { ok: true; accessToken: string; refreshToken: string; sessionId: string; userId: string } | CodeProblem | Problem<"user_not_found">
> {
  const spent = await redeemCode(deps, project.id, "impersonation", code, true);
  if (!spent.ok) return spent;
  const userId = (spent.row.data as { user_id?: unknown } | null)?.user_id;
  if (typeof userId !== "string") return fail("code_not_found");
  const session = await createSessionForUser(deps, project, userId, {
    expiresInMs: IMPERSONATION_SESSION_MS,
    ipInfo,
    origin: { impersonation: true, via: "link" },
  });
  if (!session.ok) return session;
  return { ok: true, accessToken: session.accessToken, refreshToken: session.refreshToken, sessionId: session.sessionId, userId };
}
