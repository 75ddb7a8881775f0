/** Small checks and formats shared by the Teams pages of the console. */
import type { OwnedProject } from "../../lib/dashboard-types";
import { projectEmailLink } from "../../lib/project-links";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Team names: 1 to 256 characters (the API's limits). */
export function teamNameProblem(name: string): string | null {
  if (!name.trim()) return "Please enter a team name.";
  if (name.trim().length > 256) return "At most 256 characters.";
  return null;
}

/** User ids are UUIDs; an empty optional id is fine. */
export function userIdProblem(id: string, optional = false): string | null {
  if (!id.trim()) return optional ? null : "Please enter a user id.";
  return UUID.test(id.trim()) ? null : "A user id looks like 123e4567-e89b-12d3-a456-426614174000.";
}

export function emailProblem(email: string): string | null {
  if (!email.trim()) return "Please enter an email address.";
  return EMAIL.test(email.trim()) ? null : "That does not look like an email address.";
}

export function urlProblem(url: string): string | null {
  if (!url.trim()) return "Please enter the URL of your app's team-invitation page.";
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? null : "Use an http(s) URL.";
  } catch {
    return "Enter a full URL, like https://app.example.com/handler/team-invitation.";
  }
}

/** The team-invitation page of the project's first trusted domain, else the project's hosted one. */
export function defaultInvitationUrl(project: OwnedProject, hostedOrigin?: string): string {
  return projectEmailLink(project, "team-invitation", hostedOrigin);
}
