/**
 * XML signature wrapping (issue 31, SAML): the classic XSW1–XSW8 variants (Somorovsky et al., "On Breaking
 * SAML", 2012; as SAML Raider builds them), made with @xmldom/xmldom from a real response the samlify IdP
 * signed, and the single-assertion variants that reach the deeper defences (signature moved to another
 * element, to a renamed copy, to the Response; a duplicate ID on another element; a signature where SAML
 * puts none). Each is refused at the ACS with its sso.sign_in_refused reason, and the untouched response
 * passes, so the refusal is the wrapping's doing.
 */
import { DOMParser, type Document, type Element, XMLSerializer } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import { ssoProject } from "../helpers/sso-flow";
import { expectRefused, idpResponse, insertSamlConnection, postAcs, type SamlConnection, toBase64 } from "../helpers/sso-saml";

const SAML = "urn:oasis:names:tc:SAML:2.0:assertion";
const SAMLP = "urn:oasis:names:tc:SAML:2.0:protocol";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const VICTIM = "ada@acme.example";
const ATTACKER = "mallory@acme.example";

const parse = (xml: string) => new DOMParser().parseFromString(xml, "application/xml");
const serialize = (doc: Document) => new XMLSerializer().serializeToString(doc);

function childOf(parent: Element, ns: string, name: string): Element {
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    const e = n as Element;
    if (n.nodeType === 1 && e.namespaceURI === ns && e.localName === name) return e;
  }
  throw new Error(`no ${name} under ${parent.localName}`);
}
const maybeChild = (parent: Element, ns: string, name: string): Element | null => {
  try {
    return childOf(parent, ns, name);
  } catch {
    return null;
  }
};
const assertionOf = (doc: Document) => childOf(doc.documentElement as Element, SAML, "Assertion");
const nameIdOf = (assertion: Element) => childOf(childOf(assertion, SAML, "Subject"), SAML, "NameID");

/** A copy of `element` without its enveloped signature, speaking for the attacker, under a new ID. */
function evilCopy(element: Element, id = "_evil"): Element {
  const evil = element.cloneNode(true) as Element;
  const signature = maybeChild(evil, DS, "Signature");
  if (signature) evil.removeChild(signature);
  evil.setAttribute("ID", id);
  const assertion = evil.localName === "Assertion" ? evil : maybeChild(evil, SAML, "Assertion");
  if (assertion) {
    assertion.setAttribute("ID", `${id}-assertion`);
    nameIdOf(assertion).textContent = ATTACKER;
  }
  return evil;
}

const dsObject = (doc: Document, content: Element) => {
  const object = doc.createElementNS(DS, "ds:Object");
  object.appendChild(content);
  return object;
};

/** `benign`: the variant adds a decoy only (the defence must hold even when nothing was changed yet). */
type Variant = { name: string; signResponse: boolean; reason: string; benign?: boolean; wrap: (doc: Document) => void };

/** XSW1–XSW8 as SAML Raider describes them (XSW1–2 on the Response's signature, XSW3–8 on the assertion's). */
const classic: Variant[] = [
  {
    name: "XSW1: an unsigned copy of the Response as root, the original Response inside the signature (ds:Object)",
    signResponse: true,
    reason: "assertion_count",
    wrap: (doc) => {
      const original = doc.documentElement as Element;
      const signature = childOf(original, DS, "Signature");
      const evil = evilCopy(original);
      doc.replaceChild(evil, original);
      original.removeChild(signature);
      signature.appendChild(dsObject(doc, original));
      evil.insertBefore(signature, childOf(evil, SAML, "Issuer").nextSibling);
    },
  },
  {
    name: "XSW2: an unsigned copy of the Response as root, the original Response before the signature (detached)",
    signResponse: true,
    reason: "assertion_count",
    wrap: (doc) => {
      const original = doc.documentElement as Element;
      const signature = childOf(original, DS, "Signature");
      const evil = evilCopy(original);
      doc.replaceChild(evil, original);
      original.removeChild(signature);
      evil.insertBefore(signature, childOf(evil, SAML, "Issuer").nextSibling);
      evil.insertBefore(original, signature);
    },
  },
  {
    name: "XSW3: an unsigned copy of the assertion before the signed one",
    signResponse: false,
    reason: "assertion_count",
    wrap: (doc) => {
      const original = assertionOf(doc);
      original.parentNode?.insertBefore(evilCopy(original), original);
    },
  },
  {
    name: "XSW4: an unsigned copy of the assertion wrapping the signed one",
    signResponse: false,
    reason: "assertion_count",
    wrap: (doc) => {
      const original = assertionOf(doc);
      const evil = evilCopy(original);
      original.parentNode?.replaceChild(evil, original);
      evil.appendChild(original);
    },
  },
  {
    name: "XSW5: the signed assertion changed in place, an untouched copy without signature at the end",
    signResponse: false,
    reason: "assertion_count",
    wrap: (doc) => {
      const original = assertionOf(doc);
      const copy = original.cloneNode(true) as Element;
      copy.removeChild(childOf(copy, DS, "Signature"));
      nameIdOf(original).textContent = ATTACKER;
      doc.documentElement?.appendChild(copy);
    },
  },
  {
    name: "XSW6: the signed assertion changed in place, an untouched copy inside its signature",
    signResponse: false,
    reason: "assertion_count",
    wrap: (doc) => {
      const original = assertionOf(doc);
      const copy = original.cloneNode(true) as Element;
      copy.removeChild(childOf(copy, DS, "Signature"));
      nameIdOf(original).textContent = ATTACKER;
      childOf(original, DS, "Signature").appendChild(copy);
    },
  },
  {
    name: "XSW7: the signed assertion moved into samlp:Extensions, an unsigned copy in its place",
    signResponse: false,
    reason: "assertion_count",
    wrap: (doc) => {
      const response = doc.documentElement as Element;
      const original = assertionOf(doc);
      const evil = evilCopy(original);
      response.replaceChild(evil, original);
      const extensions = doc.createElementNS(SAMLP, "samlp:Extensions");
      extensions.appendChild(original);
      response.insertBefore(extensions, childOf(response, SAML, "Issuer").nextSibling);
    },
  },
  {
    name: "XSW8: the signed assertion changed in place, an untouched copy without signature in a ds:Object of its signature",
    signResponse: false,
    reason: "assertion_count",
    wrap: (doc) => {
      const original = assertionOf(doc);
      const copy = original.cloneNode(true) as Element;
      copy.removeChild(childOf(copy, DS, "Signature"));
      nameIdOf(original).textContent = ATTACKER;
      childOf(original, DS, "Signature").appendChild(dsObject(doc, copy));
    },
  },
];

