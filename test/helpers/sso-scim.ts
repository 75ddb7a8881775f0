/**
 * Test helpers for the SCIM server (issue 31): a project with a team and an SSO connection written
 * straight into D1 through drizzle, with its SCIM token's SHA-256 set as the ADMIN part's token
 * rotation stores it (the management API is that part's), a verified domain, the group mapping, and
 * `scim()`, which calls the connection's SCIM endpoints the way an IdP does (Bearer token,
 * application/scim+json).
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { sha256Hex } from "../../worker/crypto/hash";
import { createDb } from "../../worker/db/client";
import { ssoConnections, ssoDomains, ssoIdentities } from "../../worker/db/schema";
import { call, createProjectWithKeys } from "./api";
import { workerFetch } from "./worker-fetch";

export type ScimProject = Awaited<ReturnType<typeof createProjectWithKeys>>;
export type ScimConnection = { project: ScimProject; teamId: string; connectionId: string; token: string; base: string };

const db = () => createDb(env.DB);

/** A team of the project, created through the server API. */
export async function createTeam(p: ScimProject, displayName = "Acme"): Promise<string> {
  const res = await call("/teams", { ...p.server, body: { display_name: displayName } });
  if (res.status !== 201) throw new Error(`team create failed: ${res.status} ${res.text}`);
  return res.body.id;
}

/** A fresh SCIM token: what the connection's token rotation answers once. */
export function newScimToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `dmscim_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * A project (member defaults as given; none by default, so tests see only what SCIM grants), a team,
 * and an enabled OIDC connection of that team whose SCIM token is set.
 */
export async function scimConnection(config: Record<string, unknown> = {}, project?: ScimProject): Promise<ScimConnection> {
  const p = project ?? (await createProjectWithKeys({ team_member_default_permissions: [], ...config }));
  const teamId = await createTeam(p);
  const connectionId = crypto.randomUUID();
  const token = newScimToken();
  const now = Date.now();
  await db()
    .insert(ssoConnections)
    .values({
      id: connectionId,
      projectId: p.projectId,
      teamId,
      protocol: "oidc",
      displayName: "Acme IdP",
      enabled: true,
      config: {
        issuer: "https://idp.acme.test",
        clientId: "doorman",
        clientSecretSealed: null,
        scopes: [],
        attributeMapping: { email: null, name: null, groups: null },
      },
      scimTokenHash: await sha256Hex(token),
      scimTokenPrefix: token.slice(0, 12),
      scimGroupMapping: {},
      createdAt: now,
      updatedAt: now,
    });
  return { project: p, teamId, connectionId, token, base: `/scim/${connectionId}` };
}

export async function setGroupMapping(conn: ScimConnection, mapping: Record<string, string[]>): Promise<void> {
  await db().update(ssoConnections).set({ scimGroupMapping: mapping }).where(eq(ssoConnections.id, conn.connectionId));
}

export async function setConnectionEnabled(conn: ScimConnection, enabled: boolean): Promise<void> {
  await db().update(ssoConnections).set({ enabled }).where(eq(ssoConnections.id, conn.connectionId));
}

/** A domain the connection's team has verified (the DoH check is the ADMIN part's). */
export async function verifyDomain(conn: ScimConnection, domain: string, teamId = conn.teamId): Promise<void> {
  await db().insert(ssoDomains).values({
    id: crypto.randomUUID(),
    projectId: conn.project.projectId,
    teamId,
    connectionId: null,
    domain,
    verificationToken: crypto.randomUUID(),
    status: "verified",
    verifiedAt: Date.now(),
    checkedAt: Date.now(),
    createdAt: Date.now(),
  });
}

/** The identity a first SSO sign-in makes (the FLOW part's row: the IdP's subject, its email as userName, no SCIM attributes). */
export async function insertSignInIdentity(conn: ScimConnection, userId: string, userName: string, subject: string): Promise<string> {
  const id = crypto.randomUUID();
  const now = Date.now();
  await db().insert(ssoIdentities).values({
    id,
    projectId: conn.project.projectId,
    connectionId: conn.connectionId,
    userId,
    subject,
    userName,
    active: true,
    lastSignInAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** A domain name no other test uses. */
export function uniqueDomain(tag = "acme"): string {
  return `${tag}-${crypto.randomUUID().slice(0, 8)}.test`;
}

export type ScimResult = { status: number; headers: Headers; body: any; text: string };

/** Calls `{base}{path}` of the connection as an IdP does. */
export async function scim(
  conn: ScimConnection,
  path: string,
  o: {
    method?: string;
    body?: unknown;
    rawBody?: string;
    token?: string | null;
    headers?: Record<string, string>;
    contentType?: string;
  } = {},
): Promise<ScimResult> {
  const headers: Record<string, string> = { accept: "application/scim+json", ...(o.headers ?? {}) };
  const token = o.token === undefined ? conn.token : o.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const body = o.rawBody ?? (o.body !== undefined ? JSON.stringify(o.body) : undefined);
  if (body !== undefined) headers["content-type"] = o.contentType ?? "application/scim+json";
  const res = await workerFetch(`http://localhost/api/v1${conn.base}${path}`, {
    method: o.method ?? (body !== undefined ? "POST" : "GET"),
    headers,
    body,
  });
  const text = await res.text();
  let parsed: unknown = text;
  if (/json/.test(res.headers.get("content-type") ?? "") && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A PatchOp message. */
export function patchOp(...operations: Record<string, unknown>[]) {
  return { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: operations };
}

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

/** The team's member ids (server API). */
export async function teamMemberIds(conn: ScimConnection): Promise<string[]> {
  const res = await call(`/team-member-profiles?team_id=${conn.teamId}`, conn.project.server);
  if (res.status !== 200) throw new Error(`list members failed: ${res.status} ${res.text}`);
  return (res.body.items as { user_id: string }[]).map((m) => m.user_id).sort();
}

/** The user's direct team permissions in the connection's team (server API). */
export async function teamPermissionsOf(conn: ScimConnection, userId: string): Promise<string[]> {
  const res = await call(`/team-permissions?team_id=${conn.teamId}&user_id=${userId}&recursive=false`, conn.project.server);
  if (res.status !== 200) throw new Error(`list permissions failed: ${res.status} ${res.text}`);
  return (res.body.items as { id: string }[]).map((i) => i.id).sort();
}

/** The project's events of a type (newest first), as the console reads them. */
export async function eventsOf(conn: ScimConnection, type: string): Promise<any[]> {
  const res = await call(`/internal/events?type=${encodeURIComponent(type)}&limit=100`, conn.project.admin);
  if (res.status !== 200) throw new Error(`list events failed: ${res.status} ${res.text}`);
  return res.body.items;
}
