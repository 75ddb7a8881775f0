/**
 * The SDK types the dashboard works with, under the names the dashboard uses.
 */
import type { AdminOwnedProject, CurrentUser, InternalApiKeyFirstView } from "@doorman/sdk";

/** Full values of a freshly created key set (shown once). */
export type FirstViewKeys = InternalApiKeyFirstView;
/** A project owned by the signed-in user, with its admin app. */
export type OwnedProject = AdminOwnedProject;
export type CreatedProject = AdminOwnedProject;
/** The signed-in project owner (the internal project's current user). */
export type OwnerUser = CurrentUser;
