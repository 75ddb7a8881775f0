/** The OAuth client check of /auth/oauth/token: client_id = project (or project#main), client_secret = publishable key. */
import { PUBLIC_CLIENT_SENTINEL } from "@doorman/shared/constants";
import { sha256Hex } from "../../crypto/hash";
import { findValidKeySet } from "../../db/queries/key-sets";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { loadProject } from "../seed";

export type OAuthClientCheck = { ok: true; project: ProjectRow } | Problem<"invalid_oauth_client" | "publishable_key_required">;

export async function checkOAuthClient(deps: Deps, clientId: string, clientSecret: string | undefined): Promise<OAuthClientCheck> {
  const invalid = fail("invalid_oauth_client", { clientId });
  const [projectId, branchId] = clientId.split("#");
  if (!projectId || (branchId !== undefined && branchId !== "main")) return invalid;
  const project = await loadProject(deps, projectId);
  if (!project) return invalid;
  if (!clientSecret || clientSecret === PUBLIC_CLIENT_SENTINEL) {
    if (readProjectConfig(project.config).require_publishable_client_key)
      return fail("publishable_key_required", { projectId: project.id });
    return { ok: true, project };
  }
  const key = await findValidKeySet(deps.db, project.id, "publishable", await sha256Hex(clientSecret), deps.now());
  return key ? { ok: true, project } : invalid;
}
