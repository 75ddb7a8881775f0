/**
 * CLI login (wire-protocol.md §5 "CLI auth"): a CLI starts a login and polls with its polling
 * code while a person confirms it in the browser with the login code. The state lives in KV
 * (with TTL), keyed by the SHA-256 of each code; see docs/storage.md and docs/security.md.
 *
 * One-shot hand-out without compare-and-set in KV: the poll that wins an `INSERT … ON CONFLICT
 * DO NOTHING` in D1 hands out the result; a concurrent or replayed poll loses it and answers "used".
 * - Completed with `refresh_token` (as the reference's confirm page does): the poll returns exactly
 *   that token, which waits in the KV state sealed with AES-GCM until then (wire: the CLI gets the
 *   browser's session). The mark is a row of `cli_handouts`.
 * - Completed by a signed-in user without one: the poll creates a new session of that user (its
 *   id reserved when the login started, so the session's primary key is the mark).
 */
import { CLI_LOGIN_DEFAULT_EXPIRY_MS } from "@doorman/shared/constants";
import { encryptAtRest, openSealed } from "../../crypto/at-rest";
import { constantTimeEqual, sha256Hex } from "../../crypto/hash";
import { claimCliHandout, pruneCliHandouts } from "../../db/queries/cli-handouts";
import type { ProjectRow } from "../../db/queries/projects";
import { findSessionByTokenHash, insertSessionIfAbsent } from "../../db/queries/sessions";
import { findUserRecord, type UserRecord } from "../../db/queries/users";
import { cliLoginKey, cliPollKey } from "../../kv/keys";
import type { Deps } from "../deps";
import { eventFor } from "../events";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { restrictedReasonOf } from "../user-restrictions";
import { type IpInfo, mintAccessToken, prepareSession } from "./sessions";

/** Length of the polling and login codes (224 bits each). */
export const CLI_CODE_LENGTH = 45;

/** The JSON stored at `cli:poll:{sha256(polling_code)}`. Holds hashes and ids only, never a token. */
export type CliLoginState = {
  status: "waiting" | "completed" | "used";
  project_id: string;
  login_code_hash: string;
  /** Epoch ms; enforced against deps.now() (the KV TTL is only the clean-up). */
  expires_at: number;
  /** Reserved id of the session the poll hands out; its primary key makes the hand-out one-shot. */
  session_id: string;
  /** The user who confirmed the login (status "completed"). */
  user_id?: string;
  /** The refresh token the confirming browser passed, sealed (AES-GCM); handed to the CLI as is. */
  sealed_refresh_token?: string;
  /** The CLI's anonymous session, if it had one (check / claim-anon-session modes). */
  anon_refresh_token_hash?: string;
  anon_claim_session_id?: string;
};

type Loaded = { pollingHash: string; state: CliLoginState };

async function readState(deps: Deps, pollingHash: string): Promise<CliLoginState | null> {
  return deps.env.KV.get<CliLoginState>(cliPollKey(pollingHash, 0).key, "json");
}

async function writeState(deps: Deps, pollingHash: string, state: CliLoginState): Promise<void> {
  const { key, ttl } = cliPollKey(pollingHash, state.expires_at - deps.now());
  await deps.env.KV.put(key, JSON.stringify(state), { expirationTtl: ttl });
}

/** The anonymous user behind a refresh token of this project, if its session is live. */
async function liveAnonymousUser(deps: Deps, projectId: string, tokenHash: string): Promise<UserRecord | null> {
  const session = await findSessionByTokenHash(deps.db, projectId, tokenHash);
  if (!session || session.expiresAt <= deps.now()) return null;
  const record = await findUserRecord(deps.db, projectId, session.userId);
  return record?.user.isAnonymous ? record : null;
}

export type StartedCliLogin = { ok: true; pollingCode: string; loginCode: string; expiresAt: number };

