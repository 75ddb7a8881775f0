/**
 * The rules every OAuth client's metadata follows, whoever registered it (an owner in the console,
 * RFC 7591 dynamic registration, or a client ID metadata document): name, type and token endpoint
 * authentication, redirect URIs, scopes, the display URIs and the client's public keys. One function,
 * `checkClientMetadata`, answers the normalised metadata or the first broken rule naming its field.
 */
import type { ProjectRow } from "../../db/queries/projects";
import { renderedConfigOf } from "../project-config/cache";
import { fail, type Problem } from "../result";
import { checkWebhookUrl } from "../webhooks/urls";
import { STANDARD_SCOPES } from "./config";

export type ClientType = "confidential" | "public";
export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
export type Jwks = { keys: Record<string, unknown>[] };

/** A client's metadata in the worker's shape (the row's columns, before ids and secrets). */
export type ClientMetadata = {
  name: string;
  clientType: ClientType;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  redirectUris: string[];
  /** Null: every scope the project offers. */
  allowedScopes: string[] | null;
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  jwks: Jwks | null;
  jwksUri: string | null;
};

/** What the rules depend on besides the metadata: the project's scopes and whether local URLs are allowed. */
export type RuleContext = { offeredScopes: readonly string[]; development: boolean };

/**
 * The bounds, which also bound a client row (about 20 KiB of redirect URIs, 16 KiB of logo and 16 KiB of
 * keys at most), so a capped number of rows is a bounded amount of storage.
 */
export const CLIENT_LIMITS = {
  nameLength: 100,
  redirectUris: 20,
  uriLength: 1024,
  logoDataUriLength: 16_384,
  jwksKeys: 10,
  jwksBytes: 16_384,
} as const;

export type CheckedClient = { ok: true; value: ClientMetadata } | Problem<"oauth_client_invalid">;

const invalid = (field: string, message: string) => fail("oauth_client_invalid", { field, message });

/** The scopes a client of this project may be allowed: the standard ones and the owner's custom ones. */
export function offeredScopes(project: ProjectRow): string[] {
  return [...STANDARD_SCOPES, ...Object.keys(renderedConfigOf(project).doorman.oauthProvider.scopes)];
}

/** Local URLs (http, loopback and private hosts) are for development deployments, and never for a project in production mode. */
export function allowsLocalUrls(environment: string, project: Pick<ProjectRow, "isProductionMode">): boolean {
  return environment === "development" && !project.isProductionMode;
}

/** The hosts RFC 8252 §7.3 lets a native app listen on with plain http: the user's own machine. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * Why a redirect URI is refused, or null when it is fine. Why not the project's trusted domains (the
 * rule for Doorman's own callbacks): these URIs are the third-party app's, and the registered list is
 * itself the allow-list the authorize endpoint matches exactly.
 */
export function redirectUriProblem(raw: string): string | null {
  if (raw.length === 0) return "a redirect URI cannot be empty.";
  if (raw.length > CLIENT_LIMITS.uriLength) return `${raw.slice(0, 60)}… is longer than ${CLIENT_LIMITS.uriLength} characters.`;
  // RFC 9700 §4.1.3: redirect URIs are matched exactly; a wildcard would let any matching page receive codes.
  if (raw.includes("*")) return `${raw} contains a wildcard (*): register each redirect URI exactly.`;
  // RFC 6749 §3.1.2: the code is added to the query; a fragment would be dropped or confused with the response.
  if (raw.includes("#")) return `${raw} contains a fragment (#): redirect URIs must not have one.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${raw} is not an absolute URL (such as https://app.example.com/callback).`;
  }
  // user:password@host reads as another host to a person (https://bank.example@evil.example): refused.
  if (url.username || url.password) return `${raw} contains a user name or password.`;
  if (url.protocol === "https:") return url.hostname ? null : `${raw} has no host.`;
  if (url.protocol === "http:") {
    // RFC 8252 §7.3: plain http only to the user's own machine (a native app's loopback listener), never over a network.
    return isLoopbackHost(url.hostname)
      ? null
      : `${raw} uses http: only loopback hosts (localhost, 127.0.0.1, [::1]) may, for native apps; use https.`;
  }
  // RFC 8252 §7.1: a native app's private-use scheme is a reverse domain name it controls (com.example.app:/callback);
  // a scheme without a dot (javascript:, data:, file:, myapp:) is refused as not clearly owned by the app.
  const scheme = url.protocol.slice(0, -1);
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/.test(scheme)) return null;
  return `${raw} must use https, http on a loopback host (http://127.0.0.1:8080/callback) or a private-use scheme in reverse-domain form (com.example.app:/callback).`;
}

