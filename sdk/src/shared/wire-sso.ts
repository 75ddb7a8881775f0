/**
 * Enterprise SSO (issue 31) on the wire: the shared paths and names (sso-paths.ts, re-exported here)
 * and, below, the zod schemas of the management API (ADMIN: connections, domains, setup links, the
 * team's SSO events) for the worker's route declarations. The SDK imports the schemas' inferred TYPES
 * only, and its runtime constants from sso-paths.ts: a runtime import of this file brings zod along.
 */
import { z } from "zod";
import { SSO_SETUP_LINK_MAX_TTL_MS } from "./sso-paths";

export * from "./sso-paths";

const millis = z.number().int();
const mappingName = z.string().min(1).max(256).nullable();

/** Which SAML attribute / OIDC claim carries each profile field (null: the protocol's default). */
export const ssoAttributeMappingSchema = z.object({ email: mappingName, name: mappingName, groups: mappingName });

/** SCIM groups → team permissions: a member of `group` (its SCIM displayName) holds `permission_ids` in the team. */
export const ssoGroupMappingSchema = z
  .array(
    z.strictObject({
      group: z.string().trim().min(1).max(256),
      permission_ids: z.array(z.string().min(1).max(256)).max(50),
    }),
  )
  .max(200);

/** A SAML connection's IdP settings; the IdP fields are null while the connection is a draft. */
export const ssoSamlSettingsSchema = z.object({
  idp_entity_id: z.string().nullable(),
  idp_sso_url: z.string().nullable(),
  /** The IdP's signing certificates (PEM). */
  idp_certificates: z.array(z.string()),
  require_signed_response: z.boolean(),
  require_encrypted_assertions: z.boolean(),
  sign_authn_requests: z.boolean(),
  clock_skew_seconds: z.number().int(),
});

/** An OIDC connection's settings; the client secret is write-only (`has_client_secret` says whether one is stored). */
export const ssoOidcSettingsSchema = z.object({
  issuer: z.string().nullable(),
  client_id: z.string().nullable(),
  has_client_secret: z.boolean(),
  scopes: z.array(z.string()),
});

/** What the customer's IdP is told about Doorman, for a SAML connection (to copy, or as metadata). */
export const ssoServiceProviderSchema = z.object({
  entity_id: z.string(),
  acs_url: z.string(),
  metadata_url: z.string(),
  /** The connection's own certificate (PEM): signs AuthnRequests, receives encrypted assertions; null when it has none. */
  certificate: z.string().nullable(),
});

export const ssoConnectionSchema = z.object({
  id: z.string(),
  team_id: z.string(),
  protocol: z.enum(["saml", "oidc"]),
  display_name: z.string(),
  enabled: z.boolean(),
  /** False while the IdP settings are incomplete (a draft): it cannot be enabled until they are. */
  is_complete: z.boolean(),
  allow_idp_initiated: z.boolean(),
  saml: ssoSamlSettingsSchema.nullable(),
  oidc: ssoOidcSettingsSchema.nullable(),
  attribute_mapping: ssoAttributeMappingSchema,
  /** SAML only. */
  service_provider: ssoServiceProviderSchema.nullable(),
  /** OIDC only: the redirect URI to register at the IdP. */
  oidc_redirect_uri: z.string().nullable(),
  scim: z.object({
    /** The SCIM 2.0 base URL to give the IdP's provisioning. */
    base_url: z.string(),
    /** The current token's first characters (null: no token yet; SCIM refuses every call). */
    token_prefix: z.string().nullable(),
    group_mapping: ssoGroupMappingSchema,
  }),
  created_at_millis: millis,
  updated_at_millis: millis,
});

/*
 * Request bodies. Zod checks types and generous lengths; the worker checks the rest against the
 * connection config schemas and answers SSO_CONNECTION_INVALID_CONFIG naming the field.
 */

/** SAML settings to set: the fields, or the IdP's metadata XML instead of the three IdP fields. */
export const ssoSamlSettingsInputSchema = z.strictObject({
  idp_metadata_xml: z
    .string()
    .max(256 * 1024)
    .optional(),
  idp_entity_id: z.string().max(1024).optional(),
  idp_sso_url: z.string().max(2048).optional(),
  idp_certificates: z.array(z.string().max(16_384)).max(3).optional(),
  require_signed_response: z.boolean().optional(),
  require_encrypted_assertions: z.boolean().optional(),
  sign_authn_requests: z.boolean().optional(),
  clock_skew_seconds: z.number().int().min(0).max(600).optional(),
});

/** OIDC settings to set. `client_secret`: a new secret (sealed at once, never answered), or null to remove it (PKCE only). */
export const ssoOidcSettingsInputSchema = z.strictObject({
  issuer: z.string().max(1024).optional(),
  client_id: z.string().max(512).optional(),
  client_secret: z.string().min(1).max(2048).nullable().optional(),
  scopes: z.array(z.string().min(1).max(128)).max(20).optional(),
});

