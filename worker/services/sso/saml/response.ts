/**
 * Reads a SAMLResponse (HTTP-POST binding) down to the one assertion the IdP vouches for (issue 31):
 * strict base64 and XML (size cap, no DOCTYPE, no comments), the XML signature wrapping defences
 * (unique IDs, exactly one assertion, signatures only where SAML puts them, each covering exactly the
 * element it sits in), signature verification with the connection's certificates, decryption. The
 * caller reads the profile ONLY from the element this returns.
 *
 * Which signature suffices: the assertion's own, or the Response's when the assertion (plain, or its
 * ciphertext) is a direct child of that Response: an enveloped Response signature covers it byte for
 * byte. `requireSignedResponse` additionally requires the Response signature.
 */
import type { Document, Element, Node } from "@xmldom/xmldom";
import type { SamlConnectionConfig } from "../connection-config";
import { verificationKeysOf } from "./certificates";
import { decryptAssertion } from "./decrypt";
import { decodeBase64Strict } from "./pem";
import { refuse, type SamlRefusal } from "./refusal";
import { children, descendants, is, isElement, NS, parseXmlStrict } from "./xml";
import { verifyEnvelopedSignature } from "./xmldsig";

/** The largest SAMLResponse accepted (base64 characters): real ones are a few KiB, large group lists tens. */
export const MAX_SAML_RESPONSE_LENGTH = 256 * 1024;

export type TrustedAssertion = {
  ok: true;
  response: Element;
  /** The verified assertion: the only element the profile may be read from. */
  assertion: Element;
  responseSigned: boolean;
  assertionSigned: boolean;
  encrypted: boolean;
};

const COMMENT_NODE = 8;
const PROCESSING_INSTRUCTION_NODE = 7;

/** Comments and processing instructions refused anywhere: exclusive c14n drops comments, so "a@x.com<!---->.evil" would keep a signature while changing the text a careless reader sees (CVE-2017-11427 class). */
function hasCommentOrPi(node: Node): boolean {
  const stack: Node[] = [node];
  while (stack.length) {
    for (let n = (stack.pop() as Node).firstChild; n; n = n.nextSibling) {
      if (n.nodeType === COMMENT_NODE || n.nodeType === PROCESSING_INSTRUCTION_NODE) return true;
      if (isElement(n)) stack.push(n);
    }
  }
  return false;
}

/** Every ID-like attribute (ID, Id, id in any namespace) must be unique: a reference then names one element only. */
function idsAreUnique(root: Element): boolean {
  const seen = new Set<string>();
  for (const element of [root, ...descendants(root)]) {
    for (let i = 0; i < element.attributes.length; i++) {
      const a = element.attributes.item(i);
      if (!a || !["ID", "Id", "id"].includes(a.localName ?? "")) continue;
      if (seen.has(a.value)) return false;
      seen.add(a.value);
    }
  }
  return true;
}

const isSignature = (e: Element) => is(e, NS.ds, "Signature");

/**
 * The structure checks shared by the Response and a decrypted assertion: IDs unique, and every
 * ds:Signature a direct child of one of `signable` (at most one each). Answers each signable's signature.
 */
function signaturesOf(root: Element, signable: Element[]): Map<Element, Element> | SamlRefusal {
  if (!idsAreUnique(root)) return refuse("duplicate_ids");
  const found = new Map<Element, Element>();
  for (const signature of [root, ...descendants(root)].filter(isSignature)) {
    const parent = signature.parentNode;
    const owner = signable.find((s) => s === parent);
    if (!owner) return refuse("signature_misplaced", "a Signature where SAML does not put one");
    if (found.has(owner)) return refuse("signature_misplaced", "more than one Signature on one element");
    found.set(owner, signature);
  }
  return found;
}

const countAssertions = (root: Element) =>
  [root, ...descendants(root)].filter((e) => is(e, NS.saml, "Assertion") || is(e, NS.saml, "EncryptedAssertion")).length;

export type ReadInput = {
  samlResponse: string;
  config: SamlConnectionConfig;
  /** The SP private key (PKCS#8 DER), opened only when the response holds an EncryptedAssertion. */
  spPrivateKey: () => Promise<Uint8Array<ArrayBuffer> | null>;
};

