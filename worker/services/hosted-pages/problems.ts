/**
 * The hosted pages' problem reasons: a slice of ProblemFields (services/result.ts), mapped by
 * `hostedPagesProblems` in worker/http/problems/hosted-pages.ts.
 */

export type HostedPagesProblemFields = {
  /** Not a hostname a project can map (a URL, an IP, localhost, Doorman's own host, …). */
  custom_domain_invalid: { hostname: string };
  /** Another project already maps this hostname. */
  custom_domain_taken: { hostname: string };
  /** No project with this id, or no project maps this hostname. */
  hosted_project_not_found: { projectId: string | null };
};
