/**
 * The enterprise SSO setup forms as data (issue 31, ADMIN), shared by the hosted sso-setup page and
 * the console's team SSO page: the form values → the connection update to send (enabled once the
 * IdP's values are all there), and a refused field of the API (SSO_CONNECTION_INVALID_CONFIG's
 * `details.field`, SSO_DOMAIN_INVALID) → the form field to mark invalid. No React, no wire.
 */
import type { SsoConnection, SsoConnectionUpdate } from "../../apps/sso-management";

export type SamlForm = { metadataXml: string; entityId: string; ssoUrl: string; certificate: string };
export type OidcForm = { issuer: string; clientId: string; clientSecret: string };
export type SsoFormField = keyof SamlForm | keyof OidcForm | "name" | "domain" | "form";

/** The SAML form filled from a connection (the metadata box starts empty). */
export function samlFormOf(connection: SsoConnection | null): SamlForm {
  const saml = connection?.saml;
  return { metadataXml: "", entityId: saml?.idpEntityId ?? "", ssoUrl: saml?.idpSsoUrl ?? "", certificate: saml?.idpCertificates[0] ?? "" };
}

export function oidcFormOf(connection: SsoConnection | null): OidcForm {
  const oidc = connection?.oidc;
  return { issuer: oidc?.issuer ?? "", clientId: oidc?.clientId ?? "", clientSecret: "" };
}

/**
 * The update a SAML form sends: the IdP's metadata when pasted (it fills the three fields), else the
 * fields given; `enabled: true` once the IdP's values are complete, so a finished setup signs people in.
 */
export function samlUpdateOf(form: SamlForm): SsoConnectionUpdate {
  if (form.metadataXml.trim()) return { saml: { idpMetadataXml: form.metadataXml }, enabled: true };
  const saml: NonNullable<SsoConnectionUpdate["saml"]> = {};
  if (form.entityId.trim()) saml.idpEntityId = form.entityId.trim();
  if (form.ssoUrl.trim()) saml.idpSsoUrl = form.ssoUrl.trim();
  if (form.certificate.trim()) saml.idpCertificates = [form.certificate.trim()];
  const complete = Boolean(saml.idpEntityId && saml.idpSsoUrl && saml.idpCertificates);
  return complete ? { saml, enabled: true } : { saml };
}

/** The update an OIDC form sends; an empty secret keeps the stored one (the secret is write-only). */
export function oidcUpdateOf(form: OidcForm): SsoConnectionUpdate {
  const oidc: NonNullable<SsoConnectionUpdate["oidc"]> = {};
  if (form.issuer.trim()) oidc.issuer = form.issuer.trim();
  if (form.clientId.trim()) oidc.clientId = form.clientId.trim();
  if (form.clientSecret) oidc.clientSecret = form.clientSecret;
  return oidc.issuer && oidc.clientId ? { oidc, enabled: true } : { oidc };
}

const API_FIELDS: Record<string, SsoFormField> = {
  "saml.idp_metadata_xml": "metadataXml",
  "saml.idp_entity_id": "entityId",
  "saml.idp_sso_url": "ssoUrl",
  "saml.idp_certificates": "certificate",
  "oidc.issuer": "issuer",
  "oidc.client_id": "clientId",
  "oidc.client_secret": "clientSecret",
  display_name: "name",
};

/** The form field a refusal of the API is about ("form" when it names none of the form's fields). */
export function formFieldOfError(error: unknown): SsoFormField {
  if (typeof error !== "object" || error === null) return "form";
  const { code, details } = error as { code?: unknown; details?: { field?: unknown } | null };
  if (code === "SSO_DOMAIN_INVALID" || code === "SSO_DOMAIN_ALREADY_CLAIMED") return "domain";
  if (code !== "SSO_CONNECTION_INVALID_CONFIG" || typeof details?.field !== "string") return "form";
  return API_FIELDS[details.field] ?? "form";
}

/** The token of a setup link's page: `#token=…` (where the link puts it), or `?token=…`. */
export function setupTokenOf(hash: string, search: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? new URLSearchParams(search).get("token");
  return token && /^[0-9a-z]{20,128}$/i.test(token) ? token : null;
}