const connectionFields = {
  display_name: z.string().trim().min(1).max(256),
  enabled: z.boolean(),
  allow_idp_initiated: z.boolean(),
  saml: ssoSamlSettingsInputSchema,
  oidc: ssoOidcSettingsInputSchema,
  attribute_mapping: ssoAttributeMappingSchema.partial().strict(),
  scim_group_mapping: ssoGroupMappingSchema,
};

/** POST /sso/connections. Without the IdP settings the connection is a disabled draft (its SP values can be handed to the IdP first). */
export const ssoConnectionCreateSchema = z
  .strictObject({ team_id: z.string().min(1).max(64), protocol: z.enum(["saml", "oidc"]) })
  .extend(connectionFields)
  .partial({
    enabled: true,
    allow_idp_initiated: true,
    saml: true,
    oidc: true,
    attribute_mapping: true,
    scim_group_mapping: true,
  });

/** PATCH /sso/connections/{id}: the fields to change (the protocol and team are fixed). */
export const ssoConnectionUpdateSchema = z.strictObject(connectionFields).partial();

/** POST /sso/connections/{id}/scim-token: the token, this once (Doorman keeps its SHA-256). */
export const ssoScimTokenSchema = z.object({
  scim_token: z.string(),
  scim_token_prefix: z.string(),
  scim_base_url: z.string(),
});

/** GET /sso/connections/{id}/sp-metadata: the SP metadata to hand the IdP as a file (the public URL serves it once enabled). */
export const ssoSpMetadataSchema = z.object({ metadata_xml: z.string(), metadata_url: z.string() });

export const ssoDomainSchema = z.object({
  id: z.string(),
  team_id: z.string(),
  domain: z.string(),
  /** pending: the TXT record was not seen yet; verified; lost: it was verified and a later check no longer found it. */
  status: z.enum(["pending", "verified", "lost"]),
  /** The connection its emails go to (null: the team's first enabled one). */
  connection_id: z.string().nullable(),
  enforce_sso: z.boolean(),
  auto_join: z.boolean(),
  /** The DNS record that proves the team owns the domain. */
  txt_record: z.object({ name: z.string(), value: z.string() }),
  verified_at_millis: millis.nullable(),
  checked_at_millis: millis.nullable(),
  created_at_millis: millis,
});

/** POST /sso/domains. */
export const ssoDomainCreateSchema = z.strictObject({ team_id: z.string().min(1).max(64), domain: z.string().max(300) });
/** PATCH /sso/domains/{id}. */
export const ssoDomainUpdateSchema = z
  .strictObject({ enforce_sso: z.boolean(), auto_join: z.boolean(), connection_id: z.string().min(1).max(64).nullable() })
  .partial();

/** POST /sso/setup-links. */
export const ssoSetupLinkCreateSchema = z.strictObject({
  team_id: z.string().min(1).max(64),
  expires_in_millis: z.number().int().min(60_000).max(SSO_SETUP_LINK_MAX_TTL_MS).optional(),
});
export const ssoSetupLinkSchema = z.object({ url: z.string(), expires_at_millis: millis });
/** GET /sso/setup-links/current (with the token header): the link's team. */
export const ssoSetupLinkInfoSchema = z.object({ team_id: z.string(), team_display_name: z.string(), expires_at_millis: millis });

export type SsoAttributeMappingJson = z.infer<typeof ssoAttributeMappingSchema>;
export type SsoGroupMappingJson = z.infer<typeof ssoGroupMappingSchema>;
export type SsoConnectionJson = z.infer<typeof ssoConnectionSchema>;
export type SsoConnectionCreateJson = z.infer<typeof ssoConnectionCreateSchema>;
export type SsoConnectionUpdateJson = z.infer<typeof ssoConnectionUpdateSchema>;
export type SsoSamlSettingsInputJson = z.infer<typeof ssoSamlSettingsInputSchema>;
export type SsoOidcSettingsInputJson = z.infer<typeof ssoOidcSettingsInputSchema>;
export type SsoScimTokenJson = z.infer<typeof ssoScimTokenSchema>;
export type SsoSpMetadataJson = z.infer<typeof ssoSpMetadataSchema>;
export type SsoDomainJson = z.infer<typeof ssoDomainSchema>;
export type SsoDomainUpdateJson = z.infer<typeof ssoDomainUpdateSchema>;
export type SsoSetupLinkJson = z.infer<typeof ssoSetupLinkSchema>;
export type SsoSetupLinkInfoJson = z.infer<typeof ssoSetupLinkInfoSchema>;
