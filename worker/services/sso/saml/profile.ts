/**
 * Reduces a verified assertion to an SsoProfile (issue 31) with the connection's attribute mapping.
 * Defaults when a field's mapping is null: the email is the NameID when it is an email address, else the
 * first of the common email attributes (Entra ID / ADFS claim URIs, `email`, `mail`, the LDAP OID); the
 * name is a display-name attribute, else given name + surname; the groups are every value of the common
 * group attributes (Entra `groups`, ADFS `Group`, `groups`, `memberOf`, eduPerson `isMemberOf`).
 */
import type { Element } from "@xmldom/xmldom";
import type { AttributeMapping } from "../connection-config";
import type { SsoProfile } from "../types";
import { refuse, type SamlRefusal } from "./refusal";
import { attr, children, NS, textOf } from "./xml";

const EMAIL_ATTRIBUTES = [
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "email",
  "mail",
  "emailAddress",
  "Email",
  "urn:oid:0.9.2342.19200300.100.1.3",
  "http://schemas.xmlsoap.org/claims/EmailAddress",
];
const NAME_ATTRIBUTES = [
  "http://schemas.microsoft.com/identity/claims/displayname",
  "displayName",
  "urn:oid:2.16.840.1.113730.3.1.241",
  "name",
  "cn",
  "urn:oid:2.5.4.3",
];
const GIVEN_NAME_ATTRIBUTES = [
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname",
  "givenName",
  "firstName",
  "urn:oid:2.5.4.42",
];
const SURNAME_ATTRIBUTES = [
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname",
  "sn",
  "surname",
  "lastName",
  "urn:oid:2.5.4.4",
];
const GROUP_ATTRIBUTES = [
  "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups",
  "http://schemas.xmlsoap.org/claims/Group",
  "groups",
  "memberOf",
  "Group",
  "urn:oid:1.3.6.1.4.1.5923.1.5.1.1",
];

const TRANSIENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
const MAX_GROUPS = 200;
const MAX_VALUE_LENGTH = 256;
const EMAIL_SHAPE = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

/** Attribute values by Name (and FriendlyName), simple text values only, in document order. */
function attributesOf(assertion: Element): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const statement of children(assertion, NS.saml, "AttributeStatement")) {
    for (const attribute of children(statement, NS.saml, "Attribute")) {
      const values = children(attribute, NS.saml, "AttributeValue")
        .filter((v) => children(v).length === 0 && attr(v, "xsi:nil") !== "true")
        .map((v) => textOf(v) ?? "")
        .filter((v) => v !== "");
      for (const name of [attr(attribute, "Name"), attr(attribute, "FriendlyName")]) {
        if (name === null) continue;
        out.set(name, [...(out.get(name) ?? []), ...values]);
      }
    }
  }
  return out;
}

function firstOf(attributes: Map<string, string[]>, names: string[]): string | null {
  for (const name of names) {
    const value = attributes.get(name)?.[0];
    if (value) return value;
  }
  return null;
}

const asEmail = (value: string | null) => (value && value.length <= 320 && EMAIL_SHAPE.test(value) ? value : null);
const clip = (value: string | null) => (value ? value.slice(0, MAX_VALUE_LENGTH) : null);

export function profileOf(
  assertion: Element,
  nameId: { value: string; format: string | null },
  mapping: AttributeMapping,
): { ok: true; profile: SsoProfile } | SamlRefusal {
  const attributes = attributesOf(assertion);
  const email = mapping.email
    ? asEmail(firstOf(attributes, [mapping.email]))
    : (asEmail(nameId.value) ?? asEmail(firstOf(attributes, EMAIL_ATTRIBUTES)));

  let displayName = mapping.name ? firstOf(attributes, [mapping.name]) : firstOf(attributes, NAME_ATTRIBUTES);
  if (!displayName && !mapping.name) {
    const given = firstOf(attributes, GIVEN_NAME_ATTRIBUTES);
    const surname = firstOf(attributes, SURNAME_ATTRIBUTES);
    displayName = [given, surname].filter(Boolean).join(" ") || null;
  }

  const groupNames = mapping.groups ? [mapping.groups] : GROUP_ATTRIBUTES;
  const groups = [...new Set(groupNames.flatMap((n) => attributes.get(n) ?? []))]
    .filter((g) => g.length <= MAX_VALUE_LENGTH)
    .slice(0, MAX_GROUPS);

  // A transient NameID changes at every login: it cannot key an identity, so the email stands in for it.
  const subject = nameId.format === TRANSIENT ? email : nameId.value;
  if (!subject) return refuse("no_subject", "transient NameID and no email to identify the user");
  return { ok: true, profile: { subject, email, displayName: clip(displayName), groups } };
}
