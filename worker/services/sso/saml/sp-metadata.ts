/**
 * The SP metadata of a SAML connection (issue 31; saml-metadata §2.4.4): what the customer's IT admin
 * gives their IdP. Entity ID = the metadata URL, the ACS (HTTP-POST), the connection's certificate for
 * signing (AuthnRequests) and encryption (assertions), the NameID formats Doorman reads.
 */
import type { SsoConnectionRow } from "../../../db/queries/sso-connections";
import type { Deps } from "../../deps";
import { HTTP_POST_BINDING } from "./idp-metadata";
import { certificateBase64 } from "./pem";
import { acsUrlOf, spEntityIdOf } from "./urls";

const escapeXml = (v: string) =>
  v.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch] ?? ch);

/** The data ciphers and key transports the SP decrypts (decrypt.ts), strongest first. */
const ENCRYPTION_METHODS = [
  "http://www.w3.org/2009/xmlenc11#aes256-gcm",
  "http://www.w3.org/2009/xmlenc11#aes128-gcm",
  "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
  "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
  "http://www.w3.org/2009/xmlenc11#rsa-oaep",
  "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
];

const NAME_ID_FORMATS = [
  "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
];

export function buildSpMetadata(deps: Deps, connection: SsoConnectionRow, options: { signAuthnRequests: boolean }): string {
  const certificate = connection.spCertificate ? certificateBase64(connection.spCertificate) : null;
  const keyInfo = certificate
    ? `<ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>`
    : "";
  const keys = certificate
    ? `<md:KeyDescriptor use="signing">${keyInfo}</md:KeyDescriptor>` +
      `<md:KeyDescriptor use="encryption">${keyInfo}${ENCRYPTION_METHODS.map((m) => `<md:EncryptionMethod Algorithm="${m}"/>`).join("")}</md:KeyDescriptor>`
    : "";
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escapeXml(spEntityIdOf(deps, connection.id))}">` +
    `<md:SPSSODescriptor AuthnRequestsSigned="${options.signAuthnRequests && certificate ? "true" : "false"}" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    keys +
    NAME_ID_FORMATS.map((f) => `<md:NameIDFormat>${f}</md:NameIDFormat>`).join("") +
    `<md:AssertionConsumerService Binding="${HTTP_POST_BINDING}" Location="${escapeXml(acsUrlOf(deps, connection.id))}" index="0" isDefault="true"/>` +
    `</md:SPSSODescriptor></md:EntityDescriptor>\n`
  );
}
