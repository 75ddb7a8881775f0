/**
 * A connection's settings as the management API takes them (issue 31, ADMIN): the wire's partial
 * SAML / OIDC input merged into the stored `config` (services/sso/connection-config.ts), each field
 * checked with a message naming it, the OIDC client secret sealed. A connection whose IdP fields are
 * not all set yet is a draft: stored disabled, so its SP values (entity id, ACS URL, redirect URI)
 * can be handed to the IdP before the IdP's own values exist.
 */
import type { SsoOidcSettingsInputJson, SsoSamlSettingsInputJson } from "@doorman/shared/wire-sso";
import type { Deps } from "../deps";
import { sealConfigValue } from "../project-config/secrets";
import { fail, type Problem } from "../result";
import { checkWebhookUrl } from "../webhooks/urls";
import { normaliseCertificate } from "./certificates";
import { type AttributeMapping, defaultSamlConfig, oidcConnectionConfigSchema, samlConnectionConfigSchema } from "./connection-config";

export type SsoProtocol = "saml" | "oidc";
/** The stored config of a connection: complete, or a draft missing IdP fields. */
export type StoredSsoConfig = Record<string, unknown>;
export type SettingsProblem = Problem<"sso_connection_invalid_config">;
type Checked<T> = { ok: true; value: T } | SettingsProblem;

const invalid = (field: string, message: string): SettingsProblem => fail("sso_connection_invalid_config", { field, message });

/** The IdP's values a draft may still lack; every other field always has a value. */
const samlDraftSchema = samlConnectionConfigSchema.partial({ idpEntityId: true, idpSsoUrl: true, idpCertificates: true });
const oidcDraftSchema = oidcConnectionConfigSchema.partial({ issuer: true, clientId: true });
export type SamlDraft = ReturnType<typeof samlDraftSchema.parse>;
export type OidcDraft = ReturnType<typeof oidcDraftSchema.parse>;

/** A new connection's config before any input. */
export function emptyConfig(protocol: SsoProtocol): StoredSsoConfig {
  if (protocol === "saml") return defaultSamlConfig();
  const mapping: AttributeMapping = { email: null, name: null, groups: null };
  return { clientSecretSealed: null, scopes: [], attributeMapping: mapping };
}

/** Whether every IdP value is set: only a complete connection may be enabled. */
export function isCompleteConfig(protocol: SsoProtocol, config: StoredSsoConfig): boolean {
  return (protocol === "saml" ? samlConnectionConfigSchema : oidcConnectionConfigSchema).safeParse(config).success;
}

/** The stored config read as a draft (a row written by this API always is one). */
export function readSamlDraft(config: StoredSsoConfig): SamlDraft {
  const parsed = samlDraftSchema.safeParse(config);
  return parsed.success ? parsed.data : { ...defaultSamlConfig() };
}
export function readOidcDraft(config: StoredSsoConfig): OidcDraft {
  const parsed = oidcDraftSchema.safeParse(config);
  return parsed.success ? parsed.data : (emptyConfig("oidc") as OidcDraft);
}

/** A URL the browser or the worker is sent to: https, or http on a development deployment only; never with credentials. */
function checkHttpsUrl(raw: string, field: string, development: boolean): Checked<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return invalid(field, "must be an absolute https URL.");
  }
  if (url.protocol !== "https:" && !(development && url.protocol === "http:")) return invalid(field, "must be an https URL.");
  // A URL with credentials would show them to every browser sent there.
  if (url.username || url.password) return invalid(field, "must not contain a user name or password.");
  return { ok: true, value: url.toString() };
}

export type SamlIdpValues = { entityId: string; ssoUrl: string; certificates: string[] };

/**
 * The SAML input applied to `current`. `fromMetadata` (the parsed IdP metadata, when the input
 * carried it) supplies the three IdP fields; explicit fields of the same request win over it.
 */
