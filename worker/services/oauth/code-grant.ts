/**
 * The authorization-code grant of POST /auth/oauth/token: a single-use outer code, bound to
 * its redirect URI and PKCE challenge. A replayed code revokes the session it granted
 * (ASVS 10.4.2: a code seen twice was intercepted, so whatever it bought is not trusted).
 */
import { sha256Hex } from "../../crypto/hash";
import type { ProjectRow } from "../../db/queries/projects";
import { deleteSession } from "../../db/queries/sessions";
import { findUserRecord, type UserRecord } from "../../db/queries/users";
import { setCodeDataKey } from "../../db/queries/verification-codes";
import { type IpInfo, mintAccessToken } from "../auth/sessions";
import { finishFirstFactor } from "../auth/sign-in";
import type { MfaRequired, SignInTokens } from "../auth/sign-in-tokens";
import type { Deps } from "../deps";
import { endMirroredSessions } from "../outage/session-mirror";
import { fail, type Problem } from "../result";
import type { SsoSignInOrigin } from "../sso/session-origin";
import { CODE_LENGTH, redeemCode, spendCheckedCode } from "../verification-codes";
import { type HandoffCodeData, openHandedOverSession } from "./cross-domain";
import { type CodeChallengeMethod, verifyPkce } from "./pkce";

const PURPOSE = "oauth_authorization_code";

type CodeData = {
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: CodeChallengeMethod;
  is_new_user: boolean;
  /** The provider config id (for the sign-in event); absent in codes issued before it was recorded. */
  provider?: string;
  after_callback_redirect_url: string | null;
  /** An enterprise SSO sign-in's code (services/sso/sign-in.ts): the session's method is "sso". */
  sso?: SsoSignInOrigin;
  granted_session_id?: string;
  replayed?: boolean;
} & Partial<HandoffCodeData>;

export type CodeGrantResult =
  | { ok: true; tokens: SignInTokens; afterCallbackRedirectUrl: string | null }
  | Problem<"invalid_authorization_code" | "oauth_redirect_uri_mismatch">
  | MfaRequired;

const invalid = fail("invalid_authorization_code");

export async function exchangeAuthorizationCode(
  deps: Deps,
  project: ProjectRow,
  input: { code: string; redirectUri: string; codeVerifier: string; ipInfo: IpInfo },
): Promise<CodeGrantResult> {
  if (input.code.length !== CODE_LENGTH) return invalid;
  const codeHash = await sha256Hex(input.code.toLowerCase());
  const peek = await redeemCode(deps, project.id, PURPOSE, input.code, false);
  if (!peek.ok) {
    // A used code seen again was intercepted (an expired one may be, too): revoke what it bought.
    if (peek.reason === "code_used" || peek.reason === "code_expired") await revokeReplayedGrant(deps, project.id, codeHash);
    return invalid;
  }
  const data = peek.row.data as CodeData;
  if (data.redirect_uri !== input.redirectUri) return fail("oauth_redirect_uri_mismatch");
  // Wrong verifiers do not use the code up, but each counts against its 20 attempts.
  if (!(await verifyPkce(input.codeVerifier, data.code_challenge, data.code_challenge_method))) return invalid;

  const used = await spendCheckedCode(deps, peek.row);
  if (!used.ok) {
    if (used.reason === "code_used") await revokeReplayedGrant(deps, project.id, codeHash);
    return invalid;
  }
  const user = await findUserRecord(deps.db, project.id, data.user_id);
  if (!user) return invalid;
  if (data.handoff_session_id && data.handoff_refresh_token_sealed) {
    const handoff = { handoff_session_id: data.handoff_session_id, handoff_refresh_token_sealed: data.handoff_refresh_token_sealed };
    return exchangeHandoff(deps, project, user, handoff, { codeHash, ipInfo: input.ipInfo, after: data.after_callback_redirect_url });
  }
  const finished = await finishFirstFactor(deps, project, user, {
    isNewUser: data.is_new_user,
    ipInfo: input.ipInfo,
    method: data.sso ? "sso" : "oauth",
    provider: data.provider,
    ...(data.sso ? { sso: data.sso } : {}),
  });
  if (!finished.ok) return finished;
  // Record the grant, then look for a replay that happened meanwhile. Both writes are single
  // statements on the same row, so either the replay sees this session or we see the replay.
  const after = await setCodeDataKey(deps.db, project.id, PURPOSE, codeHash, "granted_session_id", finished.sessionId);
  if (after?.replayed === true) {
    await deleteSession(deps.db, project.id, finished.sessionId);
    endMirroredSessions(deps, [finished.sessionId]);
    return invalid;
  }
  return { ok: true, tokens: finished.tokens, afterCallbackRedirectUrl: data.after_callback_redirect_url };
}

/**
 * A cross-domain handoff code (cross-domain.ts): the existing session's tokens, not a new session.
 * As the reference, a TOTP user confirms the second factor on the receiving domain as well.
 */
async function exchangeHandoff(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord,
  handoff: HandoffCodeData,
  o: { codeHash: string; ipInfo: IpInfo; after: string | null },
): Promise<CodeGrantResult> {
  if (user.user.totpSecret) {
    const second = await finishFirstFactor(deps, project, user, { isNewUser: false, ipInfo: o.ipInfo, method: "oauth" });
    if (!second.ok) return second;
  }
  const session = await openHandedOverSession(deps, project, user.user.id, handoff);
  if (!session) return invalid;
  // A replay of this code revokes the handed-over session (revokeReplayedGrant), as for any grant.
  const after = await setCodeDataKey(deps.db, project.id, PURPOSE, o.codeHash, "granted_session_id", session.sessionId);
  if (after?.replayed === true) {
    await deleteSession(deps.db, project.id, session.sessionId);
    endMirroredSessions(deps, [session.sessionId]);
    return invalid;
  }
  const accessToken = await mintAccessToken(deps, project, user, session.sessionId);
  const tokens = { ok: true as const, accessToken, refreshToken: session.refreshToken, userId: user.user.id, isNewUser: false };
  return { ok: true, tokens, afterCallbackRedirectUrl: o.after };
}

/** Marks the code replayed and revokes whatever session it already granted. */
async function revokeReplayedGrant(deps: Deps, projectId: string, codeHash: string): Promise<void> {
  const data = (await setCodeDataKey(deps.db, projectId, PURPOSE, codeHash, "replayed", true)) as CodeData | null;
  if (data?.granted_session_id) {
    await deleteSession(deps.db, projectId, data.granted_session_id);
    endMirroredSessions(deps, [data.granted_session_id]);
  }
}
