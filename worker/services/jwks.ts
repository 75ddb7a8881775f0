/**
 * A project's public signing keys as a JWKS (/projects/{id}/.well-known/jwks.json): one key per
 * audience, for the current server secret and the previous one while tokens signed with it live.
 */
import type { JwksJson } from "../../sdk/src/shared/wire-misc";
import { getSigningKey } from "../crypto/signing-keys";
import type { Deps } from "../lib/context";
import { loadProject } from "./seed";

/** Which tokens' keys to include besides the project's own: anonymous users' implies restricted users'. */
export type JwksOptions = { includeAnonymous: boolean; includeRestricted: boolean };

/** The JWKS of a project, or null when there is no such project. */
export async function projectJwks(deps: Deps, projectId: string, options: JwksOptions): Promise<JwksJson | null> {
  const project = await loadProject(deps, projectId);
  if (!project) return null;
  const audiences = [project.id];
  // include_anonymous implies restricted (wire §4).
  if (options.includeRestricted || options.includeAnonymous) audiences.push(`${project.id}:restricted`);
  if (options.includeAnonymous) audiences.push(`${project.id}:anon`);
  const secrets = [deps.tokenKeys.secret, ...(deps.tokenKeys.previousSecret ? [deps.tokenKeys.previousSecret] : [])];
  const keys: JwksJson["keys"] = [];
  for (const secret of secrets) {
    for (const aud of audiences) {
      const key = await getSigningKey(secret, aud);
      keys.push({ ...key.publicJwk, alg: "ES256", kid: key.kid, use: "sig" } as JwksJson["keys"][number]);
    }
  }
  return { keys };
}
