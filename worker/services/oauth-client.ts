/** The OAuth client check of /auth/oauth/token: client_id = project (or project#main), client_secret = publishable key. */
import { PUBLIC_CLIENT_SENTINEL } from "../../sdk/src/shared/constants";
import { sha256Hex } from "../crypto/hash";
import { findValidKeySet } from "../db/queries/api-key-sets";
import type { ProjectRow } from "../db/queries/projects";
import type { Deps } from "../lib/context";
import { readProjectConfig } from "./project-config";
import { loadProject } from "./seed";

export type OAuthClientCheck =
  | { ok: true; project: ProjectRow }
  | { ok: false; reason: "invalid_client" | "publishable_key_required"; projectId?: string };

export async function checkOAuthClient(deps: Deps, clientId: string, clientSecret: string | undefined): Promise<OAuthClientCheck> {
  const [projectId, branchId] = clientId.split("#");
  if (!projectId || (branchId !== undefined && branchId !== "main")) return { ok: false, reason: "invalid_client" };
  const project = await loadProject(deps, projectId);
  if (!project) return { ok: false, reason: "invalid_client" };
  if (!clientSecret || clientSecret === PUBLIC_CLIENT_SENTINEL) {
    if (readProjectConfig(project.config).require_publishable_client_key)
      return { ok: false, reason: "publishable_key_required", projectId: project.id };
    return { ok: true, project };
  }
  const key = await findValidKeySet(deps.db, project.id, "publishable", await sha256Hex(clientSecret), deps.now());
  return key ? { ok: true, project } : { ok: false, reason: "invalid_client" };
}
