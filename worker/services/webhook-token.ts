/**
 * The token POST /webhooks/svix-token answers: where the reference hands out a Svix app-portal
 * token, Doorman hands out a short-lived HS256 JWT scoped to one project, accepted as
 * `Authorization: Bearer <token>` by the built-in endpoints and deliveries API (/internal/webhooks).
 */
import { jwtVerify, SignJWT } from "jose";
import type { Deps } from "../lib/context";

const AUDIENCE = "doorman:webhooks";
export const WEBHOOK_TOKEN_TTL_SECONDS = 3600;

const keys = new Map<string, Promise<Uint8Array>>();

/** A key of its own, derived from the server secret, so this token can never pass as an access token or the reverse. */
function tokenKey(secret: string): Promise<Uint8Array> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.digest("SHA-256", new TextEncoder().encode(`doorman-webhooks-token:v1:${secret}`)).then((d) => new Uint8Array(d));
    keys.set(secret, key);
  }
  return key;
}

export async function issueWebhookToken(deps: Deps, projectId: string): Promise<string> {
  const now = Math.floor(deps.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(projectId)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + WEBHOOK_TOKEN_TTL_SECONDS)
    .sign(await tokenKey(deps.tokenKeys.secret));
}

/** The project a valid, unexpired token is scoped to; null otherwise (the previous server secret is accepted during a rotation). */
export async function verifyWebhookToken(deps: Deps, token: string): Promise<string | null> {
  const secrets = [deps.tokenKeys.secret, deps.tokenKeys.previousSecret].filter((s): s is string => Boolean(s));
  for (const secret of secrets) {
    try {
      const { payload } = await jwtVerify(token, await tokenKey(secret), {
        algorithms: ["HS256"],
        audience: AUDIENCE,
        currentDate: new Date(deps.now()),
      });
      if (typeof payload.sub === "string" && payload.sub) return payload.sub;
    } catch {
      // Not signed by this secret, expired or malformed: try the next secret.
    }
  }
  return null;
}
