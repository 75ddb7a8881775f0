/** The OAuth client check of /auth/oauth/authorize and /auth/oauth/token: client_id = project (or project#main), client_secret = publishable key. */
import { PUBLIC_CLIENT_SENTINEL } from "@doorman/shared/constants";
import { sha256Hex } from "../../crypto/hash";
import { isHostedPagesKey } from "../../crypto/hosted-key";
import { findValidKeySet } from "../../db/queries/key-sets";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { loadProject } from "../seed";

export type OAuthClientCheck =
  | { ok: true; project: ProjectRow }
  | Problem<"invalid_oauth_client" | "publishable_key_required" | "invalid_publishable_key">;

/**
 * `wrongKey`: what a known project with a wrong client_secret answers. The authorize step names the
 * key (INVALID_PUBLISHABLE_CLIENT_KEY, as the wire); the token endpoint keeps OAuth's invalid client.
 */
export async function checkOAuthClient(
  deps: Deps,
  clientId: string,
  clientSecret: string | undefined,
  wrongKey: "invalid_oauth_client" | "invalid_publishable_key" = "invalid_oauth_client",
): Promise<OAuthClientCheck> {
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
  if (await isHostedPagesKey(deps.tokenKeys, project.id, clientSecret)) return { ok: true, project };
  const key = await findValidKeySet(deps.db, project.id, "publishable", await sha256Hex(clientSecret), deps.now());
  if (key) return { ok: true, project };
  return wrongKey === "invalid_publishable_key" ? fail("invalid_publishable_key", { projectId: project.id }) : invalid;
}
