/**
 * Which app a client id names: a client the owner registered (or RFC 7591 registered) in D1, or,
 * when the project accepts client ID metadata documents, an https URL whose JSON document is fetched
 * with the webhook URL rules and cached (client-metadata.ts). The one entry point every protocol
 * endpoint uses, so the rules for "is this a client of the project" live in one place.
 */
import { findOAuthClient, type OAuthClientRow } from "../../db/queries/oauth-clients";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";

export type OAuthClient = OAuthClientRow;

/** The client, or null when the project has no such client (an unknown id, or a CIMD URL the project does not accept). */
export async function resolveClient(deps: Deps, project: ProjectRow, clientId: string): Promise<OAuthClient | null> {
  if (clientId.length === 0 || clientId.length > 2048) return null;
  return findOAuthClient(deps.db, project.id, clientId);
}
