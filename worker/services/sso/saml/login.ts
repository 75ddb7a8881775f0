/**
 * The SP-initiated login (issue 31): an AuthnRequest sent with the HTTP-Redirect binding
 * (saml-bindings §3.4: DEFLATE without header, base64, URL-encoded), signed over the query's octet
 * string with the connection's SP key (RSA-SHA256) when the connection asks for signed requests.
 * The RelayState is the FLOW's `sso_request` code, so the response comes back bound to this request.
 */
import type { ProjectRow } from "../../../db/queries/projects";
import type { SsoConnectionRow } from "../../../db/queries/sso-connections";
import type { Deps } from "../../deps";
import { samlConfigOf, spPrivateKeyOf } from "./config";
import { HTTP_POST_BINDING } from "./idp-metadata";
import { encodeBase64 } from "./pem";
import { acsUrlOf, spEntityIdOf } from "./urls";

export const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";

const escapeXml = (v: string) =>
  v.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch] ?? ch);

async function deflateRaw(text: string): Promise<Uint8Array> {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function authnRequestXml(deps: Deps, connection: SsoConnectionRow, input: { requestId: string; destination: string }): string {
  return (
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="${escapeXml(input.requestId)}" Version="2.0" IssueInstant="${new Date(deps.now()).toISOString()}"` +
    ` Destination="${escapeXml(input.destination)}" ProtocolBinding="${HTTP_POST_BINDING}"` +
    ` AssertionConsumerServiceURL="${escapeXml(acsUrlOf(deps, connection.id))}">` +
    `<saml:Issuer>${escapeXml(spEntityIdOf(deps, connection.id))}</saml:Issuer>` +
    `<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified" AllowCreate="true"/>` +
    `</samlp:AuthnRequest>`
  );
}

/** The IdP URL the browser goes to. Throws when the connection is not a usable SAML connection (checked by the caller first). */
export async function buildSamlLoginUrl(
  deps: Deps,
  _project: ProjectRow,
  connection: SsoConnectionRow,
  input: { requestId: string; relayState: string },
): Promise<string> {
  const config = samlConfigOf(connection);
  if (!config) throw new Error(`SSO connection ${connection.id} has no valid SAML config`);
  const xml = authnRequestXml(deps, connection, { requestId: input.requestId, destination: config.idpSsoUrl });
  // saml-bindings §3.4.4.1: the signature covers exactly "SAMLRequest=…&RelayState=…&SigAlg=…", URL-encoded as sent.
  let query = `SAMLRequest=${encodeURIComponent(encodeBase64(await deflateRaw(xml)))}&RelayState=${encodeURIComponent(input.relayState)}`;
  if (config.signAuthnRequests) {
    const pkcs8 = await spPrivateKeyOf(deps, connection);
    if (!pkcs8) throw new Error(`SSO connection ${connection.id} signs AuthnRequests but has no SP key`);
    const key = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
    query += `&SigAlg=${encodeURIComponent(RSA_SHA256)}`;
    const signature = new Uint8Array(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(query)));
    query += `&Signature=${encodeURIComponent(encodeBase64(signature))}`;
  }
  const url = new URL(config.idpSsoUrl);
  // The IdP's own query (some SSO URLs carry one, e.g. an IdP id) stays in front of ours.
  return `${url.origin}${url.pathname}?${url.search ? `${url.search.slice(1)}&` : ""}${query}`;
}
