/**
 * What the project layout (`/projects/:projectId`) hands its pages: the owned project with its
 * admin app, a way to reload it after a change, and the toast of the console.
 */
import { useOutletContext } from "@remix-run/react";
import type { OwnedProject, OwnerUser } from "./dashboard-types";

export type ProjectContext = {
  project: OwnedProject;
  owner: OwnerUser;
  /** Reloads the project (config, name) after a change, so every page sees the new values. */
  reloadProject(): Promise<OwnedProject>;
  /** A short success message in the console's live region. */
  toast(message: string): void;
};

/** The project of the page, from the project layout. */
export function useProject(): ProjectContext {
  return useOutletContext<ProjectContext>();
}

/** The message of an error thrown by the SDK (known errors carry a readable one). */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
