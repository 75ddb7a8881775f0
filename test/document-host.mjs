/**
 * A real local HTTP server that serves documents a test stores (Node), for outbound fetches of things a
 * project's client publishes: the OpenID provider's private_key_jwt clients' `jwks_uri` (test/worker/
 * oauth-provider-client-auth.test.ts). vitest's globalSetup starts it; tests in workerd reach it over loopback.
 *
 * - PUT /control/<name> `{body, status?, contentType?}`: what GET /docs/<name> answers from now on;
 * - GET /control/<name>: `{requests}`, how many times /docs/<name> was fetched;
 * - GET /docs/<name>: the stored document (404 when none).
 */
import { createServer } from "node:http";
import { readBody } from "./read-body.mjs";

/** Starts the server on 127.0.0.1 (port 0: any free port). */
export async function startDocumentHost(port = 0) {
  const docs = new Map();
  const requests = new Map();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://documents.invalid");
    const [, area, raw] = url.pathname.split("/");
    const name = decodeURIComponent(raw ?? "");
    const body = await readBody(req);
    const json = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (area === "control" && req.method === "PUT") {
      docs.set(name, JSON.parse(body || "{}"));
      return json(200, { ok: true });
    }
    if (area === "control" && req.method === "GET") return json(200, { requests: requests.get(name) ?? 0 });
    if (area === "docs" && req.method === "GET") {
      requests.set(name, (requests.get(name) ?? 0) + 1);
      const doc = docs.get(name);
      if (!doc) return json(404, { error: "no such document" });
      res.writeHead(doc.status ?? 200, { "content-type": doc.contentType ?? "application/json" });
      return void res.end(typeof doc.body === "string" ? doc.body : JSON.stringify(doc.body));
    }
    return json(404, { error: "not found" });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
