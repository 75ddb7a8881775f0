/**
 * A project's custom domain for its hosted pages: read, map (one hostname belongs to one project;
 * concurrent claims are decided by one statement) and remove.
 */
import { hostedHandlerUrl, normaliseCustomHostname } from "@doorman/shared/hosted-pages";
import { claimCustomDomain, findCustomDomainOfProject, releaseCustomDomain } from "../../db/queries/custom-domains";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { hostedPagesOrigin } from "./trust";

export type HostedPagesSettings = { hostedUrl: string; customDomain: string | null };

/** The hosts Doorman itself answers on: a project mapping one would take over the console or the API. */
function reservedHosts(deps: Deps): Set<string> {
  return new Set([new URL(hostedPagesOrigin(deps)).hostname, new URL(deps.apiUrl).hostname]);
}

export async function readHostedPagesSettings(deps: Deps, project: ProjectRow): Promise<HostedPagesSettings> {
  return {
    hostedUrl: hostedHandlerUrl(hostedPagesOrigin(deps), project.id, "sign-in"),
    customDomain: await findCustomDomainOfProject(deps.db, project.id),
  };
}

/** Maps `input` to the project (replacing its previous hostname). */
export async function setCustomDomain(
  deps: Deps,
  project: ProjectRow,
  input: string,
): Promise<{ ok: true; settings: HostedPagesSettings } | Problem<"custom_domain_invalid" | "custom_domain_taken">> {
  const hostname = normaliseCustomHostname(input);
  if (!hostname || reservedHosts(deps).has(hostname)) return fail("custom_domain_invalid", { hostname: input });
  if (!(await claimCustomDomain(deps.db, hostname, project.id, deps.now()))) return fail("custom_domain_taken", { hostname });
  return { ok: true, settings: await readHostedPagesSettings(deps, project) };
}

/** Removes the project's custom domain (none is fine: the answer is the same). */
export async function removeCustomDomain(deps: Deps, project: ProjectRow): Promise<HostedPagesSettings> {
  await releaseCustomDomain(deps.db, project.id);
  return readHostedPagesSettings(deps, project);
}
