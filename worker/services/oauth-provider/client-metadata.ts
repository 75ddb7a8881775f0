/**
 * Client ID metadata documents (CIMD: draft-ietf-oauth-client-id-metadata-document, the MCP
 * authorization spec of 2025-11): a client whose id is an https URL describes itself in the JSON
 * document at that URL. Doorman fetches it with the webhook URL rules and tight bounds, checks it with
 * the rules every client follows, and caches it as the client's row (source metadata_document) for the
 * document's max-age, bounded to [5 min, 24 h]. A refusal is remembered for a minute only.
 */

import {
  deleteExpiredMetadataDocumentsStatement,
  findOAuthClient,
  type OAuthClientRow,
  upsertMetadataDocumentClientStatement,
} from "../../db/queries/oauth-clients";
import type { ProjectRow } from "../../db/queries/projects";
import { IsolateCache } from "../../lib/isolate-cache";
import { boundedFetch } from "../../lib/outbound-fetch";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { checkWebhookUrl } from "../webhooks/urls";
import { readRegistrationMetadata, registrationRequestSchema, rfcFieldName } from "./client-registration";
import { ruleContext } from "./client-registry";
import { checkClientMetadata, isLoopbackHost } from "./client-rules";

/** The fetch: 5 s in all (a slow host cannot hold an authorization request), 64 KiB (a document is a few hundred bytes). */
const FETCH_BOUNDS = { timeoutMs: 5_000, maxBodyBytes: 64 * 1024 } as const;
/** How long a fetched document is used: its Cache-Control max-age within these bounds, else an hour. */
const MIN_TTL_S = 5 * 60;
const MAX_TTL_S = 24 * 60 * 60;
const DEFAULT_TTL_S = 60 * 60;
/** A refused or unreachable document is not asked for again within this time (from this isolate), and only this long. */
const FAILURE_TTL_MS = 60_000;
/**
 * Documents one project caches at most. Why: any https URL can be presented as a client id, so the
 * cache must not grow with what strangers send; past the cap the expired ones go, and if none has
 * expired the document is used without being stored (fetched again on each use).
 */
export const METADATA_DOCUMENT_CAP = 1000;

// Project id + URL → why the document was refused (a plain message: nothing of a request is kept).
const refusals = new IsolateCache<string>({ ttlMs: FAILURE_TTL_MS, maxEntries: 1000 });

type Refused = Problem<"oauth_client_metadata_refused">;
const refused = (message: string) => fail("oauth_client_metadata_refused", { message });

/**
 * The URL a client id names when it is a metadata document's: https with a path (draft §3), no
 * fragment or credentials, and written canonically (so the document's client_id is compared with
 * exactly what was presented; dot segments and other spellings are refused). Development deployments
 * also take http on a loopback host, for local test servers.
 */
export function metadataDocumentUrl(clientId: string, options: { development: boolean }): URL | null {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return null;
  }
  const scheme = url.protocol === "https:" || (options.development && url.protocol === "http:" && isLoopbackHost(url.hostname));
  if (!scheme || url.pathname === "/" || url.hash || url.username || url.password) return null;
  return url.href === clientId ? url : null;
}

/** The document's lifetime in seconds from its Cache-Control (no-store and no-cache: the minimum). */
export function documentTtlSeconds(cacheControl: string | null): number {
  if (!cacheControl) return DEFAULT_TTL_S;
  if (/(^|,)\s*no-(store|cache)\b/i.test(cacheControl)) return MIN_TTL_S;
  const maxAge = /(^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl)?.[2];
  const seconds = maxAge === undefined ? DEFAULT_TTL_S : Number(maxAge);
  return Math.min(MAX_TTL_S, Math.max(MIN_TTL_S, seconds));
}

