/**
 * SAML SSO test helpers (issue 31, SAML): a SAML connection written to D1 (SP key made by the worker's
 * generateSpCredentials), the test IdP's control API (test/saml-idp.mjs: samlify builds and signs the
 * responses, in Node), posting to the ACS, and the sso.sign_in_refused reasons.
 */
import { env } from "cloudflare:test";
import { expect, inject } from "vitest";
import { createDb } from "../../worker/db/client";
import { ssoConnections } from "../../worker/db/schema";
import { makeDeps } from "../../worker/services/deps";
import { defaultSamlConfig, type SamlConnectionConfig } from "../../worker/services/sso/connection-config";
import { generateSpCredentials } from "../../worker/services/sso/saml/sp-keys";
import { call } from "./api";
import { fetchWorker } from "./oauth";
import type { SsoProject } from "./sso-flow";

export const API = "http://localhost";
export const idpOrigin = () => `http://127.0.0.1:${inject("samlIdpPort")}`;

type IdpKeys = { certificates: { main: string; other: string; ec: string }; entityId: string; ssoUrl: string };
let keys: Promise<IdpKeys> | undefined;
/** The test IdP's certificates, entity ID and SSO URL. */
export function idpKeys(): Promise<IdpKeys> {
  keys ??= fetch(`${idpOrigin()}/keys`).then((r) => r.json() as Promise<IdpKeys>);
  return keys;
}

export type SamlConnection = { id: string; entityId: string; acsUrl: string; spCertificate: string; config: SamlConnectionConfig };

/** Writes a SAML connection of the project's team, trusting the test IdP's main key unless told otherwise. */
export async function insertSamlConnection(
  p: SsoProject,
  o: Partial<SamlConnectionConfig> & { enabled?: boolean; allowIdpInitiated?: boolean; teamId?: string } = {},
): Promise<SamlConnection> {
  const idp = await idpKeys();
  const id = crypto.randomUUID();
  const now = Date.now();
  const creds = await generateSpCredentials(makeDeps(env, { origin: API }), { commonName: `Doorman SAML SP ${id}` });
  const { enabled, allowIdpInitiated, teamId, ...overrides } = o;
  const config: SamlConnectionConfig = {
    ...defaultSamlConfig(),
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    idpCertificates: [idp.certificates.main],
    ...overrides,
  };
  await createDb(env.DB)
    .insert(ssoConnections)
    .values({
      id,
      projectId: p.projectId,
      teamId: teamId ?? p.teamId,
      protocol: "saml",
      displayName: "Acme SAML",
      enabled: enabled ?? true,
      config,
      spPrivateKeySealed: creds.spPrivateKeySealed,
      spCertificate: creds.spCertificate,
      allowIdpInitiated: allowIdpInitiated ?? false,
      createdAt: now,
      updatedAt: now,
    });
  return {
    id,
    entityId: `${API}/api/v1/auth/sso/saml/${id}/metadata`,
    acsUrl: `${API}/api/v1/auth/sso/saml/${id}/acs`,
    spCertificate: creds.spCertificate,
    config,
  };
}

/** What the test IdP puts in a response (test/saml-idp.mjs buildResponse); every field optional but the user. */
export type ResponseOptions = {
  nameId: string;
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
  inResponseTo?: string | null;
  issuer?: string;
  audience?: string;
  destination?: string;
  recipient?: string;
  issueInstant?: number;
  notBefore?: string;
  notOnOrAfter?: string;
  subjectNotOnOrAfter?: string;
  status?: string;
  assertionId?: string;
  signAssertion?: boolean;
  signResponse?: boolean;
  key?: "main" | "other" | "ec";
  signatureAlgorithm?: "rsa-sha256" | "rsa-sha512" | "rsa-sha1";
  encrypt?: { dataAlg: "aes128-cbc" | "aes256-cbc" | "aes128-gcm" | "aes256-gcm"; keyAlg?: "rsa-oaep-mgf1p" | "rsa-oaep-sha256" };
};

/** A response from the test IdP for `connection`: base64 (as posted) and its XML. */
export async function idpResponse(
  connection: SamlConnection,
  o: ResponseOptions,
): Promise<{ samlResponse: string; xml: string; assertionId: string }> {
  const res = await fetch(`${idpOrigin()}/response`, {
    method: "POST",
    body: JSON.stringify({ acsUrl: connection.acsUrl, spEntityId: connection.entityId, spCertificate: connection.spCertificate, ...o }),
  });
  const body = (await res.json()) as { samlResponse: string; xml: string; assertionId: string; error?: string };
  expect(res.status, body.error).toBe(200);
  return body;
}

export const toBase64 = (xml: string) => btoa(String.fromCharCode(...new TextEncoder().encode(xml)));

/** POSTs the form the IdP's page auto-submits to the ACS. */
export function postAcs(connectionId: string, samlResponse: string, o: { relayState?: string; nowMs?: number } = {}): Promise<Response> {
  const form = new URLSearchParams({ SAMLResponse: samlResponse, ...(o.relayState ? { RelayState: o.relayState } : {}) });
  return fetchWorker(`${API}/api/v1/auth/sso/saml/${connectionId}/acs`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    nowMs: o.nowMs,
  });
}

/** The reasons of the project's sso.sign_in_refused events, newest first. */
export async function refusalReasons(p: SsoProject): Promise<string[]> {
  const res = await call("/internal/events?type=sso.sign_in_refused", p.admin);
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { data: { reason: string } }[]).map((e) => e.data.reason);
}

/** Expects the ACS's refusal page (SAML_RESPONSE_INVALID, 400) and that `reason` was recorded. */
export async function expectRefused(p: SsoProject, res: Response, reason: string): Promise<void> {
  const html = await res.text();
  expect(res.status, html).toBe(400);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(html).toContain('<code id="error-code">SAML_RESPONSE_INVALID</code>');
  expect((await refusalReasons(p))[0]).toBe(reason);
}
