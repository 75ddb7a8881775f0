/**
 * POST /auth/oauth/cross-domain/authorize: hands the caller's session to the app's pages on
 * another domain. The caller proves the session twice (its access token and its refresh token,
 * which must be the same session's); Doorman answers a redirect carrying a one-time
 * authorization code (PKCE S256, 5 minutes) bound to that session. The code grant
 * (code-grant.ts) then answers the same refresh token instead of creating a session.
 */
import { encryptAtRest, openSealed } from "../../crypto/at-rest";
import { sha256Hex } from "../../crypto/hash";
import type { ProjectRow } from "../../db/queries/projects";
import { findSessionByTokenHash, type SessionRow } from "../../db/queries/sessions";
import { sessionLimits, withinSessionLimits } from "../auth/session-policy";
import type { Deps } from "../deps";
import { isTrustedRedirectUrl } from "../hosted-pages/trust";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { issueCode } from "../verification-codes";
import { AUTHORIZATION_CODE_TTL_MS } from "./callback";

export type HandoffInput = {
  userId: string;
  /** The session of the access token (its refresh_token_id claim). */
  sessionId: string | null;
  /** The x-stack-refresh-token header. */
  refreshToken: string | undefined;
  redirectUri: string;
  afterCallbackRedirectUrl: string | undefined;
  state: string;
  codeChallenge: string;
};

/** What the handoff code's row carries beside the usual code-grant fields. */
export type HandoffCodeData = { handoff_session_id: string; handoff_refresh_token_sealed: string };

export type HandoffResult =
  | { ok: true; redirectUrl: string }
  | Problem<
      | "handoff_session_required"
      | "handoff_refresh_token_required"
      | "handoff_refresh_token_mismatch"
      | "handoff_refresh_token_invalid"
      | "untrusted_url"
    >;

/**
 * A redirect only native apps can receive (the reference's mobile SDK scheme): browsers never
 * handle it, so a code sent there cannot land on another site.
 */
export function isNativeAppUrl(url: string): boolean {
  try {
    return new URL(url).protocol === "stack-auth-mobile-oauth-url:";
  } catch {
    return false;
  }
}

/** Is this session live now (not expired, within the project's idle and absolute limits)? */
function isLive(deps: Deps, project: ProjectRow, session: SessionRow): boolean {
  const now = deps.now();
  return session.expiresAt > now && withinSessionLimits(sessionLimits(readProjectConfig(project.config), now), session);
}

export async function startCrossDomainHandoff(deps: Deps, project: ProjectRow, input: HandoffInput): Promise<HandoffResult> {
  if (!input.sessionId) return fail("handoff_session_required");
  if (!input.refreshToken) return fail("handoff_refresh_token_required");
  const session = await findSessionByTokenHash(deps.db, project.id, await sha256Hex(input.refreshToken));
  // Access-token binding: the refresh token handed over must be the signed-in session's own,
  // so a stolen refresh token cannot be laundered through someone else's access token.
  if (!session || session.id !== input.sessionId || session.userId !== input.userId) return fail("handoff_refresh_token_mismatch");
  if (!isLive(deps, project, session)) return fail("handoff_refresh_token_invalid");

  // The code goes to redirect_uri and the browser later to after_callback: both must be the project's own.
  for (const url of [input.redirectUri, input.afterCallbackRedirectUrl]) {
    if (url !== undefined && !isNativeAppUrl(url) && !(await isTrustedRedirectUrl(deps, project, url))) return fail("untrusted_url");
  }

  const handoff: HandoffCodeData = {
    handoff_session_id: session.id,
    // Sealed, not hashed: the exchange must answer this very token, and D1 must not hold it readable.
    handoff_refresh_token_sealed: await encryptAtRest(deps.tokenKeys.secret, input.refreshToken),
  };
  const code = await issueCode(
    deps,
    project.id,
    "oauth_authorization_code",
    {
      user_id: input.userId,
      redirect_uri: input.redirectUri,
      code_challenge: input.codeChallenge,
      code_challenge_method: "S256",
      is_new_user: false,
      after_callback_redirect_url: input.afterCallbackRedirectUrl ?? null,
      ...handoff,
    },
    AUTHORIZATION_CODE_TTL_MS,
  );
  const location = new URL(input.redirectUri);
  location.searchParams.set("code", code.code);
  location.searchParams.set("state", input.state);
  return { ok: true, redirectUrl: location.toString() };
}

/**
 * At the exchange: the handed-over session's refresh token, if that session is still live and
 * still holds it; null otherwise. Stricter than the reference (which mints a new session then):
 * a sign-out or rotation after the handoff must not be undone by a code issued before it.
 */
export async function openHandedOverSession(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  data: HandoffCodeData,
): Promise<{ sessionId: string; refreshToken: string } | null> {
  const refreshToken = await openSealed(deps.tokenKeys, data.handoff_refresh_token_sealed);
  if (!refreshToken) return null;
  const session = await findSessionByTokenHash(deps.db, project.id, await sha256Hex(refreshToken));
  if (!session || session.id !== data.handoff_session_id || session.userId !== userId || !isLive(deps, project, session)) return null;
  return { sessionId: session.id, refreshToken };
}
