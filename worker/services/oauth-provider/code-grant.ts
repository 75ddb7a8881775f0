/**
 * grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6, OAuth 2.1): the approved request's
 * code, for the client it was issued to, with the same redirect URI and the PKCE verifier of its
 * challenge. The redemption, the grant, its first refresh token and the `oauth_token.issued` event are
 * one D1 batch behind one compare-and-set: of two concurrent redemptions exactly one wins. A code
 * presented after its redemption revokes the grant it made (RFC 9700 §4.5: someone else has it).
 */
import { sha256Hex } from "../../crypto/hash";
import {
  findAuthorizationRequestByCode,
  type OAuthAuthorizationRequestRow,
  redeemAuthorizationCodeStatement,
} from "../../db/queries/oauth-authorization-requests";
import { findGrant, insertGrantOfRedemptionStatement } from "../../db/queries/oauth-grants";
import { insertFirstRefreshTokenStatement } from "../../db/queries/oauth-refresh-tokens";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";
import { verifyPkce } from "../oauth/pkce";
import type { OAuthClient } from "./clients";
import { revokeGrant } from "./grant-revocation";
import { type ProtocolError, protocolError } from "./protocol-error";
import { providerConfigOf } from "./provider";
import { newRefreshToken } from "./refresh-token-format";
import { grantTokens, type TokenResponseJson } from "./token-response";

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

export type CodeGrantInput = { code?: string; redirectUri?: string; codeVerifier?: string; resource?: string };

const badCode = () => protocolError("invalid_grant", "The authorization code is invalid, expired or already used.");

/** The grant a replayed code made is revoked, with its event (reason code_reuse). */
async function revokeWhatTheCodeMade(deps: Deps, row: OAuthAuthorizationRequestRow): Promise<ProtocolError> {
  const grant = row.grantId ? await findGrant(deps.db, row.projectId, row.grantId) : null;
  if (grant) await revokeGrant(deps, grant, "code_reuse");
  return protocolError("invalid_grant", "The authorization code was already used; the tokens issued with it are revoked.");
}

export async function redeemAuthorizationCode(
  deps: Deps,
  project: ProjectRow,
  client: OAuthClient,
  input: CodeGrantInput,
): Promise<{ ok: true; tokens: TokenResponseJson } | ProtocolError> {
  if (!input.code) return protocolError("invalid_request", "code is required.");
  if (!input.redirectUri) return protocolError("invalid_request", "redirect_uri is required.");
  // Every code was issued for a PKCE challenge, so a missing verifier can never redeem one.
  if (!input.codeVerifier) return protocolError("invalid_grant", "code_verifier is required (PKCE).");
  if (!CODE_VERIFIER.test(input.codeVerifier)) return protocolError("invalid_grant", "code_verifier is malformed.");
  const now = deps.now();
  // Only the code's SHA-256 is stored: a database leak hands out no live code.
  const codeHash = await sha256Hex(input.code);
  const row = await findAuthorizationRequestByCode(deps.db, project.id, codeHash);
  if (!row) return badCode();
  if (row.status === "redeemed") return revokeWhatTheCodeMade(deps, row);
  if (row.status !== "approved" || row.expiresAt <= now || !row.userId || row.authTime === null) return badCode();
  // Another client's code, or another redirect URI: refused without spending the code (its owner may still redeem it).
  if (row.clientId !== client.clientId) return badCode();
  if (row.redirectUri !== input.redirectUri)
    return protocolError("invalid_grant", "redirect_uri differs from the authorization request's.");
  if (input.resource !== undefined && input.resource !== row.resource)
    return protocolError("invalid_target", "resource differs from the authorization request's.");
  if (!(await verifyPkce(input.codeVerifier, row.codeChallenge, "S256")))
    return protocolError("invalid_grant", "The code_verifier does not match the code_challenge.");
  const record = await findUserRecord(deps.db, project.id, row.userId);
  if (!record) return badCode();

  const config = providerConfigOf(project);
  const scopes = row.scope.split(" ");
  const offline = scopes.includes("offline_access");
  const grantId = deps.random.uuid();
  const refresh = offline ? await newRefreshToken(deps) : null;
  const [redeemed, grantInsert] = await deps.db.batch([
    redeemAuthorizationCodeStatement(deps.db, { projectId: project.id, codeHash, grantId, now }),
    insertGrantOfRedemptionStatement(deps.db, row.id, {
      id: grantId,
      projectId: project.id,
      clientId: client.clientId,
      userId: row.userId,
      teamId: row.teamId,
      scope: row.scope,
      resource: row.resource,
      authTime: row.authTime,
      amr: row.amr,
      acr: row.acr,
      createdAt: now,
      lastUsedAt: now,
      // Without offline_access there is no refresh token, so the grant lives as long as its access tokens.
      expiresAt: offline ? now + config.refreshTokenTtlDays * DAY_MS : null,
    }),
    eventIfChangedStatement(
      deps,
      project.id,
      "oauth_token.issued",
      { userId: row.userId, teamId: row.teamId },
      {
        client_id: client.clientId,
        grant_id: grantId,
        grant_type: "authorization_code",
        scope: row.scope,
        ...(row.resource ? { resource: row.resource } : {}),
      },
    ),
    ...(refresh
      ? [insertFirstRefreshTokenStatement(deps.db, { tokenHash: refresh.hash, grantId, projectId: project.id, createdAt: now })]
      : []),
  ]);
  if (redeemed.length === 0) {
    // Lost the compare-and-set: a concurrent redemption won (a replay, so what it made is revoked) or the code expired.
    const after = await findAuthorizationRequestByCode(deps.db, project.id, codeHash);
    return after?.status === "redeemed" ? revokeWhatTheCodeMade(deps, after) : badCode();
  }
  // The user was deleted between the lookup and the batch: nothing was granted.
  if ((grantInsert.meta.changes ?? 0) === 0) return badCode();
  const tokens = await grantTokens(deps, config, {
    projectId: project.id,
    clientId: client.clientId,
    record,
    grantId,
    scope: row.scope,
    resource: row.resource,
    teamId: row.teamId,
    authTime: row.authTime,
    amr: row.amr,
    acr: row.acr,
    nonce: row.nonce,
    refreshToken: refresh?.token ?? null,
  });
  return { ok: true, tokens };
}
