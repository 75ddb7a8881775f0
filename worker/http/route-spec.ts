/** The shape of a route declaration and of what its handler receives (see route.ts). */

import type { KnownErrorCode } from "@doorman/shared/known-errors";
import type { Context } from "hono";
import type { z } from "zod";
import type { AccessType, RequestAuth } from "../services/request-auth";
import type { AppEnv } from "./hono-env";
import type { RateLimitPolicy } from "./limit";
import type { AuthWithUser } from "./request";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** A response: a JSON schema (status 200), or a status with a description and an optional schema. */
export type ResponseDecl = z.ZodType | { status: number; description: string; schema?: z.ZodType; contentType?: string };

export type RouteSpec = {
  method: Method;
  /** OpenAPI style, relative to the group's mount point: `/users/{userId}`. */
  path: string;
  summary: string;
  description?: string;
  /** Who may call: access levels, or "public" (no credentials needed; auth is read when sent). */
  access: readonly [AccessType, ...AccessType[]] | "public";
  /** Needs a signed-in user: CANNOT_GET_OWN_USER_WITHOUT_USER otherwise (or `missingUser`). */
  user?: boolean;
  /**
   * What a missing user answers where the reference validates `auth.user` in the request schema
   * (SCHEMA_ERROR "auth.user must be defined") instead of throwing CANNOT_GET_OWN_USER_WITHOUT_USER.
   */
  missingUser?: "SCHEMA_ERROR";
  /** The handler answers a request authenticated while D1 was away (`auth.degraded`, services/outage/) itself. */
  answersDegraded?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A narrower body for client callers (server-only fields are a SCHEMA_ERROR for them). */
  clientBody?: z.ZodType;
  /** Largest body this route reads, in bytes, when it needs more than MAX_BODY_BYTES (validate.ts). */
  maxBodyBytes?: number;
  /** Media types documented for the body; JSON by default (the reader also takes form and text bodies). */
  bodyMediaTypes?: readonly string[];
  response: ResponseDecl | readonly ResponseDecl[];
  /** Known errors this route answers besides the authentication ones the access levels imply. */
  errors?: readonly KnownErrorCode[];
  /**
   * Rate limits (RATE_LIMIT_RULES names), checked after validation: per caller IP, per
   * (`body.email`, IP) and per `body.email`; `failuresOnly` keys give their hit back on a 2xx.
   */
  rateLimit?: RateLimitPolicy;
  /**
   * "oauth": the route speaks an OAuth/OpenID wire (the OpenID provider's endpoints): its errors are
   * RFC 6749 JSON `{error, error_description}` declared in `response`, and a bad input is
   * `invalid_request`, never SCHEMA_ERROR (its route group renders them: routes/oauth-provider/respond.ts).
   * "scim": a connection's SCIM 2.0 server (issue 31): its errors are RFC 7644 §3.12 JSON
   * `{schemas, status, scimType, detail}` declared in `response`, a bad input is a SCIM 400
   * (invalidSyntax / invalidValue), never SCHEMA_ERROR, and the caller is the connection's bearer token
   * (its route group renders them: routes/scim/respond.ts).
   */
  errorFormat?: "oauth" | "scim";
};

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/** What a handler receives: the caller and the validated request parts. */
export type RouteInput<S extends RouteSpec> = {
  auth: S["access"] extends "public" ? RequestAuth | null : S["user"] extends true ? AuthWithUser : RequestAuth;
  params: Infer<S["params"]>;
  query: Infer<S["query"]>;
  body: Infer<S["body"]>;
};

export type RouteHandler<S extends RouteSpec> = (c: Context<AppEnv>, input: RouteInput<S>) => Response | Promise<Response>;
