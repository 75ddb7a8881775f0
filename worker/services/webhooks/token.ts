/**
 * The token POST /webhooks/svix-token answers: where the reference hands out a Svix app-portal
 * token, Doorman hands out a short-lived HS256 JWT scoped to one project, accepted as
 * `Authorization: Bearer <token>` by the built-in endpoints and deliveries API (/internal/webhooks).
 * The token is bound to the credential that minted it (the admin key set, or the owner's session),
 * and that credential must still be live on every use.
 */

import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import { jwtVerify, SignJWT } from "jose";
import { verifyAccessToken } from "../../crypto/access-tokens";
import { sha256Hex } from "../../crypto/hash";
import { tokenKeyFor } from "../../crypto/token-key";
import { findValidKeySet } from "../../db/queries/key-sets";
import { isProjectOwnedByUser } from "../../db/queries/projects";
import { findLiveSession } from "../../db/queries/sessions";
import type { Deps } from "../deps";

const AUDIENCE = "doorman:webhooks";
export const WEBHOOK_TOKEN_TTL_SECONDS = 3600;

/** What minted a token: a super-secret admin key, or an owner's admin access token (already checked by the request's auth). */
export type WebhookTokenCredential = { adminKey: string } | { adminAccessToken: string; ownerUserId: string };

/** The claim a token carries about its credential: the admin key's SHA-256, or the owner's session. */
type Binding = { kh: string } | { sid: string; uid: string };

/** A key of its own, derived from the server secret (crypto/token-key.ts). */
function tokenKey(secret: string): Promise<Uint8Array> {
  return tokenKeyFor("webhooks", secret);
}

async function bindingOf(deps: Deps, credential: WebhookTokenCredential): Promise<Binding | null> {
  if ("adminKey" in credential) return { kh: await sha256Hex(credential.adminKey) };
  const decoded = await verifyAccessToken(deps.tokenKeys, credential.adminAccessToken, deps.now());
  return decoded.ok ? { sid: decoded.claims.refresh_token_id, uid: credential.ownerUserId } : null;
}

/** A token for the project, bound to the credential (null when that credential cannot be bound). */
export async function issueWebhookToken(deps: Deps, projectId: string, credential: WebhookTokenCredential): Promise<string | null> {
  const binding = await bindingOf(deps, credential);
  if (!binding) return null;
  const now = Math.floor(deps.now() / 1000);
  return new SignJWT(binding)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(projectId)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + WEBHOOK_TOKEN_TTL_SECONDS)
    .sign(await tokenKey(deps.tokenKeys.secret));
}

// A revoked key set or an ended owner session takes its webhooks tokens with it, at once.
async function bindingIsLive(deps: Deps, projectId: string, payload: Record<string, unknown>): Promise<boolean> {
  const now = deps.now();
  if (typeof payload.kh === "string") return (await findValidKeySet(deps.db, projectId, "admin", payload.kh, now)) !== null;
  if (typeof payload.sid === "string" && typeof payload.uid === "string") {
    if (!(await findLiveSession(deps.db, INTERNAL_PROJECT_ID, payload.sid, payload.uid, now))) return false;
    return isProjectOwnedByUser(deps.db, projectId, payload.uid);
  }
  return false;
}

/**
 * The project a valid, unexpired token is scoped to, while the credential that minted it is still
 * live; null otherwise (the previous server secret is accepted during a rotation).
 */
export async function verifyWebhookToken(deps: Deps, token: string): Promise<string | null> {
  const secrets = [deps.tokenKeys.secret, deps.tokenKeys.previousSecret].filter((s): s is string => Boolean(s));
  for (const secret of secrets) {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, await tokenKey(secret), {
        algorithms: ["HS256"],
        audience: AUDIENCE,
        currentDate: new Date(deps.now()),
      }));
    } catch {
      // Not signed by this secret, expired or malformed: try the next secret.
      continue;
    }
    const projectId = payload.sub;
    if (typeof projectId !== "string" || !projectId) return null;
    return (await bindingIsLive(deps, projectId, payload)) ? projectId : null;
  }
  return null;
}
