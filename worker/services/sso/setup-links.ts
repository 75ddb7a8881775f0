/**
 * Self-serve setup links (issue 31, ADMIN): a team's admin or the project's owner hands the
 * customer's IT admin (who has no account) a link to the hosted `sso-setup` page. Its token rides in
 * the URL's fragment, and the page sends it in SSO_SETUP_TOKEN_HEADER: it grants the SSO management
 * routes on that one team until it expires (7 days unless asked, 30 at most). Stored as a
 * verification code of purpose "sso_setup_link": only its SHA-256.
 */
import { DEFAULT_HANDLER_PATH } from "@doorman/shared/constants";
import { hostedHandlerUrl } from "@doorman/shared/hosted-pages";
import { SSO_SETUP_LINK_DEFAULT_TTL_MS, SSO_SETUP_PAGE } from "@doorman/shared/wire-sso";
import { sha256Hex } from "../../crypto/hash";
import { findCustomDomainOfProject } from "../../db/queries/custom-domains";
import type { ProjectRow } from "../../db/queries/projects";
import { SSO_SETUP_LINK_PURPOSE } from "../../db/queries/sso-setup-links";
import type { TeamRow } from "../../db/queries/users";
import { insertCodeStatement } from "../../db/queries/verification-codes";
import type { Deps } from "../deps";
import { eventStatement } from "../events";
import { hostedPagesOrigin } from "../hosted-pages/trust";
import { fail, type Problem } from "../result";
import { checkSsoTeamAccess, type SsoAccessProblem, type SsoManager, setupLinkManager } from "./access";

/** Where the link opens: the project's hosted pages (its custom domain's when it maps one). */
async function setupPageUrl(deps: Deps, projectId: string): Promise<string> {
  const custom = await findCustomDomainOfProject(deps.db, projectId);
  if (custom) return `https://${custom}${DEFAULT_HANDLER_PATH}/${SSO_SETUP_PAGE}`;
  return hostedHandlerUrl(hostedPagesOrigin(deps), projectId, SSO_SETUP_PAGE);
}

export async function createSsoSetupLink(
  deps: Deps,
  project: ProjectRow,
  teamId: string,
  manager: SsoManager,
  expiresInMs: number = SSO_SETUP_LINK_DEFAULT_TTL_MS,
): Promise<{ ok: true; value: { url: string; expiresAt: number } } | SsoAccessProblem> {
  // A link never makes another: its holder's access must end when the link does.
  if (manager.kind === "setup_link") return fail("sso_setup_link_invalid");
  const access = await checkSsoTeamAccess(deps, project.id, teamId, manager);
  if (!access.ok) return access;
  // 224 random bits; only the hash is stored, so a database leak hands out no working link.
  const token = deps.random.code(45);
  const hash = await sha256Hex(token);
  const now = deps.now();
  const expiresAt = now + expiresInMs;
  const id = deps.random.uuid();
  await deps.db.batch([
    insertCodeStatement(deps.db, {
      id,
      projectId: project.id,
      purpose: SSO_SETUP_LINK_PURPOSE,
      codeHash: hash,
      nonceHash: hash,
      data: { team_id: teamId, created_by: deps.audit.actorId },
      createdAt: now,
      expiresAt,
    }),
    eventStatement(deps, project.id, "sso_setup_link.created", { teamId }, { setup_link_id: id, expires_at_millis: expiresAt }),
  ]);
  // In the fragment: browsers never send it to a server, so it reaches no access log and no Referer.
  return { ok: true, value: { url: `${await setupPageUrl(deps, project.id)}#token=${token}`, expiresAt } };
}

/** The team a setup link's token opens, for the setup page's heading. */
export async function readSsoSetupLink(
  deps: Deps,
  projectId: string,
  token: string,
): Promise<{ ok: true; value: { team: TeamRow; expiresAt: number } } | SsoAccessProblem | Problem<"sso_setup_link_invalid">> {
  const link = await setupLinkManager(deps, projectId, token);
  if (!link.ok) return link;
  const access = await checkSsoTeamAccess(deps, projectId, link.manager.teamId, link.manager);
  if (!access.ok) return access;
  return { ok: true, value: { team: access.team, expiresAt: link.manager.expiresAt } };
}
