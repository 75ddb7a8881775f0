/**
 * A real local server of documents a test publishes (Node), for the worker's outbound fetches of what a
 * project's OAuth client publishes: client ID metadata documents (test/worker/oauth-provider-cimd.test.ts)
 * and private_key_jwt clients' `jwks_uri` (oauth-provider-client-auth.test.ts). vitest's globalSetup starts
 * it; the worker in workerd fetches from it over loopback, which development deployments allow.
 *
 * - PUT /control/<name> {body?, status?, headers?, mode?}: what GET /docs/<name> answers. `body` is
 *   sent as JSON (a string as is); `mode`: "ok" (the default), "hang" (never answers), "big" (200 and
 *   10 MB, streamed as fast as the caller reads), "redirect" (302 to /docs/<name>-moved).
 * - GET /control/<name>: `{requests}`, how many times the document was fetched.
 * - GET /docs/<name>: the document.
 */
import { createServer } from "node:http";
import { readBody } from "./read-body.mjs";

const BIG_BYTES = 10 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, " ");

/** Starts the server on 127.0.0.1 (port 0: any free port). */
export async function startDocumentServer(port = 0) {
  const docs = new Map();
  const sockets = new Set();
  const docOf = (name) => {
    let d = docs.get(name);
    if (!d) {
      d = { config: { status: 404, body: { error: "no such document" } }, requests: 0 };
      docs.set(name, d);
    }
    return d;
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://documents.invalid");
    const [, area, ...rest] = url.pathname.split("/");
    const name = decodeURIComponent(rest.join("/"));
    const json = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (area === "control" && req.method === "PUT") {
      docOf(name).config = JSON.parse((await readBody(req)) || "{}");
      return json(200, { ok: true });
    }
    if (area === "control" && req.method === "GET") return json(200, { requests: docOf(name).requests });
    if (area !== "docs") return json(404, { error: "not found" });
    const d = docOf(name);
    d.requests += 1;
    const { mode = "ok", status = 200, headers = {}, body } = d.config;
    if (mode === "hang") return;
    if (mode === "redirect") {
      res.writeHead(302, { location: `/docs/${encodeURIComponent(`${name}-moved`)}` });
      return void res.end();
    }
    if (mode === "big") {
      res.writeHead(200, { "content-type": "application/json" });
      let sent = 0;
      const pump = () => {
        while (sent < BIG_BYTES && !res.destroyed) {
          sent += CHUNK.length;
          if (!res.write(CHUNK)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end();
      };
      return pump();
    }
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
