/**
 * Connected accounts: provider accounts a user lets the app act through (allow_connected_accounts),
 * and provider access tokens for them. A stored token is handed out while it is fresh, covers the
 * requested scopes and the provider still accepts it (its user API, as the reference checks); an
 * expired or refused one is refreshed with the stored refresh token, and the new sealed tokens are
 * stored. Concurrent requests refresh once (a lease in the refresh token column).
 */
import {
  dropAccessTokenSealed,
  findOAuthAccountById,
  listConnectedOAuthAccounts,
  type OAuthAccountRow,
  replaceRefreshedTokens,
  swapRefreshTokenSealed,
} from "../../db/queries/oauth-accounts";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { providerTypeOf } from "./linked-accounts";
import { isSharedProvider, refreshProviderAccessToken, resolveProvider } from "./providers";
import { openProviderToken, sealProviderToken } from "./tokens";

/** A token is handed out only with this much life left, so the caller can still use it (as the reference does). */
export const ACCESS_TOKEN_FRESHNESS_MS = 5 * 60_000;

export type ConnectionProblem = Problem<
  | "user_not_found"
  | "linked_provider_not_enabled"
  | "connection_not_connected"
  | "connection_missing_scope"
  | "connection_shared_extra_scope"
>;

/** Scopes as the wire writes them: separated by spaces (or commas). */
export function parseScopes(scope: string | undefined): string[] {
  return (scope ?? "").split(/[\s,]+/).filter(Boolean);
}

export async function listConnections(
  deps: Deps,
  project: ProjectRow,
  userId: string,
): Promise<{ ok: true; accounts: OAuthAccountRow[] } | ConnectionProblem> {
  if (!(await findUserRecord(deps.db, project.id, userId))) return fail("user_not_found");
  return { ok: true, accounts: await listConnectedOAuthAccounts(deps.db, project.id, userId) };
}

function coversScopes(row: OAuthAccountRow, wanted: string[]): boolean {
  const granted = new Set(parseScopes(row.scopes));
  return wanted.every((s) => granted.has(s));
}

/** The stored access token, when it has at least `minLifeMs` left and can be opened. */
async function freshStoredToken(deps: Deps, row: OAuthAccountRow, minLifeMs = ACCESS_TOKEN_FRESHNESS_MS): Promise<string | null> {
  if (!row.accessTokenSealed) return null;
  if (row.accessTokenExpiresAt !== null && row.accessTokenExpiresAt <= deps.now() + minLifeMs) return null;
  return openProviderToken(deps, row.accessTokenSealed);
}

/**
 * The stored token if the provider still accepts it. A token the user revoked at the provider is
 * dropped (so the caller refreshes instead of handing out a dead token); when the provider cannot
 * be asked (outage, timeout, no user API), the unexpired token is handed out as it stands.
 */
async function acceptedStoredToken(deps: Deps, project: ProjectRow, row: OAuthAccountRow): Promise<string | null> {
  const token = await freshStoredToken(deps, row);
  if (!token || !row.accessTokenSealed) return null;
  const resolved = await resolveProvider(deps, project, row.providerConfigId);
  if (!resolved.ok || (await resolved.client.checkAccessToken(token)) !== "rejected") return token;
  await dropAccessTokenSealed(deps.db, row.id, row.accessTokenSealed);
  return null;
}

/**
 * Refresh leases. Many providers rotate refresh tokens and revoke the whole grant when a used one
 * comes back, so two requests must never refresh with the same token. The one that swaps the
 * stored refresh token for `lease.<until>.<sealed token>` (compare-and-set) refreshes; the others
 * wait for its new access token. A holder that dies is overtaken once the lease has expired.
 */
const LEASE_MS = 15_000;
const WAIT_STEP_MS = 100;
const WAIT_MAX_MS = 8_000;
const LEASE_PREFIX = "lease.";

