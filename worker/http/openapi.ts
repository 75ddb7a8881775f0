/**
 * The OpenAPI 3.1 document, drawn from the route declarations (GET /api/v1/openapi.json), and
 * the interactive reference over it (GET /api/v1/docs, Scalar).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { z } from "zod";
import { apiDocument, registerApiDocument } from "./api-document";
import type { AppEnv } from "./hono-env";
import { SECURITY_SCHEMES } from "./openapi-route";
import { addRoute, defineRoute } from "./route";

export const API_TITLE = "Doorman API";
export const API_VERSION = "1.0.0";

/** Scalar's browser bundle: the public CDN unless the deployment serves its own copy (`npm start` does). */
const DEFAULT_DOCS_SCRIPT = "https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1";

type OpenApiDocument = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

/** The tag of an operation: its resource, e.g. "users", "auth/password", "internal/projects". */
const META_PATHS = new Set(["/health", "/check-feature-support", "/openapi.json", "/docs"]);

function tagOf(path: string): string {
  if (META_PATHS.has(path)) return "meta";
  const parts = path.split("/").filter(Boolean);
  return parts[0] === "auth" || parts[0] === "internal" ? parts.slice(0, 2).join("/") : (parts[0] ?? "root");
}

/** Builds the document of `api` (the /api/v1 group): servers, security schemes and tags filled in. */
export function buildOpenApiDocument(api: OpenAPIHono<AppEnv>, serverUrl = "/api/v1"): OpenApiDocument {
  const doc = api.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: API_TITLE,
      version: API_VERSION,
      description:
        "Hosted sign-in and user management, wire-compatible with Stack Auth. Every request header is accepted as x-stack-* and x-hexclave-*. " +
        "x-doorman-access lists the access levels a route allows; x-doorman-errors the known errors it can answer.",
    },
    servers: [{ url: serverUrl }],
  });
  doc.components = { ...doc.components, securitySchemes: { ...SECURITY_SCHEMES } };
  const tags = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(item ?? {})) {
      if (op && typeof op === "object" && "responses" in op) {
        const tag = tagOf(path);
        (op as { tags?: string[] }).tags = [tag];
        tags.add(tag);
      }
    }
  }
  doc.tags = [...tags].sort().map((name) => ({ name }));
  return doc;
}

const openApiJson = defineRoute({
  method: "get",
  path: "/openapi.json",
  summary: "This API's OpenAPI 3.1 document",
  access: "public",
  response: z.record(z.string(), z.unknown()),
});

const docsPage = defineRoute({
  method: "get",
  path: "/docs",
  summary: "The interactive API reference (HTML)",
  access: "public",
  response: { status: 200, description: "An HTML page", schema: z.string(), contentType: "text/html" },
});

/** Mounts both on `api`; the document is built once per isolate, on first use (http/api-document.ts). */
export function addApiDocs(api: OpenAPIHono<AppEnv>): void {
  registerApiDocument(() => buildOpenApiDocument(api));
  addRoute(api, openApiJson, (c) => c.json(apiDocument(), 200, { "cache-control": "public, max-age=300" }));
  addRoute(api, docsPage, (c) => {
    const base = new URL(c.req.url).pathname.replace(/\/docs\/?$/, "");
    const page = Scalar({
      url: `${base}/openapi.json`,
      pageTitle: API_TITLE,
      cdn: c.get("deps").config.apiDocsScriptUrl ?? DEFAULT_DOCS_SCRIPT,
    });
    return page(c as never, async () => {}) as Promise<Response>;
  });
}
