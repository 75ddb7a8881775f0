/**
 * XML Signature verification for SAML (issue 31): xmldsigjs (WebCrypto; its XML through xml-core over
 * @xmldom/xmldom) does the canonicalisation and the crypto, behind a strict gate of our own: one enveloped
 * signature whose single Reference points at the element it sits in, exclusive c14n, enveloped-signature,
 * and only the algorithms below. Keys are the connection's configured IdP certificates, never KeyInfo.
 */
import { DOMImplementation, DOMParser, type Document, type Element, XMLSerializer } from "@xmldom/xmldom";
import { setNodeDependencies } from "xml-core";
import { Application, SignedXml } from "xmldsigjs";
import { refuse, type SamlRefusal } from "./refusal";
import { attr, child, children, NS } from "./xml";

const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";

/**
 * The signature methods accepted. SHA-1 (rsa-sha1, ecdsa-sha1) is refused: SHA-1 collisions are practical
 * (SHAttered 2017, chosen-prefix 2020), so a SHA-1 signature no longer proves the IdP signed this document.
 */
export const SIGNATURE_METHODS: Record<string, { kind: "RSA" | "ECDSA"; hash: "SHA-256" | "SHA-384" | "SHA-512" }> = {
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256": { kind: "RSA", hash: "SHA-256" },
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384": { kind: "RSA", hash: "SHA-384" },
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512": { kind: "RSA", hash: "SHA-512" },
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256": { kind: "ECDSA", hash: "SHA-256" },
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384": { kind: "ECDSA", hash: "SHA-384" },
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512": { kind: "ECDSA", hash: "SHA-512" },
};

/** The digests accepted; SHA-1 refused for the same reason (a colliding twin of the signed element would verify). */
const DIGEST_METHODS = new Set([
  "http://www.w3.org/2001/04/xmlenc#sha256",
  "http://www.w3.org/2001/04/xmldsig-more#sha384",
  "http://www.w3.org/2001/04/xmlenc#sha512",
]);

let engineReady = false;

/** Points xmldsigjs at the runtime's WebCrypto and xml-core at @xmldom/xmldom (workerd has no DOM). */
function ensureEngine(): void {
  if (engineReady) return;
  // A wrapper, not the global: xmldsigjs writes a `name` onto the object it is given.
  Application.setEngine("WebCrypto", { subtle: crypto.subtle, getRandomValues: crypto.getRandomValues.bind(crypto) } as unknown as Crypto);
  setNodeDependencies({ DOMParser, XMLSerializer, DOMImplementation });
  engineReady = true;
}

/** The IdP's public key for one signature method (the key's own curve for ECDSA). */
export type VerificationKey = { spki: Uint8Array<ArrayBuffer>; kind: "RSA" | "ECDSA"; namedCurve: string | null };

async function importFor(key: VerificationKey, method: { kind: "RSA" | "ECDSA"; hash: string }): Promise<CryptoKey | null> {
  if (key.kind !== method.kind) return null;
  const algorithm =
    key.kind === "RSA" ? { name: "RSASSA-PKCS1-v1_5", hash: method.hash } : { name: "ECDSA", namedCurve: key.namedCurve ?? "" };
  try {
    return await crypto.subtle.importKey("spki", key.spki, algorithm, false, ["verify"]);
  } catch {
    return null;
  }
}

/**
 * Verifies the ds:Signature that is a direct child of `signed` (the Response or the Assertion) with one of
 * `keys`. The SignedInfo must hold exactly one Reference whose URI is "#" + the signed element's ID, with
 * exactly the enveloped-signature and exclusive c14n transforms: the signature then covers `signed` and
 * nothing else, so a wrapped copy elsewhere in the document (XSW) cannot borrow it.
 */
export async function verifyEnvelopedSignature(
  doc: Document,
  signed: Element,
  signature: Element,
  keys: VerificationKey[],
): Promise<SamlRefusal | null> {
  const signedInfo = child(signature, NS.ds, "SignedInfo");
  if (!signedInfo || children(signature, NS.ds, "SignedInfo").length !== 1)
    return refuse("signature_malformed", "signature without one SignedInfo");
  const c14n = child(signedInfo, NS.ds, "CanonicalizationMethod");
  if (!c14n || attr(c14n, "Algorithm") !== EXC_C14N)
    return refuse("signature_malformed", "SignedInfo canonicalization is not exclusive c14n");
  const methodEl = child(signedInfo, NS.ds, "SignatureMethod");
  const methodUri = methodEl ? attr(methodEl, "Algorithm") : null;
  const method = methodUri ? SIGNATURE_METHODS[methodUri] : undefined;
  if (!method) return refuse("signature_algorithm_refused", `signature method not accepted: ${methodUri ?? "none"}`);
  const references = children(signedInfo, NS.ds, "Reference");
  if (references.length !== 1) return refuse("signature_malformed", "signature must have exactly one Reference");
  const reference = references[0] as Element;
  const id = attr(signed, "ID");
  if (!id || attr(reference, "URI") !== `#${id}`) return refuse("signature_malformed", "Reference URI is not the signed element's ID");
  const transformsEl = child(reference, NS.ds, "Transforms");
  const transforms = transformsEl ? children(transformsEl, NS.ds, "Transform").map((t) => attr(t, "Algorithm")) : [];
  if (transforms.length !== 2 || !transforms.includes(ENVELOPED) || !transforms.includes(EXC_C14N)) {
    return refuse("signature_malformed", "Reference transforms must be exactly enveloped-signature and exclusive c14n");
  }
  const digestEl = child(reference, NS.ds, "DigestMethod");
  const digestUri = digestEl ? attr(digestEl, "Algorithm") : null;
  if (!digestUri || !DIGEST_METHODS.has(digestUri))
    return refuse("signature_algorithm_refused", `digest method not accepted: ${digestUri ?? "none"}`);

  ensureEngine();
  for (const key of keys) {
    const cryptoKey = await importFor(key, method);
    if (!cryptoKey) continue;
    try {
      const signedXml = new SignedXml(doc as never);
      signedXml.LoadXml(signature as never);
      // The key is imported above for this method (and its curve); xmldsigjs's re-import would drop the curve.
      signedXml.Algorithm = undefined;
      if (await signedXml.Verify(cryptoKey)) return null;
    } catch {
      // A digest mismatch or a malformed signature throws: try the next configured certificate.
    }
  }
  return refuse("signature_invalid", "signature does not verify with the connection's IdP certificates");
}