export async function startCliLogin(
  deps: Deps,
  project: ProjectRow,
  options: { expiresInMs?: number; anonRefreshToken?: string },
): Promise<StartedCliLogin | Problem<"cli_anon_token_invalid" | "cli_anon_token_not_anonymous">> {
  let anonHash: string | undefined;
  if (options.anonRefreshToken !== undefined) {
    anonHash = await sha256Hex(options.anonRefreshToken);
    const session = await findSessionByTokenHash(deps.db, project.id, anonHash);
    if (!session || session.expiresAt <= deps.now()) return fail("cli_anon_token_invalid");
    const record = await findUserRecord(deps.db, project.id, session.userId);
    if (!record) return fail("cli_anon_token_invalid");
    if (!record.user.isAnonymous) return fail("cli_anon_token_not_anonymous");
  }
  const pollingCode = deps.random.code(CLI_CODE_LENGTH);
  const loginCode = deps.random.code(CLI_CODE_LENGTH);
  const [pollingHash, loginHash] = await Promise.all([sha256Hex(pollingCode), sha256Hex(loginCode)]);
  const expiresAt = deps.now() + (options.expiresInMs ?? CLI_LOGIN_DEFAULT_EXPIRY_MS);
  const state: CliLoginState = {
    status: "waiting",
    project_id: project.id,
    login_code_hash: loginHash,
    expires_at: expiresAt,
    session_id: deps.random.uuid(),
    ...(anonHash ? { anon_refresh_token_hash: anonHash, anon_claim_session_id: deps.random.uuid() } : {}),
  };
  // Only hashes as keys: a KV listing or leak yields no usable code.
  const login = cliLoginKey(loginHash, expiresAt - deps.now());
  await Promise.all([writeState(deps, pollingHash, state), deps.env.KV.put(login.key, pollingHash, { expirationTtl: login.ttl })]);
  return { ok: true, pollingCode, loginCode, expiresAt };
}

export type PollOutcome =
  | { ok: true; status: "waiting" | "expired" | "used" }
  | { ok: true; status: "success"; refreshToken: string }
  | Problem<"cli_polling_code_invalid" | "cli_user_gone">;

/** One poll of the CLI. "success" (with a new session's refresh token) happens at most once. */
export async function pollCliLogin(deps: Deps, project: ProjectRow, pollingCode: string, ipInfo: IpInfo): Promise<PollOutcome> {
  const pollingHash = await sha256Hex(pollingCode);
  const state = await readState(deps, pollingHash);
  if (!state || state.project_id !== project.id) return fail("cli_polling_code_invalid");
  if (state.expires_at <= deps.now()) return { ok: true, status: "expired" };
  if (state.status === "used") return { ok: true, status: "used" };
  if (state.status === "waiting" || !state.user_id) return { ok: true, status: "waiting" };

  const record = await findUserRecord(deps.db, project.id, state.user_id);
  if (!record) return fail("cli_user_gone");
  const { user_id: _handedOut, sealed_refresh_token: sealed, ...rest } = state;
  let refreshToken: string;
  if (sealed) {
    const token = await openSealed(deps.tokenKeys, sealed);
    if (!token) return fail("cli_polling_code_invalid");
    deps.defer(pruneCliHandouts(deps.db, deps.now()));
    // D1's primary key is the compare-and-set KV lacks: only one poll hands the token out.
    if (!(await claimCliHandout(deps.db, state.session_id, state.expires_at))) return { ok: true, status: "used" };
    refreshToken = token;
  } else {
    const session = await prepareSession(deps, project.id, state.user_id, { sessionId: state.session_id, ipInfo });
    // Same guard: only one poll can create the session with the reserved id.
    const signedIn = eventFor(
      deps,
      project.id,
      "sign_in.succeeded",
      { userId: state.user_id },
      { method: "cli", session_id: session.sessionId },
    );
    if (!(await insertSessionIfAbsent(deps.db, session.statement, signedIn))) return { ok: true, status: "used" };
    refreshToken = session.refreshToken;
  }
  await writeState(deps, pollingHash, { ...rest, status: "used" });
  return { ok: true, status: "success", refreshToken };
}

export type LoginCodeProblem = Problem<"cli_login_invalid" | "cli_login_expired" | "cli_login_used">;

/** The pending login a browser names by its login code; completed, used or expired ones are refused. */
async function loadPending(deps: Deps, project: ProjectRow, loginCode: string): Promise<{ ok: true; loaded: Loaded } | LoginCodeProblem> {
  const loginHash = await sha256Hex(loginCode);
  const pollingHash = await deps.env.KV.get(cliLoginKey(loginHash, 0).key);
  const state = pollingHash ? await readState(deps, pollingHash) : null;
  // The login key points at the state; the stored hash must point back (constant time: it is a secret's digest).
  if (!pollingHash || !state || state.project_id !== project.id || !constantTimeEqual(state.login_code_hash, loginHash))
    return fail("cli_login_invalid");
  if (state.expires_at <= deps.now()) return fail("cli_login_expired");
  if (state.status !== "waiting") return fail("cli_login_used");
  return { ok: true, loaded: { pollingHash, state } };
}