export async function readSamlResponse(input: ReadInput): Promise<TrustedAssertion | SamlRefusal> {
  if (input.samlResponse.length > MAX_SAML_RESPONSE_LENGTH) return refuse("response_too_large");
  const bytes = decodeBase64Strict(input.samlResponse);
  if (!bytes) return refuse("response_not_base64");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refuse("response_not_base64", "SAMLResponse is not UTF-8");
  }
  const doc = parseXmlStrict(text);
  const response = doc?.documentElement;
  if (!doc || !response) return refuse("response_not_xml", "SAMLResponse is not well-formed XML, or has a DOCTYPE");
  if (!is(response, NS.samlp, "Response")) return refuse("not_a_response");
  if (response.getAttribute("Version") !== "2.0") return refuse("not_a_response", "not SAML 2.0");
  if (hasCommentOrPi(doc as unknown as Node)) return refuse("comments_not_allowed");

  // Exactly one assertion in the whole document (none hidden in Extensions, Object, Advice…), a direct child.
  if (countAssertions(response) !== 1) return refuse("assertion_count", "the response must hold exactly one assertion");
  const plain = children(response, NS.saml, "Assertion");
  const encrypted = children(response, NS.saml, "EncryptedAssertion");
  const outer = plain[0] ?? encrypted[0];
  if (!outer) return refuse("assertion_count", "the assertion is not a direct child of the Response");

  const signatures = signaturesOf(response, plain[0] ? [response, plain[0]] : [response]);
  if (!(signatures instanceof Map)) return signatures;
  // Only the connection's configured certificates: a key in the response's KeyInfo is the sender's own claim.
  const keys = verificationKeysOf(input.config.idpCertificates);
  if (keys.length === 0) return refuse("connection_misconfigured", "the connection has no usable IdP certificate");

  // The Response signature first: when present it must verify (and then it also authenticates the ciphertext).
  const responseSignature = signatures.get(response);
  if (responseSignature) {
    const why = await verifyEnvelopedSignature(doc, response, responseSignature, keys);
    if (why) return { ...why, detail: `Response: ${why.detail}` };
  }
  const responseSigned = !!responseSignature;
  if (input.config.requireSignedResponse && !responseSigned) return refuse("response_unsigned");
  if (input.config.requireEncryptedAssertions && !encrypted[0]) return refuse("assertion_unencrypted");

  let assertion: Element;
  let assertionDoc: Document = doc;
  let assertionSignature: Element | undefined;
  if (plain[0]) {
    assertion = plain[0];
    assertionSignature = signatures.get(assertion);
  } else {
    const opened = await openEncrypted(outer, input.spPrivateKey);
    if (!opened.ok) return opened;
    ({ assertion, doc: assertionDoc } = opened);
    const inner = signaturesOf(assertionDoc.documentElement as Element, [assertion]);
    if (!(inner instanceof Map)) return { ...inner, detail: `decrypted assertion: ${inner.detail}` };
    assertionSignature = inner.get(assertion);
  }
  if (assertionSignature) {
    const why = await verifyEnvelopedSignature(assertionDoc, assertion, assertionSignature, keys);
    if (why) return { ...why, detail: `Assertion: ${why.detail}` };
  }
  const assertionSigned = !!assertionSignature;
  if (!assertionSigned && !responseSigned) return refuse("unsigned", "neither the assertion nor the Response is signed");
  return { ok: true, response, assertion, responseSigned, assertionSigned, encrypted: !!encrypted[0] };
}

/**
 * Decrypts the EncryptedAssertion and parses the plaintext inside a wrapper that re-declares the
 * namespaces in scope where the ciphertext stood (XML Encryption §4.5: the plaintext is parsed in its
 * context). The same strictness applies: no DOCTYPE or comments, exactly one Assertion, the wrapper's only child.
 */
async function openEncrypted(
  encryptedAssertion: Element,
  spPrivateKey: () => Promise<Uint8Array<ArrayBuffer> | null>,
): Promise<{ ok: true; assertion: Element; doc: Document } | SamlRefusal> {
  const key = await spPrivateKey();
  if (!key) return refuse("connection_misconfigured", "the connection has no SP key to decrypt with");
  const decrypted = await decryptAssertion(encryptedAssertion, key);
  if (!decrypted.ok) return decrypted;
  const declarations: string[] = [];
  const seen = new Set<string>();
  for (let n: Node | null = encryptedAssertion; n && isElement(n); n = n.parentNode) {
    for (let i = 0; i < n.attributes.length; i++) {
      const a = n.attributes.item(i);
      if (!a || (a.name !== "xmlns" && !a.name.startsWith("xmlns:")) || seen.has(a.name)) continue;
      seen.add(a.name);
      declarations.push(`${a.name}="${a.value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;")}"`);
    }
  }
  const doc = parseXmlStrict(`<doorman-decrypted ${declarations.join(" ")}>${decrypted.xml}</doorman-decrypted>`);
  const wrapper = doc?.documentElement;
  if (!doc || !wrapper || hasCommentOrPi(wrapper)) return refuse("decryption_failed", "the decrypted assertion is not well-formed XML");
  const elements = children(wrapper);
  const hasText = Array.from({ length: wrapper.childNodes.length }, (_, i) => wrapper.childNodes.item(i)).some(
    (n) => n && n.nodeType === 3 && (n.nodeValue ?? "").trim() !== "",
  );
  if (elements.length !== 1 || hasText || !is(elements[0], NS.saml, "Assertion")) {
    return refuse("decryption_failed", "the decrypted content is not one Assertion");
  }
  if (countAssertions(wrapper) !== 1) return refuse("assertion_count", "the decrypted assertion holds another assertion");
  return { ok: true, assertion: elements[0] as Element, doc };
}
