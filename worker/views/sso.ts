/**
 * Enterprise SSO management on the wire (issue 31, ADMIN): a connection (never a secret: the OIDC
 * client secret is write-only, the SAML private key and the SCIM token stay in the worker), its SP
 * values for the IdP, and a domain claim with the TXT record that proves it.
 */
import {
  SSO_PATHS,
  type SsoConnectionJson,
  type SsoDomainJson,
  type SsoGroupMappingJson,
  samlSpEntityId,
  ssoDomainTxtName,
  ssoDomainTxtValue,
} from "@doorman/shared/wire-sso";
import type { SsoConnectionRow } from "../db/queries/sso-connections";
import type { SsoDomainRow } from "../db/queries/sso-domains";
import { isCompleteConfig, readOidcDraft, readSamlDraft } from "../services/sso/connection-settings";

const api = (apiUrl: string, path: string) => `${apiUrl.replace(/\/+$/, "")}/api/v1${path}`;

export function groupMappingView(mapping: Record<string, string[]>): SsoGroupMappingJson {
  return Object.entries(mapping).map(([group, permissionIds]) => ({ group, permission_ids: permissionIds }));
}

export function ssoConnectionView(row: SsoConnectionRow, apiUrl: string): SsoConnectionJson {
  const saml = row.protocol === "saml" ? readSamlDraft(row.config) : null;
  const oidc = row.protocol === "oidc" ? readOidcDraft(row.config) : null;
  return {
    id: row.id,
    team_id: row.teamId,
    protocol: row.protocol,
    display_name: row.displayName,
    enabled: row.enabled,
    is_complete: isCompleteConfig(row.protocol, row.config),
    allow_idp_initiated: row.allowIdpInitiated,
    saml: saml && {
      idp_entity_id: saml.idpEntityId ?? null,
      idp_sso_url: saml.idpSsoUrl ?? null,
      idp_certificates: saml.idpCertificates ?? [],
      require_signed_response: saml.requireSignedResponse,
      require_encrypted_assertions: saml.requireEncryptedAssertions,
      sign_authn_requests: saml.signAuthnRequests,
      clock_skew_seconds: saml.clockSkewSeconds,
    },
    oidc: oidc && {
      issuer: oidc.issuer ?? null,
      client_id: oidc.clientId ?? null,
      // Write-only: whether a secret is stored, never the secret (nor its sealed form).
      has_client_secret: oidc.clientSecretSealed !== null,
      scopes: oidc.scopes,
    },
    attribute_mapping: (saml ?? oidc)?.attributeMapping ?? { email: null, name: null, groups: null },
    service_provider:
      row.protocol === "saml"
        ? {
            entity_id: samlSpEntityId(apiUrl.replace(/\/+$/, ""), row.id),
            acs_url: api(apiUrl, SSO_PATHS.samlAcs(row.id)),
            metadata_url: api(apiUrl, SSO_PATHS.samlMetadata(row.id)),
            certificate: row.spCertificate,
          }
        : null,
    oidc_redirect_uri: row.protocol === "oidc" ? api(apiUrl, SSO_PATHS.oidcCallback(row.id)) : null,
    scim: {
      base_url: api(apiUrl, SSO_PATHS.scimBase(row.id)),
      token_prefix: row.scimTokenPrefix,
      group_mapping: groupMappingView(row.scimGroupMapping),
    },
    created_at_millis: row.createdAt,
    updated_at_millis: row.updatedAt,
  };
}

export function ssoDomainView(row: SsoDomainRow): SsoDomainJson {
  return {
    id: row.id,
    team_id: row.teamId,
    domain: row.domain,
    status: row.status,
    connection_id: row.connectionId,
    enforce_sso: row.enforceSso,
    auto_join: row.autoJoin,
    txt_record: { name: ssoDomainTxtName(row.domain), value: ssoDomainTxtValue(row.verificationToken) },
    verified_at_millis: row.verifiedAt,
    checked_at_millis: row.checkedAt,
    created_at_millis: row.createdAt,
  };
}