export function applySamlInput(
  current: SamlDraft,
  input: SsoSamlSettingsInputJson,
  development: boolean,
  fromMetadata?: SamlIdpValues,
): Checked<SamlDraft> {
  const next: SamlDraft = { ...current };
  const entityId = input.idp_entity_id ?? fromMetadata?.entityId;
  if (entityId !== undefined) {
    if (!entityId.trim()) return invalid("saml.idp_entity_id", "must not be empty.");
    next.idpEntityId = entityId.trim();
  }
  const ssoUrl = input.idp_sso_url ?? fromMetadata?.ssoUrl;
  if (ssoUrl !== undefined) {
    const url = checkHttpsUrl(ssoUrl, "saml.idp_sso_url", development);
    if (!url.ok) return url;
    next.idpSsoUrl = url.value;
  }
  const certificates = input.idp_certificates ?? fromMetadata?.certificates;
  if (certificates !== undefined) {
    if (certificates.length === 0) return invalid("saml.idp_certificates", "at least one signing certificate is needed.");
    const pems: string[] = [];
    for (const [i, text] of certificates.entries()) {
      const pem = normaliseCertificate(text);
      if (!pem) return invalid("saml.idp_certificates", `certificate ${i + 1} is not an X.509 certificate (PEM or base64 DER).`);
      pems.push(pem);
    }
    next.idpCertificates = pems.slice(0, 3);
  }
  if (input.require_signed_response !== undefined) next.requireSignedResponse = input.require_signed_response;
  if (input.require_encrypted_assertions !== undefined) next.requireEncryptedAssertions = input.require_encrypted_assertions;
  if (input.sign_authn_requests !== undefined) next.signAuthnRequests = input.sign_authn_requests;
  if (input.clock_skew_seconds !== undefined) next.clockSkewSeconds = input.clock_skew_seconds;
  return { ok: true, value: next };
}

/** RFC 6749 §3.3 scope-token characters. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The OIDC input applied to `current`; a new client secret is sealed here and never leaves the worker again. */
export async function applyOidcInput(
  deps: Deps,
  current: OidcDraft,
  input: SsoOidcSettingsInputJson,
  development: boolean,
): Promise<Checked<OidcDraft>> {
  const next: OidcDraft = { ...current };
  if (input.issuer !== undefined) {
    // The worker fetches the issuer's discovery document: in production never a private or loopback host (SSRF).
    const check = checkWebhookUrl(input.issuer.trim(), { development });
    if (!check.ok) return invalid("oidc.issuer", check.message.replace(/^url /, ""));
    if (check.url.search || check.url.hash) return invalid("oidc.issuer", "must not have a query or fragment.");
    // The ID token's `iss` must equal the issuer exactly: kept as given, without a trailing slash added.
    next.issuer = input.issuer.trim().replace(/\/+$/, "");
  }
  if (input.client_id !== undefined) {
    if (!input.client_id.trim()) return invalid("oidc.client_id", "must not be empty.");
    next.clientId = input.client_id.trim();
  }
  if (input.client_secret !== undefined) {
    // Sealed at once (AES-256-GCM under SERVER_SECRET): write-only on the wire, opened only for the token request.
    next.clientSecretSealed = input.client_secret === null ? null : await sealConfigValue(deps, input.client_secret);
  }
  if (input.scopes !== undefined) {
    const bad = input.scopes.find((s) => !SCOPE_TOKEN.test(s));
    if (bad !== undefined) return invalid("oidc.scopes", `${JSON.stringify(bad)} is not a scope (no spaces, quotes or backslashes).`);
    next.scopes = [...new Set(input.scopes.filter((s) => !["openid", "email", "profile"].includes(s)))];
  }
  return { ok: true, value: next };
}

/** The attribute mapping with the given fields replaced. */
export function applyAttributeMapping(current: AttributeMapping, input: Partial<AttributeMapping>): AttributeMapping {
  return { ...current, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
}
