/**
 * Reads an identity provider's SAML metadata (what an IT admin pastes or uploads, issue 31) into the
 * fields of a SAML connection: the entityID, the SingleSignOnService URL of the HTTP-Redirect binding
 * and the signing certificates. Strict XML (no DOCTYPE), https or http URL, certificates as base64 DER.
 */
import { fail, type Problem } from "../../result";
import { decodeBase64Strict, derToPem } from "./pem";
import { attr, child, children, is, NS, parseXmlStrict, textOf } from "./xml";

export const HTTP_REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
export const HTTP_POST_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

/** Metadata is small; a cap keeps a hostile paste from costing the isolate. */
export const MAX_IDP_METADATA_BYTES = 256 * 1024;

export type IdpMetadata = { entityId: string; ssoUrl: string; certificates: string[] };

export function parseIdpMetadata(xml: string): ({ ok: true } & IdpMetadata) | Problem<"saml_metadata_invalid"> {
  const invalid = (why: string) => fail("saml_metadata_invalid", { why });
  if (xml.length > MAX_IDP_METADATA_BYTES) return invalid("too large");
  const doc = parseXmlStrict(xml);
  const root = doc?.documentElement;
  if (!root) return invalid("not well-formed XML (or a DOCTYPE)");
  // An EntitiesDescriptor holding one IdP is accepted too (some IdPs export their federation wrapper).
  let entity = root;
  if (is(root, NS.md, "EntitiesDescriptor")) {
    const idps = children(root, NS.md, "EntityDescriptor").filter((e) => child(e, NS.md, "IDPSSODescriptor"));
    if (idps.length !== 1) return invalid("expected exactly one identity provider");
    entity = idps[0] as typeof root;
  }
  if (!is(entity, NS.md, "EntityDescriptor")) return invalid("not an EntityDescriptor");
  const entityId = attr(entity, "entityID")?.trim();
  if (!entityId) return invalid("no entityID");
  const idp = child(entity, NS.md, "IDPSSODescriptor");
  if (!idp) return invalid("no IDPSSODescriptor");
  const protocols = (attr(idp, "protocolSupportEnumeration") ?? "").split(/\s+/);
  if (!protocols.includes("urn:oasis:names:tc:SAML:2.0:protocol")) return invalid("not a SAML 2.0 identity provider");

  const redirect = children(idp, NS.md, "SingleSignOnService").find((s) => attr(s, "Binding") === HTTP_REDIRECT_BINDING);
  const ssoUrl = redirect ? attr(redirect, "Location")?.trim() : undefined;
  if (!ssoUrl) return invalid("no SingleSignOnService with the HTTP-Redirect binding");
  if (!isHttpUrl(ssoUrl)) return invalid("SingleSignOnService Location is not an http(s) URL");

  const certificates: string[] = [];
  for (const descriptor of children(idp, NS.md, "KeyDescriptor")) {
    const use = attr(descriptor, "use");
    if (use !== null && use !== "signing") continue; // "encryption" keys do not sign assertions
    const keyInfo = child(descriptor, NS.ds, "KeyInfo");
    const x509Data = keyInfo ? children(keyInfo, NS.ds, "X509Data") : [];
    for (const data of x509Data) {
      for (const cert of children(data, NS.ds, "X509Certificate")) {
        const der = decodeBase64Strict(textOf(cert) ?? "");
        if (!der) return invalid("a signing certificate is not base64");
        const pem = derToPem(der, "CERTIFICATE");
        if (!certificates.includes(pem)) certificates.push(pem);
      }
    }
  }
  if (certificates.length === 0) return invalid("no signing certificate");
  if (certificates.length > 3) return invalid("more than 3 signing certificates");
  return { ok: true, entityId, ssoUrl, certificates };
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}
