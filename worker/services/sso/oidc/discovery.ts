/**
 * OpenID Connect discovery of a connection's issuer (issue 31, FLOW; OpenID Connect Discovery 1.0 §4):
 * `{issuer}/.well-known/openid-configuration`, fetched bounded (bounds.ts), its `issuer` equal to the
 * configured one (§4.3: a document for another issuer is refused), kept briefly per isolate. The
 * issuer and every endpoint it names follow the webhook URL rules (https, no private, loopback or
 * metadata address outside development): a team's admin chooses them, and the worker calls them (SSRF).
 */
import { IsolateCache } from "../../../lib/isolate-cache";
import { boundedFetch } from "../../../lib/outbound-fetch";
import type { Deps } from "../../deps";
import { checkWebhookUrl } from "../../webhooks/urls";
import { oidcBounds, parseJsonObject } from "./bounds";

export type OidcDiscovery = {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  /** token_endpoint_auth_methods_supported (absent: client_secret_basic, the spec's default). */
  tokenAuthMethods: string[];
  /** id_token_signing_alg_values_supported (absent: RS256). */
  idTokenAlgs: string[];
};

export type DiscoveryResult = { ok: true; discovery: OidcDiscovery } | { ok: false; kind: "unavailable" | "invalid"; message: string };

/** How long a discovery document is used: short, so an IdP's change shows within minutes. */
export const DISCOVERY_TTL_MS = 5 * 60 * 1000;
// Bounded: one entry per issuer in use on this isolate.
const discoveries = new IsolateCache<OidcDiscovery>({ ttlMs: DISCOVERY_TTL_MS, maxEntries: 256 });

const httpUrl = (value: unknown): string | null => {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? value : null;
  } catch {
    return null;
  }
};
const strings = (value: unknown, fallback: string[]) =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : fallback;

/** The issuer's discovery document (cached), or why not. `localUrls`: a development project may use http and local hosts. */
export async function discoverIssuer(deps: Deps, issuer: string, localUrls: boolean): Promise<DiscoveryResult> {
  const issuerCheck = checkWebhookUrl(issuer, { development: localUrls });
  if (!issuerCheck.ok) return { ok: false, kind: "invalid", message: issuerCheck.message.replace(/^url/, "the issuer") };
  const now = deps.now();
  const found = discoveries.get(issuer, now) ?? (await fetchDiscovery(deps, issuer, now));
  if (!("authorizationEndpoint" in found)) return found;
  for (const url of [found.authorizationEndpoint, found.tokenEndpoint, found.jwksUri]) {
    const check = checkWebhookUrl(url, { development: localUrls });
    if (!check.ok) return { ok: false, kind: "invalid", message: check.message.replace(/^url/, "an endpoint of the discovery") };
  }
  return { ok: true, discovery: found };
}

async function fetchDiscovery(deps: Deps, issuer: string, now: number): Promise<OidcDiscovery | Exclude<DiscoveryResult, { ok: true }>> {
  const readAt = discoveries.epoch;
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const res = await boundedFetch(url, { headers: { accept: "application/json", "user-agent": "doorman" } }, oidcBounds(deps));
  if (!res.ok) return { ok: false, kind: "unavailable", message: `discovery: ${res.message}` };
  if (res.status !== 200) return { ok: false, kind: "unavailable", message: `discovery answered ${res.status}` };
  const doc = parseJsonObject(res.body);
  if (!doc) return { ok: false, kind: "invalid", message: "discovery is not a JSON object" };
  // Discovery §4.3: the document must be the configured issuer's own (a mix-up would trust another IdP's tokens).
  if (doc.issuer !== issuer) return { ok: false, kind: "invalid", message: "discovery names another issuer" };
  const authorizationEndpoint = httpUrl(doc.authorization_endpoint);
  const tokenEndpoint = httpUrl(doc.token_endpoint);
  const jwksUri = httpUrl(doc.jwks_uri);
  if (!authorizationEndpoint || !tokenEndpoint || !jwksUri) return { ok: false, kind: "invalid", message: "discovery lacks an endpoint" };
  const discovery: OidcDiscovery = {
    issuer,
    authorizationEndpoint,
    tokenEndpoint,
    jwksUri,
    tokenAuthMethods: strings(doc.token_endpoint_auth_methods_supported, ["client_secret_basic"]),
    idTokenAlgs: strings(doc.id_token_signing_alg_values_supported, ["RS256"]),
  };
  discoveries.set(issuer, discovery, now, readAt);
  return discovery;
}

/** Forgets every cached discovery document (tests). */
export function forgetDiscoveries(): void {
  discoveries.forgetAll();
}
