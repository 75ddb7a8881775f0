/**
 * A declaration → its OpenAPI operation: the access levels, the known errors grouped by
 * status (each with its code enum), the rate limit and the security schemes it accepts.
 */

import { catalogue, type KnownErrorCode } from "@doorman/shared/known-errors";
import { knownErrorBodySchema } from "@doorman/shared/wire";
import type { RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import type { AccessType } from "../services/request-auth";
import type { ResponseDecl, RouteSpec } from "./route-spec";

/** Errors every authenticated route can answer while the caller is read (wire §1), by access level. */
const AUTH_ERRORS: Record<AccessType, readonly KnownErrorCode[]> = {
  client: ["INVALID_PUBLISHABLE_CLIENT_KEY", "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT"],
  server: ["SERVER_AUTHENTICATION_REQUIRED", "INVALID_SECRET_SERVER_KEY"],
  admin: ["ADMIN_AUTHENTICATION_REQUIRED", "INVALID_SUPER_SECRET_ADMIN_KEY"],
};
const REQUEST_AUTH_ERRORS: readonly KnownErrorCode[] = [
  "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
  "INVALID_ACCESS_TYPE",
  "ACCESS_TYPE_WITHOUT_PROJECT_ID",
  "ACCESS_TYPE_REQUIRED",
  "CURRENT_PROJECT_NOT_FOUND",
  "BRANCH_DOES_NOT_EXIST",
  "UNPARSABLE_ACCESS_TOKEN",
  "ACCESS_TOKEN_EXPIRED",
  "INVALID_PROJECT_FOR_ACCESS_TOKEN",
  "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
  "RESTRICTED_USER_NOT_ALLOWED",
  // An owner's admin access token is read at every access level.
  "UNPARSABLE_ADMIN_ACCESS_TOKEN",
  "ADMIN_ACCESS_TOKEN_EXPIRED",
  "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
];

/** Errors any route of an access level can answer; docs/api.md lists them once instead of per route. */
export const COMMON_ERRORS: ReadonlySet<KnownErrorCode> = new Set([
  ...REQUEST_AUTH_ERRORS,
  ...Object.values(AUTH_ERRORS).flat(),
  "INSUFFICIENT_ACCESS_TYPE",
  "SCHEMA_ERROR",
  "BODY_PARSING_ERROR",
]);

export const SECURITY_SCHEMES = {
  projectId: { type: "apiKey", in: "header", name: "x-stack-project-id", description: "The project id (also x-hexclave-project-id)." },
  accessType: { type: "apiKey", in: "header", name: "x-stack-access-type", description: "client, server or admin." },
  publishableClientKey: { type: "apiKey", in: "header", name: "x-stack-publishable-client-key" },
  secretServerKey: { type: "apiKey", in: "header", name: "x-stack-secret-server-key" },
  superSecretAdminKey: { type: "apiKey", in: "header", name: "x-stack-super-secret-admin-key" },
  adminAccessToken: {
    type: "apiKey",
    in: "header",
    name: "x-stack-admin-access-token",
    description: "An owner's session on the internal project: stands in for the key of any access level, and keeps that level.",
  },
  accessToken: { type: "apiKey", in: "header", name: "x-stack-access-token", description: "The signed-in user's access token." },
  scimToken: {
    type: "http",
    scheme: "bearer",
    description: "An SSO connection's SCIM token (dmscim_…), for its SCIM 2.0 endpoints under /scim/{connectionId}.",
  },
} as const;

function security(spec: RouteSpec): Record<string, string[]>[] {
  if (spec.errorFormat === "scim") return [{ scimToken: [] }];
  if (spec.access === "public") return [];
  const base: Record<string, string[]> = { projectId: [], accessType: [] };
  const user: Record<string, string[]> = spec.user ? { accessToken: [] } : {};
  // An owner's admin access token stands in for the key at every level (request-auth.ts credentialsFor).
  const key = { client: "publishableClientKey", server: "secretServerKey", admin: "superSecretAdminKey" } as const;
  return [...spec.access.map((type) => ({ ...base, ...user, [key[type]]: [] })), { ...base, ...user, adminAccessToken: [] }];
}

/** Every known error a route can answer: its own, plus those its access, inputs and user imply. */
export function errorsOf(spec: RouteSpec): KnownErrorCode[] {
  const codes = new Set<KnownErrorCode>(spec.errors ?? []);
  if (spec.access !== "public") {
    for (const code of REQUEST_AUTH_ERRORS) codes.add(code);
    for (const type of spec.access) for (const code of AUTH_ERRORS[type]) codes.add(code);
    if (spec.access.length < 3) codes.add("INSUFFICIENT_ACCESS_TYPE");
  }
  if (spec.user) codes.add(spec.missingUser ?? "CANNOT_GET_OWN_USER_WITHOUT_USER");
  // An OAuth- or SCIM-wire route answers a bad input with its own protocol's error, not these.
  if (!spec.errorFormat && (spec.params || spec.query || spec.body)) codes.add("SCHEMA_ERROR");
  if (!spec.errorFormat && spec.body) codes.add("BODY_PARSING_ERROR");
  return [...codes].sort();
}

function responseEntries(decl: RouteSpec["response"]): [number, ResponseDecl][] {
  const list = Array.isArray(decl) ? (decl as readonly ResponseDecl[]) : [decl as ResponseDecl];
  return list.map((r) => [r instanceof z.ZodType ? 200 : r.status, r]);
}

export function toOpenApiRoute(spec: RouteSpec): RouteConfig {
  const responses: RouteConfig["responses"] = {};
  for (const [status, r] of responseEntries(spec.response)) {
    if (r instanceof z.ZodType) responses[status] = { description: "OK", content: { "application/json": { schema: r } } };
    else
      responses[status] = {
        description: r.description,
        ...(r.schema ? { content: { [r.contentType ?? "application/json"]: { schema: r.schema } } } : {}),
      };
  }
  const errors = errorsOf(spec);
  const byStatus = new Map<number, KnownErrorCode[]>();
  for (const code of errors) byStatus.set(catalogue[code].status, [...(byStatus.get(catalogue[code].status) ?? []), code]);
  for (const [status, codes] of byStatus) {
    responses[status] = {
      description: `Known errors: ${codes.join(", ")}. The x-stack-known-error header carries the code.`,
      content: { "application/json": { schema: knownErrorBodySchema.extend({ code: z.enum(codes as [string, ...string[]]) }) } },
    };
  }
  if (spec.rateLimit) responses[429] = { description: "Too many requests: plain text, with a Retry-After header in seconds." };
  const bodyTypes = spec.bodyMediaTypes ?? ["application/json"];
  return {
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    request: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.body ? { body: { content: Object.fromEntries(bodyTypes.map((t) => [t, { schema: spec.body as z.ZodType }])) } } : {}),
    },
    responses,
    security: security(spec),
    "x-doorman-access": spec.access === "public" ? ["public"] : [...spec.access],
    "x-doorman-errors": errors,
    ...(spec.errorFormat ? { "x-doorman-error-format": spec.errorFormat } : {}),
    ...(spec.user ? { "x-doorman-user": "required" } : {}),
    ...(spec.rateLimit ? { "x-doorman-rate-limit": spec.rateLimit } : {}),
  } as RouteConfig;
}
