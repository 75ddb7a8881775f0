/**
 * Strict XML parsing for SAML (issue 31): @xmldom/xmldom with every warning and error fatal, and no
 * DOCTYPE at all (so no entity expansion, no external entities: XXE and "billion laughs" cannot start),
 * plus small namespace-aware helpers to walk the DOM without XPath.
 */
import { DOMParser, type Document, type Element, type Node } from "@xmldom/xmldom";

export const NS = {
  saml: "urn:oasis:names:tc:SAML:2.0:assertion",
  samlp: "urn:oasis:names:tc:SAML:2.0:protocol",
  md: "urn:oasis:names:tc:SAML:2.0:metadata",
  ds: "http://www.w3.org/2000/09/xmldsig#",
  xenc: "http://www.w3.org/2001/04/xmlenc#",
  xenc11: "http://www.w3.org/2009/xmlenc11#",
} as const;

const ELEMENT_NODE = 1;

/** A parsed document, or null when the text is not well-formed XML or carries a DOCTYPE / entity declaration. */
export function parseXmlStrict(text: string): Document | null {
  // SAML never needs a DTD; refusing it outright is the only entity handling that cannot be got wrong.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        throw new Error(`${level}: ${message}`);
      },
    }).parseFromString(text, "application/xml");
    return doc.documentElement ? doc : null;
  } catch {
    return null;
  }
}

export function isElement(node: Node | null | undefined): node is Element {
  return !!node && node.nodeType === ELEMENT_NODE;
}

export function is(element: Element | null | undefined, ns: string, localName: string): element is Element {
  return !!element && element.namespaceURI === ns && element.localName === localName;
}

/** The direct element children (optionally only those of one namespace and local name). */
export function children(parent: Element, ns?: string, localName?: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (isElement(n) && (ns === undefined || is(n, ns, localName ?? n.localName ?? ""))) out.push(n);
  }
  return out;
}

export function child(parent: Element, ns: string, localName: string): Element | null {
  return children(parent, ns, localName)[0] ?? null;
}

/** Every descendant element, document order (the element itself excluded). */
export function descendants(root: Element): Element[] {
  const out: Element[] = [];
  const walk = (e: Element) => {
    for (let n = e.firstChild; n; n = n.nextSibling) {
      if (isElement(n)) {
        out.push(n);
        walk(n);
      }
    }
  };
  walk(root);
  return out;
}

export function descendantsNamed(root: Element, ns: string, localName: string): Element[] {
  return descendants(root).filter((e) => is(e, ns, localName));
}

/** The text content, trimmed (SAML values are simple content). */
export function textOf(element: Element | null | undefined): string | null {
  if (!element) return null;
  const text = element.textContent?.trim() ?? "";
  return text;
}

/** An attribute's value, or null when absent (xmldom answers "" for a missing attribute). */
export function attr(element: Element, name: string): string | null {
  return element.hasAttribute(name) ? element.getAttribute(name) : null;
}
