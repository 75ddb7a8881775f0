/**
 * Test helpers for the OpenID provider's consent API (issue 30): third-party clients, pending
 * authorization requests and grants written straight into D1, as /authorize, the client registry
 * and /token would leave them (those are built elsewhere), and reads of what the API wrote.
 */
import { env } from "cloudflare:test";

let counter = 0;
const nextId = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}${Math.random().toString(36).slice(2, 8)}`;

export type TestClient = {
  clientId: string;
  name: string;
  redirectUri: string;
};

/** A registered client of the project (public by default); the row a console registration would write. */
export async function insertClient(
  projectId: string,
  o: {
    clientId?: string;
    name?: string;
    source?: "console" | "dynamic" | "metadata_document";
    redirectUri?: string;
    logoUri?: string | null;
    clientUri?: string | null;
    policyUri?: string | null;
    tosUri?: string | null;
  } = {},
): Promise<TestClient> {
  const clientId = o.clientId ?? nextId("dmc_");
  const name = o.name ?? "Notes App";
  const redirectUri = o.redirectUri ?? "https://notes.example/callback";
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO oauth_clients (project_id, client_id, source, name, client_type, token_endpoint_auth_method, redirect_uris,
       logo_uri, client_uri, policy_uri, tos_uri, metadata_expires_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'public', 'none', ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      projectId,
      clientId,
      o.source ?? "console",
      name,
      JSON.stringify([redirectUri]),
      o.logoUri ?? null,
      o.clientUri ?? null,
      o.policyUri ?? null,
      o.tosUri ?? null,
      // A metadata document's row is its cache: fresh for an hour, so resolveClient answers it without a fetch.
      (o.source ?? "console") === "metadata_document" ? now + 3_600_000 : null,
      now,
      now,
    )
    .run();
  return { clientId, name, redirectUri };
}

export type PendingRequestOptions = {
  scope?: string;
  state?: string | null;
  redirectUri?: string;
  resource?: string | null;
  prompt?: string | null;
  maxAge?: number | null;
  teamRequested?: boolean;
  createdAt?: number;
  expiresAt?: number;
};

/** A pending authorization request (status "pending", 10 minutes), as GET /authorize leaves it; answers its id. */
export async function insertPendingRequest(projectId: string, client: TestClient, o: PendingRequestOptions = {}): Promise<string> {
  const id = nextId("req_");
  const createdAt = o.createdAt ?? Date.now();
  await env.DB.prepare(
    `INSERT INTO oauth_authorization_requests (id, project_id, client_id, redirect_uri, scope, state, nonce, code_challenge,
       resource, prompt, max_age, team_requested, status, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, NULL, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', ?, ?, ?, ?, 'pending', ?, ?)`,
  )
    .bind(
      id,
      projectId,
      client.clientId,
      o.redirectUri ?? client.redirectUri,
      o.scope ?? "openid profile",
      o.state === undefined ? "xyz-state" : o.state,
      o.resource ?? null,
      o.prompt ?? null,
      o.maxAge ?? null,
      o.teamRequested ? 1 : 0,
      createdAt,
      o.expiresAt ?? createdAt + 10 * 60_000,
    )
    .run();
  return id;
}

export type RequestRow = {
  status: string;
  user_id: string | null;
  team_id: string | null;
  auth_time: number | null;
  amr: string | null;
  acr: string | null;
  code_hash: string | null;
  expires_at: number;
};

export async function requestRow(id: string): Promise<RequestRow> {
  const row = await env.DB.prepare("SELECT * FROM oauth_authorization_requests WHERE id = ?").bind(id).first<RequestRow>();
  if (!row) throw new Error(`no request ${id}`);
  return row;
}

/** A grant (a redeemed code), as /token would record it; answers its id. */
export async function insertGrant(projectId: string, userId: string, clientId: string, o: { lastUsedAt?: number } = {}): Promise<string> {
  const id = nextId("grant_");
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO oauth_grants (id, project_id, client_id, user_id, scope, auth_time, created_at, last_used_at)
     VALUES (?, ?, ?, ?, 'openid', ?, ?, ?)`,
  )
    .bind(id, projectId, clientId, userId, now, now, o.lastUsedAt ?? now)
    .run();
  return id;
}

export async function grantRow(id: string): Promise<{ revoked_at: number | null; revoked_reason: string | null }> {
  const row = await env.DB.prepare("SELECT revoked_at, revoked_reason FROM oauth_grants WHERE id = ?")
    .bind(id)
    .first<{ revoked_at: number | null; revoked_reason: string | null }>();
  if (!row) throw new Error(`no grant ${id}`);
  return row;
}

export async function consentRow(projectId: string, userId: string, clientId: string) {
  return env.DB.prepare(
    "SELECT scope, team_id, created_at, updated_at FROM oauth_consents WHERE project_id = ? AND user_id = ? AND client_id = ?",
  )
    .bind(projectId, userId, clientId)
    .first<{ scope: string; team_id: string | null; created_at: number; updated_at: number }>();
}

/** The session row behind a user's sign-in (created_at is the auth_time of what it approves). */
export async function sessionOf(userId: string): Promise<{ id: string; created_at: number }> {
  const row = await env.DB.prepare("SELECT id, created_at FROM sessions WHERE user_id = ? ORDER BY created_at DESC LIMIT 1")
    .bind(userId)
    .first<{ id: string; created_at: number }>();
  if (!row) throw new Error(`no session of ${userId}`);
  return row;
}

export async function setSessionAmr(sessionId: string, amr: string[]): Promise<void> {
  await env.DB.prepare("UPDATE sessions SET amr = ? WHERE id = ?").bind(JSON.stringify(amr), sessionId).run();
}

export async function eventsOf(projectId: string, type: string): Promise<{ userId: string | null; teamId: string | null; data: any }[]> {
  const rows = await env.DB.prepare("SELECT user_id, team_id, data FROM events WHERE project_id = ? AND type = ? ORDER BY created_at")
    .bind(projectId, type)
    .all<{ user_id: string | null; team_id: string | null; data: string | null }>();
  return rows.results.map((r) => ({ userId: r.user_id, teamId: r.team_id, data: r.data ? JSON.parse(r.data) : null }));
}

/** SHA-256 hex, as the worker stores codes. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
