/**
 * The protocol settings of an SSO connection (issue 31), stored as `sso_connections.config` JSON.
 * One schema per protocol; the row's `protocol` column says which. Secrets inside are sealed
 * (crypto/at-rest.ts) before they reach D1 and are never answered on reads.
 */
import { z } from "zod";

/** How long a SAML assertion's time window may be stretched either way for clocks that disagree. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 120;
export const MAX_CLOCK_SKEW_SECONDS = 600;

/** Which SAML attribute (or OIDC claim) carries each profile field; null = the protocol's default. */
export const attributeMappingSchema = z.strictObject({
  email: z.string().min(1).max(256).nullable(),
  name: z.string().min(1).max(256).nullable(),
  groups: z.string().min(1).max(256).nullable(),
});
export type AttributeMapping = z.infer<typeof attributeMappingSchema>;

export const samlConnectionConfigSchema = z.strictObject({
  /** The IdP's entityID: the assertion's Issuer must equal it. */
  idpEntityId: z.string().min(1).max(1024),
  /** The IdP's SingleSignOnService URL (HTTP-Redirect binding): SP-initiated logins go there. */
  idpSsoUrl: z.string().url().max(2048),
  /** The IdP's signing certificates (PEM, or bare base64 DER). Two during a rotation; the signature must verify with one. */
  idpCertificates: z.array(z.string().min(1).max(16_384)).min(1).max(3),
  /** Refuse a response whose Response element is not signed too (the assertion must always be signed). */
  requireSignedResponse: z.boolean(),
  /** Refuse assertions that are not encrypted to the connection's SP key. */
  requireEncryptedAssertions: z.boolean(),
  /** Sign the AuthnRequest with the SP key (some IdPs require it). */
  signAuthnRequests: z.boolean(),
  clockSkewSeconds: z.number().int().min(0).max(MAX_CLOCK_SKEW_SECONDS),
  attributeMapping: attributeMappingSchema,
});
export type SamlConnectionConfig = z.infer<typeof samlConnectionConfigSchema>;

export const oidcConnectionConfigSchema = z.strictObject({
  /** The customer's issuer; discovery is `{issuer}/.well-known/openid-configuration` and the ID token's `iss` must equal it. */
  issuer: z.string().url().max(1024),
  clientId: z.string().min(1).max(512),
  /** The client secret, sealed (`sealed:v1.…`, crypto/at-rest.ts); null for a public client (PKCE only). */
  clientSecretSealed: z.string().max(4096).nullable(),
  /** Scopes asked beyond `openid email profile`. */
  scopes: z.array(z.string().min(1).max(128)).max(20),
  attributeMapping: attributeMappingSchema,
});
export type OidcConnectionConfig = z.infer<typeof oidcConnectionConfigSchema>;

export function defaultSamlConfig(): Omit<SamlConnectionConfig, "idpEntityId" | "idpSsoUrl" | "idpCertificates"> {
  return {
    requireSignedResponse: false,
    requireEncryptedAssertions: false,
    signAuthnRequests: false,
    clockSkewSeconds: DEFAULT_CLOCK_SKEW_SECONDS,
    attributeMapping: { email: null, name: null, groups: null },
  };
}
