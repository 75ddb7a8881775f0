/**
 * Links the console puts in a project's emails (sign-in invitations, team invitations): the app's
 * handler page on its first trusted domain, else the project's hosted page (projectPageUrl decides).
 */
import { projectPageUrl } from "@doorman/shared/hosted-pages";
import type { OwnedProject } from "./dashboard-types";

/** The page `page` of the project for an email link; the console runs on Doorman's web origin. */
export function projectEmailLink(
  project: Pick<OwnedProject, "id" | "config">,
  page: string,
  hostedOrigin: string = typeof window !== "undefined" ? window.location.origin : "",
): string {
  return projectPageUrl({ projectId: project.id, domains: project.config.domains, hostedOrigin }, page);
}