/** Fetches and checks the document: the client's row as it would be cached, or why it is refused. */
async function fetchDocument(deps: Deps, project: ProjectRow, url: URL): Promise<{ ok: true; value: OAuthClientRow } | Refused> {
  const context = ruleContext(deps, project);
  // The webhook URL rules: https and no private, loopback or metadata address outside development (SSRF).
  const allowed = checkWebhookUrl(url.href, { development: context.development });
  if (!allowed.ok) return refused(allowed.message.replace(/^url/, "the client id"));
  const res = await boundedFetch(url, { method: "GET", headers: { accept: "application/json" } }, FETCH_BOUNDS);
  if (!res.ok) return refused(res.message);
  if (res.status !== 200) return refused(`the document's URL answered HTTP ${res.status}.`);
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    return refused("the document is not JSON.");
  }
  const parsed = registrationRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refused(`${issue?.path.join(".") || "the document"}: ${issue?.message ?? "not a client metadata object"}.`);
  }
  const doc = parsed.data;
  if (doc.client_id !== url.href) return refused(`its client_id ${JSON.stringify(doc.client_id)} is not the document's URL.`);
  // Draft §4.1: a document is public, so it cannot hold a secret; such a client would authenticate with a published one.
  if ("client_secret" in doc || "client_secret_expires_at" in doc) return refused("a metadata document must not contain a client secret.");
  if (typeof doc.client_name !== "string") return refused("client_name is required.");
  const read = readRegistrationMetadata(doc, context.offeredScopes, "none");
  if (!read.ok) return refused(`${read.field}: ${read.message}`);
  if (read.metadata.tokenEndpointAuthMethod !== "none" && read.metadata.tokenEndpointAuthMethod !== "private_key_jwt")
    return refused("token_endpoint_auth_method must be none or private_key_jwt: a document cannot share a secret.");
  const checked = checkClientMetadata(read.metadata, context);
  if (!checked.ok) return refused(`${rfcFieldName(checked.field)}: ${checked.message}`);
  const now = deps.now();
  const ttl = documentTtlSeconds(res.headers.get("cache-control"));
  return {
    ok: true,
    value: {
      projectId: project.id,
      clientId: url.href,
      source: "metadata_document",
      ...checked.value,
      secretHash: null,
      secretPrefix: null,
      metadataExpiresAt: now + ttl * 1000,
      createdAt: now,
      updatedAt: now,
    },
  };
}

/** Stores the fetched document as the client's row; past the cap, the expired documents go first. */
async function cacheDocument(deps: Deps, row: OAuthClientRow): Promise<void> {
  const [stored] = await deps.db.batch([upsertMetadataDocumentClientStatement(deps.db, row, METADATA_DOCUMENT_CAP)]);
  if (stored.meta.changes > 0) return;
  await deps.db.batch([
    deleteExpiredMetadataDocumentsStatement(deps.db, row.projectId, deps.now()),
    upsertMetadataDocumentClientStatement(deps.db, row, METADATA_DOCUMENT_CAP),
  ]);
}

/**
 * The client a metadata document URL names: its cached row while fresh, else the document fetched
 * again (and cached). A failure says why; callers that only need the client take resolveClient's null.
 * The caller has checked that the project accepts documents (resolveClient does).
 */
export async function resolveMetadataDocumentClient(
  deps: Deps,
  project: ProjectRow,
  url: URL,
): Promise<{ ok: true; value: OAuthClientRow } | Refused> {
  const cached = await findOAuthClient(deps.db, project.id, url.href);
  const now = deps.now();
  if (cached?.source === "metadata_document" && (cached.metadataExpiresAt ?? 0) > now) return { ok: true, value: cached };
  const key = `${project.id}\n${url.href}`;
  const known = refusals.get(key, now);
  if (known !== undefined) return refused(known);
  const fetched = await fetchDocument(deps, project, url);
  if (!fetched.ok) {
    refusals.set(key, fetched.message, now);
    return fetched;
  }
  const row = { ...fetched.value, createdAt: cached?.createdAt ?? fetched.value.createdAt };
  await cacheDocument(deps, row);
  return { ok: true, value: row };
}
