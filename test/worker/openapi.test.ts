/**
 * The OpenAPI document is drawn from the route declarations: every route the worker answers
 * is in it (and nothing else), each with its access levels and known errors; /docs serves the
 * interactive reference over it.
 */

import { describe, expect, it } from "vitest";
import { apiRoutes } from "../../worker/app";
import { workerFetch } from "../helpers/worker-fetch";

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

type Operation = { "x-doorman-access"?: string[]; "x-doorman-errors"?: string[]; responses?: Record<string, unknown> };
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

async function fetchDoc(): Promise<Doc> {
  const res = await workerFetch("http://localhost/api/v1/openapi.json");
  expect(res.status).toBe(200);
  return (await res.json()) as Doc;
}

/** Hono's `/users/:userId` as OpenAPI's `/users/{userId}`, without a trailing slash. */
function normalise(path: string): string {
  const p = path.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\/+$/, "");
  return p === "" ? "/" : p;
}

function appPairs(): Set<string> {
  const pairs = new Set<string>();
  for (const r of apiRoutes.routes) if (METHODS.has(r.method)) pairs.add(`${r.method} ${normalise(r.path)}`);
  return pairs;
}

function docPairs(doc: Doc): Set<string> {
  const pairs = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) if (METHODS.has(method.toUpperCase())) pairs.add(`${method.toUpperCase()} ${normalise(path)}`);
  }
  return pairs;
}

describe("GET /api/v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document", async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
  });

  it("lists every route the app answers", async () => {
    const inDoc = docPairs(await fetchDoc());
    const missing = [...appPairs()].filter((p) => !inDoc.has(p));
    expect(missing).toEqual([]);
  });

  it("lists no route the app does not answer", async () => {
    const inApp = appPairs();
    const extra = [...docPairs(await fetchDoc())].filter((p) => !inApp.has(p));
    expect(extra).toEqual([]);
  });

  it("gives every operation its access levels, and its known errors as responses", async () => {
    const doc = await fetchDoc();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op["x-doorman-access"]?.length, where).toBeGreaterThan(0);
        expect(Array.isArray(op["x-doorman-errors"]), where).toBe(true);
        const access = op["x-doorman-access"] ?? [];
        if (!access.includes("public")) expect(op["x-doorman-errors"], where).toContain("ACCESS_TYPE_REQUIRED");
      }
    }
  });

  it("documents a server-only route's access and its own errors", async () => {
    const op = (await fetchDoc()).paths["/users/{userId}"]?.get;
    expect(op?.["x-doorman-access"]).toEqual(["server", "admin"]);
    expect(op?.["x-doorman-errors"]).toContain("USER_NOT_FOUND");
    expect(op?.["x-doorman-errors"]).toContain("INSUFFICIENT_ACCESS_TYPE");
    expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "401", "404"]));
  });

  it("is served the same under /api/latest", async () => {
    const res = await workerFetch("http://localhost/api/latest/openapi.json");
    expect(res.status).toBe(200);
  });
});

describe("GET /api/v1/docs", () => {
  it("is an HTML page that loads the reference over openapi.json", async () => {
    const res = await workerFetch("http://localhost/api/v1/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("/api/v1/openapi.json");
  });
});
