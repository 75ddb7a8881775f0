/**
 * The SCIM resource schemas Doorman serves (RFC 7643 §4.1 User, §4.2 Group, §4.3 the enterprise User
 * extension), as attribute definitions with their characteristics. One list drives both what a write
 * keeps (normalize.ts: names are matched case-insensitively, types checked, readOnly and writeOnly
 * attributes dropped) and what GET /Schemas answers (discovery.ts). The common attributes id,
 * externalId and meta (RFC 7643 §3.1) are not listed, as the RFC's own schema representation does.
 */
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from "./urns";

export type AttributeType = "string" | "boolean" | "complex" | "reference";
export type Mutability = "readOnly" | "readWrite" | "immutable" | "writeOnly";

export type AttributeDef = {
  name: string;
  type: AttributeType;
  description: string;
  multiValued: boolean;
  required: boolean;
  caseExact: boolean;
  mutability: Mutability;
  returned: "always" | "never" | "default" | "request";
  uniqueness: "none" | "server";
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: AttributeDef[];
};

export type ResourceSchemaDef = { id: string; name: string; description: string; attributes: AttributeDef[] };

type Extra = Partial<Omit<AttributeDef, "name" | "type" | "description">>;

function attr(name: string, type: AttributeType, description: string, extra: Extra = {}): AttributeDef {
  return {
    name,
    type,
    description,
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    ...extra,
  };
}

const str = (name: string, description: string, extra?: Extra) => attr(name, "string", description, extra);
const complex = (name: string, description: string, subAttributes: AttributeDef[], extra?: Extra) =>
  attr(name, "complex", description, { subAttributes, ...extra });

/** The sub-attributes of a multi-valued attribute such as emails (RFC 7643 §2.4). */
function multiValue(name: string, description: string, types: string[], valueType: AttributeType = "string"): AttributeDef {
  return complex(
    name,
    description,
    [
      attr("value", valueType, `The ${name} value.`, valueType === "reference" ? { referenceTypes: ["external"] } : {}),
      str("display", "A human-readable name, primarily used for display purposes."),
      str("type", "A label indicating the attribute's function.", { canonicalValues: types }),
      attr("primary", "boolean", "Whether this is the primary value of the attribute."),
    ],
    { multiValued: true },
  );
}

export const USER_RESOURCE_SCHEMA: ResourceSchemaDef = {
  id: USER_SCHEMA,
  name: "User",
  description: "User Account",
  attributes: [
    str("userName", "Unique identifier for the User, typically used to sign in; unique within the connection, not case-exact.", {
      required: true,
      uniqueness: "server",
    }),
    complex("name", "The components of the user's real name.", [
      str("formatted", "The full name, formatted for display."),
      str("familyName", "The family name of the User."),
      str("givenName", "The given name of the User."),
      str("middleName", "The middle name(s) of the User."),
      str("honorificPrefix", "The honorific prefix(es) of the User."),
      str("honorificSuffix", "The honorific suffix(es) of the User."),
    ]),
    str("displayName", "The name of the User, suitable for display to end-users; it becomes the Doorman user's display name."),
    str("nickName", "The casual way to address the user."),
    attr("profileUrl", "reference", "A fully qualified URL pointing to a page representing the User's online profile.", {
      referenceTypes: ["external"],
    }),
    str("title", "The user's title, such as 'Vice President'."),
    str("userType", "Identifies the relationship between the organization and the user."),
    str("preferredLanguage", "The User's preferred written or spoken language."),
    str("locale", "The User's default location for localizing items."),
    str("timezone", "The User's time zone in the 'Olson' time zone database format."),
    attr("active", "boolean", "The User's administrative status: false removes them from the team and ends every session."),
    str("password", "Never stored: Doorman keeps no password an identity provider sends.", { mutability: "writeOnly", returned: "never" }),
    multiValue("emails", "Email addresses for the user; the primary (or first) one becomes the Doorman user's email.", [
      "work",
      "home",
      "other",
    ]),
    multiValue("phoneNumbers", "Phone numbers for the User.", ["work", "home", "mobile", "fax", "pager", "other"]),
    multiValue("ims", "Instant messaging addresses for the User.", ["aim", "gtalk", "icq", "xmpp", "msn", "skype", "qq", "yahoo"]),
    multiValue("photos", "URLs of photos of the User.", ["photo", "thumbnail"], "reference"),
    complex(
      "addresses",
      "A physical mailing address for this User.",
      [
        str("formatted", "The full mailing address, formatted for display."),
        str("streetAddress", "The full street address component."),
        str("locality", "The city or locality component."),
        str("region", "The state or region component."),
        str("postalCode", "The zip code or postal code component."),
        str("country", "The country name component."),
        str("type", "A label indicating the attribute's function.", { canonicalValues: ["work", "home", "other"] }),
        attr("primary", "boolean", "Whether this is the primary address."),
      ],
      { multiValued: true },
    ),
    complex(
      "groups",
      "The groups of this connection the user belongs to; changed through the Groups resource.",
      [
        str("value", "The identifier of the Group.", { mutability: "readOnly" }),
        attr("$ref", "reference", "The URI of the Group.", { mutability: "readOnly", referenceTypes: ["Group"] }),
        str("display", "The displayName of the Group.", { mutability: "readOnly" }),
        str("type", "direct", { mutability: "readOnly", canonicalValues: ["direct"] }),
      ],
      { multiValued: true, mutability: "readOnly" },
    ),
    multiValue("entitlements", "A list of entitlements for the User.", []),
    multiValue("roles", "A list of roles for the User.", []),
  ],
};

export const ENTERPRISE_USER_RESOURCE_SCHEMA: ResourceSchemaDef = {
  id: ENTERPRISE_USER_SCHEMA,
  name: "EnterpriseUser",
  description: "Enterprise User",
  attributes: [
    str("employeeNumber", "Numeric or alphanumeric identifier assigned to a person."),
    str("costCenter", "Identifies the name of a cost center."),
    str("organization", "Identifies the name of an organization."),
    str("division", "Identifies the name of a division."),
    str("department", "Identifies the name of a department."),
    complex("manager", "The User's manager.", [
      str("value", "The id of the SCIM resource representing the User's manager."),
      attr("$ref", "reference", "The URI of the SCIM resource representing the User's manager.", { referenceTypes: ["User"] }),
      str("displayName", "The displayName of the User's manager.", { mutability: "readOnly" }),
    ]),
  ],
};

export const GROUP_RESOURCE_SCHEMA: ResourceSchemaDef = {
  id: GROUP_SCHEMA,
  name: "Group",
  description: "Group: its members' team permissions follow the connection's group mapping.",
  attributes: [
    str("displayName", "A human-readable name for the Group; unique within the connection, and the key of the group mapping.", {
      required: true,
      uniqueness: "server",
      caseExact: true,
    }),
    complex(
      "members",
      "The members of the Group: Users of this connection.",
      [
        str("value", "The id of a User of this connection.", { mutability: "immutable" }),
        attr("$ref", "reference", "The URI of the member.", { mutability: "immutable", referenceTypes: ["User"] }),
        str("type", "The type of the member.", { mutability: "immutable", canonicalValues: ["User"] }),
        str("display", "The member's userName.", { mutability: "readOnly" }),
      ],
      { multiValued: true },
    ),
  ],
};

/** A definition by name, case-insensitively (SCIM attribute names are not case-sensitive, RFC 7643 §2.1). */
export function findAttribute(defs: readonly AttributeDef[], name: string): AttributeDef | undefined {
  const key = name.toLowerCase();
  return defs.find((d) => d.name.toLowerCase() === key);
}
