/**
 * private_key_jwt (RFC 7523 §2.2, §3; OpenID Connect Core §9): the client proves itself with a JWT it
 * signed with one of its registered keys. iss = sub = its client id, aud = the token endpoint or the
 * issuer (or the endpoint called), exp at most 5 minutes ahead, and a jti used once: recorded with an
 * insert-or-conflict in D1, so a replay finds it taken even when both requests arrive together.
 */
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from "jose";
import { recordClientAssertionJti } from "../../db/queries/oauth-client-assertions";
import type { Deps } from "../deps";
import { clientKeys } from "./client-jwks";
import type { OAuthClient } from "./clients";
import { type ProtocolError, protocolError } from "./protocol-error";

export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/** Asymmetric algorithms only: client_secret_jwt (HMAC) is not offered, and "none" never. */
export const CLIENT_ASSERTION_ALGORITHMS = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"];
/** An assertion lives at most this long: a captured one is worthless soon. */
export const MAX_ASSERTION_LIFETIME_S = 300;
/** Clock skew tolerated between the client and Doorman. */
const CLOCK_TOLERANCE_S = 30;

/** The client id an assertion claims to come from (its unverified `sub`), or null when it is no JWT. */
export function assertionSubject(assertion: string): string | null {
  if (assertion.length > 16_384) return null;
  try {
    decodeProtectedHeader(assertion);
    const claims = decodeJwt(assertion);
    return typeof claims.sub === "string" ? claims.sub : null;
  } catch {
    return null;
  }
}

const invalid = (why: string) => protocolError("invalid_client", `The client assertion was refused: ${why}.`);

/** Verifies `assertion` for `client`; `audiences` are the URLs it may be addressed to. */
export async function verifyClientAssertion(
  deps: Deps,
  projectId: string,
  client: OAuthClient,
  assertion: string,
  audiences: string[],
): Promise<{ ok: true } | ProtocolError> {
  let keys = await clientKeys(deps, projectId, client);
  if (!keys.ok) return invalid(keys.message);
  const now = deps.now();
  let payload: Awaited<ReturnType<typeof jwtVerify>>["payload"] | undefined;
  for (let attempt = 0; attempt < 2 && !payload; attempt++) {
    try {
      ({ payload } = await jwtVerify(assertion, keys.keys, {
        issuer: client.clientId,
        subject: client.clientId,
        audience: audiences,
        algorithms: CLIENT_ASSERTION_ALGORITHMS,
        requiredClaims: ["exp", "jti"],
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(now),
      }));
    } catch (err) {
      // A key id the cached set lacks: the client may have rotated its keys since they were fetched.
      if (attempt === 0 && err instanceof errors.JWKSNoMatchingKey && keys.fetchedAt !== null) {
        keys = await clientKeys(deps, projectId, client, { fresh: true });
        if (!keys.ok) return invalid(keys.message);
        continue;
      }
      return invalid(err instanceof errors.JOSEError ? err.code : "it is not a valid JWT");
    }
  }
  if (!payload) return invalid("no key of the client verifies it");
  const exp = payload.exp as number;
  // RFC 7523 §3: the server may refuse assertions that live unreasonably long; a short life limits replay.
  if (exp - Math.floor(now / 1000) > MAX_ASSERTION_LIFETIME_S + CLOCK_TOLERANCE_S) return invalid("its exp is more than 5 minutes ahead");
  const jti = payload.jti as string;
  if (typeof jti !== "string" || jti.length === 0 || jti.length > 256) return invalid("its jti is missing or too long");
  // Single use: the insert decides, so two requests with one assertion never both pass.
  const first = await recordClientAssertionJti(deps.db, {
    projectId,
    clientId: client.clientId,
    jti,
    expiresAt: (exp + CLOCK_TOLERANCE_S) * 1000,
  });
  if (!first) return invalid("its jti was already used");
  return { ok: true };
}