/** mode "check": whether the CLI that started this login holds a live anonymous session. */
export async function checkCliLogin(
  deps: Deps,
  project: ProjectRow,
  loginCode: string,
): Promise<{ ok: true; cliSessionState: "anonymous" | "none" } | LoginCodeProblem> {
  const pending = await loadPending(deps, project, loginCode);
  if (!pending.ok) return pending;
  const hash = pending.loaded.state.anon_refresh_token_hash;
  const anonymous = hash ? await liveAnonymousUser(deps, project.id, hash) : null;
  return { ok: true, cliSessionState: anonymous ? "anonymous" : "none" };
}

/**
 * mode "claim-anon-session": a new session of the CLI's anonymous user for the browser, so the
 * person can upgrade that user (sign up) and keep its data. One-shot, like the poll.
 */
export async function claimCliAnonymousSession(
  deps: Deps,
  project: ProjectRow,
  loginCode: string,
  ipInfo: IpInfo,
): Promise<{ ok: true; accessToken: string; refreshToken: string } | LoginCodeProblem | Problem<"cli_no_anonymous_session">> {
  const pending = await loadPending(deps, project, loginCode);
  if (!pending.ok) return pending;
  const { pollingHash, state } = pending.loaded;
  const hash = state.anon_refresh_token_hash;
  const anonymous = hash && state.anon_claim_session_id ? await liveAnonymousUser(deps, project.id, hash) : null;
  if (!anonymous || !state.anon_claim_session_id) return fail("cli_no_anonymous_session");
  const session = await prepareSession(deps, project.id, anonymous.user.id, { sessionId: state.anon_claim_session_id, ipInfo });
  // Same one-shot guard as the poll: a replayed claim cannot mint a second session.
  const signedIn = eventFor(
    deps,
    project.id,
    "sign_in.succeeded",
    { userId: anonymous.user.id },
    { method: "cli", session_id: session.sessionId },
  );
  if (!(await insertSessionIfAbsent(deps.db, session.statement, signedIn))) return fail("cli_no_anonymous_session");
  const { anon_refresh_token_hash: _a, anon_claim_session_id: _b, ...rest } = state;
  await writeState(deps, pollingHash, rest);
  const accessToken = await mintAccessToken(deps, project, anonymous, session.sessionId);
  return { ok: true, accessToken, refreshToken: session.refreshToken };
}

export type CompleteProblem =
  | LoginCodeProblem
  | Problem<"cli_user_required" | "cli_refresh_token_invalid" | "cli_refresh_token_mismatch" | "cli_user_restricted">;

/**
 * mode "complete": the signed-in user (from the access token, or from `refresh_token` as the
 * reference page sends it) confirms the login; the next poll receives a new session of theirs.
 */
export async function completeCliLogin(
  deps: Deps,
  project: ProjectRow,
  loginCode: string,
  who: { signedInUserId: string | null; refreshToken?: string },
): Promise<{ ok: true } | CompleteProblem> {
  let userId = who.signedInUserId;
  if (who.refreshToken !== undefined) {
    const session = await findSessionByTokenHash(deps.db, project.id, await sha256Hex(who.refreshToken));
    if (!session || session.expiresAt <= deps.now()) return fail("cli_refresh_token_invalid");
    // A refresh token of someone else than the signed-in user is a confused or forged request.
    if (userId && session.userId !== userId) return fail("cli_refresh_token_mismatch");
    userId = session.userId;
  }
  if (!userId) return fail("cli_user_required");
  const record = await findUserRecord(deps.db, project.id, userId);
  if (!record) return fail("cli_user_required");
  // Anonymous and restricted users may not hand their account to a CLI (as the reference does).
  const restricted = restrictedReasonOf(record, readProjectConfig(project.config));
  if (restricted) return fail("cli_user_restricted", { restrictedReason: restricted });

  const pending = await loadPending(deps, project, loginCode);
  if (!pending.ok) return pending;
  const { pollingHash, state } = pending.loaded;
  // The anonymous CLI user is not merged into this one: the CLI simply gets this user's session.
  const { anon_refresh_token_hash: _a, anon_claim_session_id: _b, ...rest } = state;
  // The wire hands the CLI exactly the token the browser passed; sealed while it waits in KV.
  const sealed = who.refreshToken !== undefined ? await encryptAtRest(deps.tokenKeys.secret, who.refreshToken) : undefined;
  await writeState(deps, pollingHash, {
    ...rest,
    status: "completed",
    user_id: userId,
    ...(sealed ? { sealed_refresh_token: sealed } : {}),
  });
  return { ok: true };
}
