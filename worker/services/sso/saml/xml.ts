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

/** The deepest element nesting accepted: SAML messages are about 8 deep; a bound keeps every later walk (ours, c14n's) off the stack limit. */
export const MAX_XML_DEPTH = 48;

/** How deep elements nest under `root` (iterative: a hostile document must not overflow the stack here). */
function depthExceeds(root: Element, limit: number): boolean {
  const stack: [Element, number][] = [[root, 1]];
  while (stack.length) {
    const [element, depth] = stack.pop() as [Element, number];
    if (depth > limit) return true;
    for (let n = element.firstChild; n; n = n.nextSibling) if (isElement(n)) stack.push([n, depth + 1]);
  }
  return false;
}

/** The most markup accepted ("<" characters): a real response has a few hundred; the parser's cost grows with them (CPU is shared). */
export const MAX_XML_MARKUP = 10_000;

function markupExceeds(text: string, limit: number): boolean {
  let count = 0;
  for (let i = text.indexOf("<"); i !== -1; i = text.indexOf("<", i + 1)) if (++count > limit) return true;
  return false;
}

/** A parsed document, or null when the text is not well-formed XML, carries a DOCTYPE / entity declaration, or is too big or deep. */
export function parseXmlStrict(text: string): Document | null {
  // SAML never needs a DTD; refusing it outright is the only entity handling that cannot be got wrong.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return null;
  if (markupExceeds(text, MAX_XML_MARKUP)) return null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        throw new Error(`${level}: ${message}`);
      },
    }).parseFromString(text, "application/xml");
    return doc.documentElement && !depthExceeds(doc.documentElement, MAX_XML_DEPTH) ? doc : null;
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

/** Every descendant element, document order (the element itself excluded; iterative). */
export function descendants(root: Element): Element[] {
  const out: Element[] = [];
  const stack: Element[] = children(root).reverse();
  while (stack.length) {
    const element = stack.pop() as Element;
    out.push(element);
    stack.push(...children(element).reverse());
  }
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