/** An https link the consent page shows (client_uri, policy_uri, tos_uri, an https logo). */
function httpsLinkProblem(raw: string, what: string): string | null {
  if (raw.length > CLIENT_LIMITS.uriLength) return `the ${what} is longer than ${CLIENT_LIMITS.uriLength} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `the ${what} must be an absolute https URL.`;
  }
  // https only: the page that shows the link or image is served over https (no mixed content, no downgrade).
  if (url.protocol !== "https:") return `the ${what} must use https.`;
  if (url.username || url.password) return `the ${what} must not contain a user name or password.`;
  return null;
}

/** Raster images only: an SVG opened on its own runs script, a PNG/JPEG/GIF/WebP cannot. */
const LOGO_DATA_URI = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

function logoProblem(raw: string): string | null {
  if (!raw.startsWith("data:")) return httpsLinkProblem(raw, "logo URI");
  if (raw.length > CLIENT_LIMITS.logoDataUriLength)
    return `a data: logo may be at most ${CLIENT_LIMITS.logoDataUriLength} characters; use an https URL for a larger image.`;
  return LOGO_DATA_URI.test(raw) ? null : "a data: logo must be a base64 PNG, JPEG, GIF or WebP image (data:image/png;base64,…).";
}

/** Members that only a private (or symmetric) key has: a client's JWKS publishes public keys only. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
const PUBLIC_MEMBERS: Record<string, string[]> = { RSA: ["n", "e"], EC: ["crv", "x", "y"], OKP: ["crv", "x"] };

function jwksProblem(jwks: Jwks): string | null {
  if (!Array.isArray(jwks.keys) || jwks.keys.length === 0) return "the JWKS must have at least one key.";
  if (jwks.keys.length > CLIENT_LIMITS.jwksKeys) return `the JWKS may have at most ${CLIENT_LIMITS.jwksKeys} keys.`;
  if (JSON.stringify(jwks).length > CLIENT_LIMITS.jwksBytes) return `the JWKS may be at most ${CLIENT_LIMITS.jwksBytes} bytes.`;
  for (const [i, key] of jwks.keys.entries()) {
    if (typeof key !== "object" || key === null || Array.isArray(key)) return `key ${i} is not a JSON object.`;
    // A private key sent to us would be a leaked secret, and a symmetric one (k) is not a key for private_key_jwt.
    const secret = PRIVATE_MEMBERS.find((m) => m in key);
    if (secret) return `key ${i} has the private member "${secret}": publish only public keys.`;
    const members = PUBLIC_MEMBERS[String(key.kty)];
    if (!members) return `key ${i} must have kty RSA, EC or OKP.`;
    const missing = members.find((m) => typeof key[m] !== "string");
    if (missing) return `key ${i} (${String(key.kty)}) is missing "${missing}".`;
  }
  return null;
}

function jwksUriProblem(raw: string, development: boolean): string | null {
  if (raw.length > CLIENT_LIMITS.uriLength) return `the JWKS URI is longer than ${CLIENT_LIMITS.uriLength} characters.`;
  // The token endpoint fetches it: the webhook URL rules keep that fetch off private networks (SSRF).
  const check = checkWebhookUrl(raw, { development });
  return check.ok ? null : check.message.replace(/^url/, "the JWKS URI");
}

const nullIfEmpty = (v: string | null) => (v === null || v.trim() === "" ? null : v.trim());

/** Checks one client's metadata; answers it normalised (trimmed, de-duplicated, empty optional URIs as null). */
export function checkClientMetadata(input: ClientMetadata, ctx: RuleContext): CheckedClient {
  const name = input.name.trim();
  if (name.length === 0) return invalid("name", "a client needs a name (people see it on the consent page).");
  if (name.length > CLIENT_LIMITS.nameLength) return invalid("name", `the name may be at most ${CLIENT_LIMITS.nameLength} characters.`);
  // Control characters could hide or reorder what the consent page shows.
  if (/\p{Cc}/u.test(name)) return invalid("name", "the name must not contain control characters.");

  const method = input.tokenEndpointAuthMethod;
  // OAuth 2.1 §2.1: a public client cannot keep a secret, so it authenticates with PKCE alone (method none).
  if (input.clientType === "public" && method !== "none")
    return invalid("token_endpoint_auth_method", "a public client cannot keep a secret: its method is none (PKCE only).");
  if (input.clientType === "confidential" && method === "none")
    return invalid(
      "token_endpoint_auth_method",
      "a confidential client authenticates: client_secret_basic, client_secret_post or private_key_jwt.",
    );

  const redirectUris = [...new Set(input.redirectUris.map((u) => u.trim()))];
  if (redirectUris.length === 0) return invalid("redirect_uris", "register at least one redirect URI.");
  if (redirectUris.length > CLIENT_LIMITS.redirectUris)
    return invalid("redirect_uris", `at most ${CLIENT_LIMITS.redirectUris} redirect URIs.`);
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) return invalid("redirect_uris", problem);
  }

  let allowedScopes: string[] | null = null;
  if (input.allowedScopes !== null) {
    allowedScopes = [...new Set(input.allowedScopes.map((s) => s.trim()))];
    if (allowedScopes.length === 0) return invalid("allowed_scopes", "list at least one scope, or leave it unset to allow every scope.");
    const unknown = allowedScopes.filter((s) => !ctx.offeredScopes.includes(s));
    if (unknown.length)
      return invalid(
        "allowed_scopes",
        `${unknown.join(", ")} ${unknown.length === 1 ? "is not a scope" : "are not scopes"} of this project.`,
      );
  }

  const logoUri = nullIfEmpty(input.logoUri);
  const logo = logoUri === null ? null : logoProblem(logoUri);
  if (logo) return invalid("logo_uri", logo);
  const links = { client_uri: nullIfEmpty(input.clientUri), policy_uri: nullIfEmpty(input.policyUri), tos_uri: nullIfEmpty(input.tosUri) };
  const labels = { client_uri: "app's home page", policy_uri: "privacy policy URI", tos_uri: "terms of service URI" };
  for (const field of ["client_uri", "policy_uri", "tos_uri"] as const) {
    const value = links[field];
    const problem = value === null ? null : httpsLinkProblem(value, labels[field]);
    if (problem) return invalid(field, problem);
  }

  const jwksUri = nullIfEmpty(input.jwksUri);
  const jwks = input.jwks;
  if (method === "private_key_jwt") {
    if (jwks && jwksUri) return invalid("jwks", "give the keys inline (jwks) or by URL (jwks_uri), not both (RFC 7591 §2).");
    if (!jwks && !jwksUri) return invalid("jwks", "private_key_jwt needs the client's public keys: jwks or jwks_uri.");
  } else if (jwks || jwksUri) {
    return invalid(jwks ? "jwks" : "jwks_uri", "keys are only for clients that authenticate with private_key_jwt.");
  }
  const keysProblem = jwks ? jwksProblem(jwks) : null;
  if (keysProblem) return invalid("jwks", keysProblem);
  const uriProblem = jwksUri ? jwksUriProblem(jwksUri, ctx.development) : null;
  if (uriProblem) return invalid("jwks_uri", uriProblem);

  return {
    ok: true,
    value: {
      name,
      clientType: input.clientType,
      tokenEndpointAuthMethod: method,
      redirectUris,
      allowedScopes,
      logoUri,
      clientUri: links.client_uri,
      policyUri: links.policy_uri,
      tosUri: links.tos_uri,
      jwks,
      jwksUri,
    },
  };
}