/** One assertion only, so the later defences answer. */
const deeper: Variant[] = [
  {
    name: "the signed assertion changed in place (same ID, same signature): the digest no longer matches",
    signResponse: false,
    reason: "signature_invalid",
    wrap: (doc) => {
      nameIdOf(assertionOf(doc)).textContent = ATTACKER;
    },
  },
  {
    name: "an unsigned copy under a new ID replaces the signed assertion, carrying its signature: the Reference names another ID",
    signResponse: false,
    reason: "signature_malformed",
    wrap: (doc) => {
      const original = assertionOf(doc);
      const evil = evilCopy(original);
      evil.insertBefore(childOf(original, DS, "Signature"), childOf(evil, SAML, "Issuer").nextSibling);
      original.parentNode?.replaceChild(evil, original);
    },
  },
  {
    name: "the assertion's signature moved onto the Response, the assertion changed: a signature must cover the element it sits in",
    signResponse: false,
    reason: "signature_malformed",
    wrap: (doc) => {
      const response = doc.documentElement as Element;
      const original = assertionOf(doc);
      const signature = childOf(original, DS, "Signature");
      original.removeChild(signature);
      nameIdOf(original).textContent = ATTACKER;
      response.insertBefore(signature, childOf(response, SAML, "Issuer").nextSibling);
    },
  },
  {
    name: "another element carries the signed assertion's ID (the reference would be ambiguous)",
    signResponse: false,
    reason: "duplicate_ids",
    benign: true,
    wrap: (doc) => {
      const response = doc.documentElement as Element;
      const extensions = doc.createElementNS(SAMLP, "samlp:Extensions");
      const decoy = doc.createElementNS("urn:example:decoy", "d:Decoy");
      decoy.setAttribute("ID", assertionOf(doc).getAttribute("ID") ?? "");
      extensions.appendChild(decoy);
      response.insertBefore(extensions, childOf(response, SAML, "Issuer").nextSibling);
    },
  },
  {
    name: "a copy of the signature where SAML puts none (samlp:Extensions)",
    signResponse: false,
    reason: "signature_misplaced",
    benign: true,
    wrap: (doc) => {
      const response = doc.documentElement as Element;
      const extensions = doc.createElementNS(SAMLP, "samlp:Extensions");
      extensions.appendChild(childOf(assertionOf(doc), DS, "Signature").cloneNode(true));
      response.insertBefore(extensions, childOf(response, SAML, "Issuer").nextSibling);
    },
  },
  {
    name: "the Response's signature kept, an unsigned assertion for the attacker swapped in: the Response digest no longer matches",
    signResponse: true,
    reason: "signature_invalid",
    wrap: (doc) => {
      const original = assertionOf(doc);
      original.parentNode?.replaceChild(evilCopy(original), original);
    },
  },
];

async function signed(connection: SamlConnection, signResponse: boolean): Promise<string> {
  const { xml } = await idpResponse(connection, { nameId: VICTIM, signAssertion: !signResponse, signResponse });
  return xml;
}

describe("SAML signature wrapping (XSW)", () => {
  it("the untouched responses pass (a Response-signed one and an assertion-signed one)", async () => {
    const p = await ssoProject();
    const connection = await insertSamlConnection(p, { allowIdpInitiated: true });
    for (const signResponse of [true, false]) {
      // Parsed and serialized by xmldom like the variants, to show the round trip alone breaks nothing.
      const res = await postAcs(connection.id, toBase64(serialize(parse(await signed(connection, signResponse)))));
      expect(res.status, await res.clone().text()).toBe(303);
    }
  });

  for (const variant of [...classic, ...deeper]) {
    it(variant.name, async () => {
      const p = await ssoProject();
      const connection = await insertSamlConnection(p, { allowIdpInitiated: true });
      const doc = parse(await signed(connection, variant.signResponse));
      variant.wrap(doc);
      const xml = serialize(doc);
      if (!variant.benign) expect(xml).toContain(ATTACKER);
      await expectRefused(p, await postAcs(connection.id, toBase64(xml)), variant.reason);
    });
  }
});
