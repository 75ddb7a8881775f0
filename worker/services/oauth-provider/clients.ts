/**
 * Which app a client id names: a client the owner registered (or RFC 7591 registered) in D1, or,
 * when the project accepts client ID metadata documents, an https URL whose JSON document is fetched
 * with the webhook URL rules and cached (client-metadata.ts). The one entry point every protocol
 * endpoint uses, so the rules for "is this a client of the project" live in one place.
 */
import { findOAuthClient, type OAuthClientRow } from "../../db/queries/oauth-clients";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { renderedConfigOf } from "../project-config/cache";
import { metadataDocumentUrl, resolveMetadataDocumentClient } from "./client-metadata";
import { allowsLocalUrls } from "./client-rules";

export type OAuthClient = OAuthClientRow;

/**
 * The client, or null when the project has no such client: an unknown id, a metadata document URL
 * while the project does not accept them, or a document that could not be fetched or was refused
 * (resolveMetadataDocumentClient says why). The protocol endpoints answer null as invalid_client.
 */
export async function resolveClient(deps: Deps, project: ProjectRow, clientId: string): Promise<OAuthClient | null> {
  if (clientId.length === 0 || clientId.length > 2048) return null;
  const url = metadataDocumentUrl(clientId, { development: allowsLocalUrls(deps.config.environment, project) });
  if (!url) {
    const row = await findOAuthClient(deps.db, project.id, clientId);
    // A cached document answers only through the document rules below (a project that left development mode, say).
    return row?.source === "metadata_document" ? null : row;
  }
  // Turning documents off stops the cached ones at once, too.
  if (!renderedConfigOf(project).doorman.oauthProvider.clientIdMetadataDocuments) return null;
  const resolved = await resolveMetadataDocumentClient(deps, project, url);
  return resolved.ok ? resolved.value : null;
}
