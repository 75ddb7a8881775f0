/**
 * Payments customers (issue 15): users, teams, or custom ids an owner chooses. A customer's
 * existence and when it began (the anchor of its items' default repeats), and what a client may
 * read: its own user, and teams it is a member of.
 */
import type { CustomerType } from "@doorman/shared/wire-payments";
import { teamCreatedAt, userSignedUpAt } from "../../db/queries/payments";
import type { ProjectRow } from "../../db/queries/projects";
import { isTeamMember } from "../../db/queries/teams";
import type { Deps } from "../deps";
import { renderedConfigOf } from "../project-config/cache";
import type { PaymentsConfig } from "./config";

export type Customer = { projectId: string; customerType: CustomerType; customerId: string };

/** The project's payments config (items, offers, groups, test mode), rendered from its overrides. */
export function readPaymentsConfig(project: ProjectRow): PaymentsConfig {
  return renderedConfigOf(project).payments;
}

/**
 * When the customer began, or null when there is no such customer. A custom customer exists as
 * soon as it is named (the owner's own id); its defaults run from the project's creation.
 */
export async function customerSince(deps: Deps, project: ProjectRow, c: Customer): Promise<number | null> {
  if (c.customerType === "user") return userSignedUpAt(deps.db, project.id, c.customerId);
  if (c.customerType === "team") return teamCreatedAt(deps.db, project.id, c.customerId);
  return project.createdAt;
}

/** May a client signed in as `userId` read or buy for this customer? Its own user and its teams only. */
export async function clientMayAccess(deps: Deps, userId: string | null, c: Customer): Promise<boolean> {
  if (userId === null) return false;
  if (c.customerType === "user") return c.customerId === userId;
  if (c.customerType === "team") return isTeamMember(deps.db, c.customerId, userId);
  // Custom customers are the owner's back end's business: never a client's.
  return false;
}
