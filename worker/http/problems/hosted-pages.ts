/** The wire errors of the hosted pages' problems (custom domains, the public hosted-pages lookup). */
import { KnownError } from "@doorman/shared/known-errors";
import type { HostedPagesProblemFields } from "../../services/hosted-pages/problems";
import type { ProblemMap } from "../../services/result";

export const hostedPagesProblems = {
  custom_domain_invalid: (p) => new KnownError("CUSTOM_DOMAIN_INVALID", { hostname: p.hostname }),
  custom_domain_taken: (p) => new KnownError("CUSTOM_DOMAIN_TAKEN", { hostname: p.hostname }),
  hosted_project_not_found: (p) => new KnownError("PROJECT_NOT_FOUND", { project_id: p.projectId }),
} satisfies ProblemMap<keyof HostedPagesProblemFields>;
