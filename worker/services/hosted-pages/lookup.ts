/**
 * What the web app needs to render a project's hosted pages, found by project id (on Doorman's
 * origin) or by Host (a custom domain): the theme, the key the pages use, and where they may return.
 */

import { hostedPagesKey } from "../../crypto/hosted-key";
import { findCustomDomainOfProject, findProjectIdByHostname } from "../../db/queries/custom-domains";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { loadProject } from "../seed";
import { isTrustedRedirectUrl } from "./trust";

export type HostedPages = {
  project: ProjectRow;
  publishableClientKey: string;
  customDomain: string | null;
  defaultReturnUrl: string | null;
  returnTo: string | null;
  trustedOrigins: string[];
};

/** The origins of the trusted domains a browser can be sent to as they are (no `*` in host or port). */
function plainOrigins(domains: { domain: string }[]): string[] {
  const origins: string[] = [];
  for (const { domain } of domains) {
    if (domain.includes("*")) continue;
    try {
      origins.push(new URL(domain).origin);
    } catch {
      // Not a URL: it trusts nothing, so it is no origin to return to.
    }
  }
  return origins;
}

export async function lookupHostedPages(
  deps: Deps,
  input: { projectId?: string; host?: string; returnTo?: string },
): Promise<{ ok: true; pages: HostedPages } | Problem<"hosted_project_not_found">> {
  const projectId = input.projectId ?? (input.host ? await findProjectIdByHostname(deps.db, input.host.toLowerCase()) : null);
  const project = projectId ? await loadProject(deps, projectId) : null;
  if (!project) return fail("hosted_project_not_found", { projectId: input.projectId ?? null });
  const config = readProjectConfig(project.config);
  const [customDomain, publishableClientKey, returnTrusted] = await Promise.all([
    findCustomDomainOfProject(deps.db, project.id),
    hostedPagesKey(deps.tokenKeys.secret, project.id),
    // An untrusted after_auth_return_to is dropped here, so the pages never follow it.
    input.returnTo ? isTrustedRedirectUrl(deps, project, input.returnTo) : Promise.resolve(false),
  ]);
  const origins = plainOrigins(config.domains);
  const first = config.domains.find((d) => !d.domain.includes("*") && origins.includes(safeOrigin(d.domain)));
  return {
    ok: true,
    pages: {
      project,
      publishableClientKey,
      customDomain,
      defaultReturnUrl: first ? first.domain : null,
      returnTo: returnTrusted && input.returnTo ? input.returnTo : null,
      trustedOrigins: origins,
    },
  };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}
