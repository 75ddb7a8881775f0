/**
 * The SCIM endpoints' declared shapes (for validation of the path and query, and for the OpenAPI
 * document). Bodies are declared as open objects: SCIM attribute names are case-insensitive and IdPs
 * send attributes of their own, so the services read them (services/scim/normalize.ts, patch.ts) and
 * answer SCIM errors, not SCHEMA_ERROR.
 */
import { z } from "zod";

export const SCIM_MEDIA_TYPES = ["application/scim+json", "application/json"] as const;

export const connectionParams = z.strictObject({ connectionId: z.string().min(1).max(64) });
export const resourceParams = z.strictObject({ connectionId: z.string().min(1).max(64), id: z.string().min(1).max(128) });

/** List and read queries; unknown parameters are ignored (Entra appends its own flags, e.g. aadOptscim062020). */
export const listQuery = z.looseObject({
  filter: z
    .string()
    .optional()
    .describe('A SCIM filter: userName eq "…", externalId eq "…", emails.value eq "…" (Users), displayName eq "…" (Groups), with and.'),
  startIndex: z.string().optional().describe("1-based index of the first result (default 1)."),
  count: z.string().optional().describe("Results per page (default 100, at most 200; 0: only totalResults)."),
  attributes: z.string().optional().describe("Comma-separated attributes to return (id and schemas always are)."),
  excludedAttributes: z.string().optional().describe("Comma-separated attributes to leave out, e.g. members."),
});
export const readQuery = z.looseObject({
  attributes: listQuery.shape.attributes,
  excludedAttributes: listQuery.shape.excludedAttributes,
});

const resourceBody = (description: string) => z.looseObject({ schemas: z.array(z.string()).optional() }).describe(description);

export const userBody = resourceBody(
  "A SCIM User (RFC 7643 §4.1): userName (required), name, displayName, emails, active, externalId, the enterprise extension…",
);
export const groupBody = resourceBody("A SCIM Group (RFC 7643 §4.2): displayName (required), externalId, members [{value: a User id}].");
export const patchBody = resourceBody(
  "A PatchOp message (RFC 7644 §3.5.2): {schemas: [urn:ietf:params:scim:api:messages:2.0:PatchOp], Operations: [{op, path?, value?}]}.",
);

/** A SCIM resource or message as answered (open: its attributes follow the schemas of GET /Schemas). */
export const scimResource = z.looseObject({ schemas: z.array(z.string()) });

export const scimError = z.strictObject({
  schemas: z.array(z.string()),
  status: z.string(),
  scimType: z.string().optional(),
  detail: z.string(),
});

const json = (status: number, description: string, schema: z.ZodType = scimResource) =>
  ({ status, description, schema, contentType: "application/scim+json" }) as const;

/** The errors every SCIM endpoint can answer. */
export const COMMON_SCIM_RESPONSES = [
  json(400, "SCIM error: invalidSyntax, invalidValue, invalidFilter, invalidPath, noTarget, mutability", scimError),
  json(401, "SCIM error: no or a wrong bearer token (with WWW-Authenticate)", scimError),
  json(403, "SCIM error: the connection is disabled", scimError),
  json(429, "SCIM error: the connection's rate limit (SCIM_PER_CONNECTION), with Retry-After", scimError),
] as const;

export const scimResponses = {
  ok: (description: string) => json(200, description),
  created: (description: string) => json(201, description),
  noContent: { status: 204, description: "Done (no body); the ETag header carries the new version." },
  notFound: json(404, "SCIM error: no such resource in this connection", scimError),
  conflict: json(409, "SCIM error: uniqueness (userName or displayName taken)", scimError),
  preconditionFailed: json(412, "SCIM error: If-Match names a version the resource no longer has", scimError),
  tooLarge: json(413, "SCIM error: the body is larger than the server reads", scimError),
} as const;
