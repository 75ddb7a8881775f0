/**
 * Test helpers for the OpenID provider (issue 30): a project with provider settings, clients inserted
 * straight into D1 (the admin API is the client registry's), the authorize redirect, and
 * `approveForTest`, which stands in for the consent page's approve: the same compare-and-set on the
 * same columns (pending → approved, code hash, user, auth_time, amr, acr, 60 s), so the token side is
 * tested without the consent feature. The real approve API replaces it in the consent tests.
 */
import { env } from "cloudflare:test";
import { sha256Hex } from "../../worker/crypto/hash";
import { createDb } from "../../worker/db/client";
import { insertOAuthClientStatement } from "../../worker/db/queries/oauth-clients";
import { type CallResult, call, createProjectWithKeys } from "./api";
import { randomVerifier, s256 } from "./oauth";
import { workerFetch } from "./worker-fetch";

export const APP_REDIRECT = "https://app.example.com/callback";
export const ACR_MFA = "http://schemas.openid.net/pape/policies/2007/06/multi-factor";

export type ProviderProject = Awaited<ReturnType<typeof createProjectWithKeys>>;

/** A project whose `doorman.oauthProvider.*` keys are set (e.g. { dynamicRegistration: true }). */
export async function providerProject(settings: Record<string, unknown> = {}): Promise<ProviderProject> {
  const p = await createProjectWithKeys();
  if (Object.keys(settings).length) {
    const override = Object.fromEntries(Object.entries(settings).map(([k, v]) => [`doorman.oauthProvider.${k}`, v]));
    const res = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify(override) },
    });
    if (res.status !== 200) throw new Error(`provider settings failed: ${res.status} ${res.text}`);
  }
  return p;
}

export const issuerOf = (projectId: string) => `http://localhost/api/v1/projects/${projectId}`;

export type TestClient = { clientId: string; secret: string | null };

let clientCounter = 0;