function readRefreshColumn(value: string): { sealed: string; leaseUntil: number | null } {
  if (!value.startsWith(LEASE_PREFIX)) return { sealed: value, leaseUntil: null };
  const rest = value.slice(LEASE_PREFIX.length);
  const dot = rest.indexOf(".");
  return { sealed: rest.slice(dot + 1), leaseUntil: Number(rest.slice(0, dot)) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the lease holder's new token; null if it gave up (released the lease) or took too long. */
async function waitForRefresh(deps: Deps, id: string, sealedBefore: string | null): Promise<string | null> {
  for (let waited = 0; waited < WAIT_MAX_MS; waited += WAIT_STEP_MS) {
    await sleep(WAIT_STEP_MS);
    const row = await findOAuthAccountById(deps.db, id);
    // The holder's brand-new token is the best there is, even from a provider with short-lived tokens.
    const token = row && row.accessTokenSealed !== sealedBefore ? await freshStoredToken(deps, row, 0) : null;
    if (token) return token;
    if (!row?.refreshTokenSealed || readRefreshColumn(row.refreshTokenSealed).leaseUntil === null) return null;
  }
  return null;
}

/** Refreshes at the provider while holding the lease; stores the new sealed tokens, or releases the lease. */
async function refreshHoldingLease(deps: Deps, project: ProjectRow, row: OAuthAccountRow, sealed: string, lease: string) {
  const refreshToken = await openProviderToken(deps, sealed);
  const fresh = refreshToken ? await refreshProviderAccessToken(deps, project, row.providerConfigId, refreshToken) : null;
  if (!refreshToken || !fresh) {
    // Refused or unreachable: give the token back, so a later request may try again.
    await swapRefreshTokenSealed(deps.db, row.id, lease, sealed);
    return null;
  }
  const stored = await replaceRefreshedTokens(deps.db, row.id, lease, {
    // Sealed before storage: a database leak must not hand out live provider tokens.
    accessTokenSealed: await sealProviderToken(deps, fresh.accessToken),
    refreshTokenSealed: await sealProviderToken(deps, fresh.refreshToken ?? refreshToken),
    accessTokenExpiresAt: fresh.expiresAt,
    // A refresh keeps the grant: providers that omit `scope` granted what they granted before.
    scopes: fresh.scopes.length > 0 ? fresh.scopes.join(" ") : row.scopes,
  });
  if (!stored) console.warn(`oauth account ${row.id}: newer tokens arrived during a refresh; keeping them`);
  return fresh.accessToken;
}

/** A new access token for one account: refreshed by this request, or by the one holding the lease. */
async function refreshAccount(deps: Deps, project: ProjectRow, row: OAuthAccountRow): Promise<string | null> {
  let current: OAuthAccountRow | null = row;
  for (let attempt = 0; attempt < 3 && current?.refreshTokenSealed; attempt++) {
    const column = current.refreshTokenSealed;
    const { sealed, leaseUntil } = readRefreshColumn(column);
    if (leaseUntil !== null && leaseUntil > deps.now()) return waitForRefresh(deps, row.id, current.accessTokenSealed);
    const lease = `${LEASE_PREFIX}${deps.now() + LEASE_MS}.${sealed}`;
    if (await swapRefreshTokenSealed(deps.db, row.id, column, lease)) return refreshHoldingLease(deps, project, current, sealed, lease);
    // Lost the claim: someone refreshed or took the lease; look again.
    current = await findOAuthAccountById(deps.db, row.id);
    const token = current ? await freshStoredToken(deps, current) : null;
    if (token) return token;
  }
  return null;
}

/**
 * An access token of the user's connected account of a provider (a given account, or the first
 * one that can serve the scopes).
 */
export async function connectionAccessToken(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  providerConfigId: string,
  providerAccountId: string | undefined,
  scope: string | undefined,
): Promise<{ ok: true; accessToken: string } | ConnectionProblem> {
  if (!providerTypeOf(project, providerConfigId)) return fail("linked_provider_not_enabled");
  if (!(await findUserRecord(deps.db, project.id, userId))) return fail("user_not_found");
  const accounts = await listConnectedOAuthAccounts(deps.db, project.id, userId, { providerConfigId, providerAccountId });
  if (accounts.length === 0) return fail("connection_not_connected");

  const wanted = parseScopes(scope);
  const covering = accounts.filter((row) => coversScopes(row, wanted));
  if (covering.length === 0) {
    // Shared keys are the platform's app: a user cannot grant it more than its default scopes. An
    // account linked without any grant answers missing scope (as the reference does): connecting fixes it.
    const granted = accounts.some((row) => row.accessTokenSealed || row.refreshTokenSealed);
    return granted && isSharedProvider(project, providerConfigId)
      ? fail("connection_shared_extra_scope")
      : fail("connection_missing_scope");
  }

  for (const row of covering) {
    const token = await acceptedStoredToken(deps, project, row);
    if (token) return { ok: true, accessToken: token };
  }
  for (const row of covering) {
    // Read again: a refused token was dropped above, and the refresh must not be handed it back.
    const current = await findOAuthAccountById(deps.db, row.id);
    const token = current ? await refreshAccount(deps, project, current) : null;
    if (token) return { ok: true, accessToken: token };
  }
  // No usable grant (linked without tokens, expired without a refresh token, or a refresh the provider
  // refused): as the reference does, this reads "missing scope", which tells the SDK to connect again.
  return fail("connection_missing_scope");
}