/** Inserts a client of `projectId` (confidential client_secret_basic by default), through the registry's own insert. */
export async function insertClient(
  projectId: string,
  o: {
    type?: "confidential" | "public";
    method?: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
    redirectUris?: string[];
    allowedScopes?: string[] | null;
    jwks?: { keys: Record<string, unknown>[] } | null;
    jwksUri?: string | null;
  } = {},
): Promise<TestClient> {
  clientCounter += 1;
  const clientId = `dmc_test${clientCounter}${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const method = o.method ?? (o.type === "public" ? "none" : "client_secret_basic");
  const secret =
    method === "client_secret_basic" || method === "client_secret_post" ? `dmcs_${crypto.randomUUID()}${crypto.randomUUID()}` : null;
  const now = Date.now();
  await insertOAuthClientStatement(createDb(env.DB), {
    projectId,
    clientId,
    source: "console",
    name: `Test app ${clientCounter}`,
    clientType: o.type ?? (method === "none" ? "public" : "confidential"),
    tokenEndpointAuthMethod: method,
    secretHash: secret ? await sha256Hex(secret) : null,
    secretPrefix: secret ? secret.slice(0, 9) : null,
    redirectUris: o.redirectUris ?? [APP_REDIRECT],
    allowedScopes: o.allowedScopes ?? null,
    logoUri: null,
    clientUri: null,
    policyUri: null,
    tosUri: null,
    jwks: o.jwks ?? null,
    jwksUri: o.jwksUri ?? null,
    metadataExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  });
  return { clientId, secret };
}

/** A PKCE verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = randomVerifier();
  return { verifier, challenge: await s256(verifier) };
}

/** GET (or POST, form-encoded) {issuer}/oauth/authorize; the answer is not followed. */
export async function authorize(
  projectId: string,
  params: Record<string, string | string[]>,
  method: "GET" | "POST" = "GET",
): Promise<Response> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) q.append(k, one);
  const url = `${issuerOf(projectId)}/oauth/authorize`;
  if (method === "GET") return workerFetch(`${url}?${q}`, { redirect: "manual" });
  return workerFetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: q.toString(),
  });
}

/** The standard parameters of a good code request. */
export function codeRequest(
  clientId: string,
  challenge: string,
  extra: Record<string, string | string[]> = {},
): Record<string, string | string[]> {
  return {
    client_id: clientId,
    redirect_uri: APP_REDIRECT,
    response_type: "code",
    scope: "openid profile email offline_access",
    state: "st-123",
    nonce: "n-456",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  };
}

/** The request id of a consent-page redirect. */
export function requestIdOf(res: Response): string {
  const location = res.headers.get("location");
  if (res.status !== 302 && res.status !== 303) throw new Error(`authorize answered ${res.status}: no consent redirect`);
  const id = new URL(location as string).searchParams.get("request_id");
  if (!id) throw new Error(`no request_id in ${location}`);
  return id;
}

/**
 * Stands in for the consent page's approve (the consent feature's API): the design's compare-and-set,
 * `UPDATE … WHERE id=? AND status='pending' AND expires_at > now`, writing the user, team, auth_time
 * and amr (from the session when given, as the real approve does), acr, the code's SHA-256 and a
 * 60-second expiry. Answers the code, or null when the request was not pending.
 */
export async function approveForTest(
  requestId: string,
  o: { userId: string; sessionId?: string; teamId?: string | null; amr?: string[] | null; authTimeMs?: number; nowMs?: number },
): Promise<string | null> {
  const now = o.nowMs ?? Date.now();
  let authTime = o.authTimeMs ?? now;
  let amr = o.amr ?? ["pwd"];
  if (o.sessionId) {
    const session = await env.DB.prepare("SELECT created_at, amr FROM sessions WHERE id = ?")
      .bind(o.sessionId)
      .first<{ created_at: number; amr: string | null }>();
    if (!session) throw new Error("no such session");
    authTime = session.created_at;
    amr = session.amr ? (JSON.parse(session.amr) as string[]) : [];
  }
  const acr = amr.includes("mfa") ? ACR_MFA : null;
  const code = randomVerifier().slice(0, 43);
  const changed = await env.DB.prepare(
    `UPDATE oauth_authorization_requests SET status = 'approved', user_id = ?, team_id = ?, auth_time = ?, amr = ?, acr = ?, code_hash = ?, expires_at = ?
     WHERE id = ? AND status = 'pending' AND expires_at > ?`,
  )
    .bind(o.userId, o.teamId ?? null, authTime, JSON.stringify(amr), acr, await sha256Hex(code), now + 60_000, requestId, now)
    .run();
  return changed.meta.changes === 1 ? code : null;
}

/** POST {issuer}/oauth/{endpoint}, form-encoded; `basic` sends client_secret_basic. */
export async function postForm(
  projectId: string,
  endpoint: "token" | "introspect" | "revoke" | "userinfo",
  form: Record<string, string>,
  o: { basic?: TestClient; headers?: Record<string, string>; nowMs?: number } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...(o.headers ?? {}) };
  if (o.basic)
    headers.authorization = `Basic ${btoa(`${encodeURIComponent(o.basic.clientId)}:${encodeURIComponent(o.basic.secret ?? "")}`)}`;
  if (o.nowMs !== undefined) headers["x-doorman-test-now"] = String(o.nowMs);
  const res = await workerFetch(`${issuerOf(projectId)}/oauth/${endpoint}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("application/json")) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

/** The whole code flow for a user: authorize, approve (test stand-in), redeem. Answers the token response and the pieces. */
export async function codeFlow(
  p: ProviderProject,
  client: TestClient,
  user: { userId: string; sessionId?: string },
  o: { extra?: Record<string, string | string[]>; teamId?: string; amr?: string[]; basic?: boolean } = {},
) {
  const { verifier, challenge } = await pkce();
  const requestId = requestIdOf(await authorize(p.projectId, codeRequest(client.clientId, challenge, o.extra)));
  const code = await approveForTest(requestId, { userId: user.userId, sessionId: user.sessionId, teamId: o.teamId, amr: o.amr });
  if (!code) throw new Error("approve failed");
  const form: Record<string, string> = { grant_type: "authorization_code", code, redirect_uri: APP_REDIRECT, code_verifier: verifier };
  const resource = o.extra?.resource;
  if (typeof resource === "string") form.resource = resource;
  const useBasic = o.basic ?? client.secret !== null;
  if (!useBasic) form.client_id = client.clientId;
  const res = await postForm(p.projectId, "token", form, useBasic ? { basic: client } : {});
  return { res, code, verifier, requestId, form };
}
