/**
 * A local DNS-over-HTTPS responder (Node http) in the JSON form Cloudflare's and Google's resolvers
 * answer (`GET /dns-query?name=…&type=TXT`, `accept: application/dns-json`), for enterprise SSO's
 * domain verification (issue 31): the worker tests (vitest's globalSetup starts it; DOH_RESOLVER_URL
 * points at it), the browser e2e and offline development. It holds only what a test publishes:
 *
 * - a name with TXT records answers `Status: 0` and one Answer per record, each value quoted and cut
 *   into 255-byte character-strings as real resolvers send long TXT records (`"abc…" "…xyz"`);
 * - any other name answers NXDOMAIN (`Status: 3`, no Answer);
 * - a name given a behaviour misbehaves: `hang` (never answers), `huge` (200 and 10 MB, as fast as
 *   the caller reads), `servfail` (`Status: 2`), `http500`, `not-json`.
 *
 * Control API (JSON):
 * - PUT    /control/records  {name, values: string[]}: the TXT records of `name` (replacing its old ones);
 * - DELETE /control/records?name=…: removes them (the name answers NXDOMAIN again);
 * - PUT    /control/behaviour {name, behaviour: "hang"|"huge"|"servfail"|"http500"|"not-json"|null};
 * - GET    /control/queries?name=…: `{count}`, the lookups of `name` so far.
 */
import { createServer } from "node:http";
import { readBody } from "./read-body.mjs";

const TXT = 16;
const HUGE_BYTES = 10 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, "x");
const BEHAVIOURS = new Set(["hang", "huge", "servfail", "http500", "not-json"]);

/** A name as a resolver compares it: lower case, no trailing dot. */
const canonical = (name) =>
  String(name ?? "")
    .toLowerCase()
    .replace(/\.$/, "");

/** One TXT value in presentation form: quoted 255-byte character-strings, `"` and `\` escaped. */
function presentation(value) {
  const parts = [];
  for (let i = 0; i < value.length || i === 0; i += 255) parts.push(value.slice(i, i + 255));
  return parts.map((p) => `"${p.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(" ");
}

/** Starts the responder on 127.0.0.1 (port 0: any free port). */
export async function startDohResponder(port = 0) {
  const records = new Map();
  const behaviours = new Map();
  const queries = new Map();
  const sockets = new Set();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://doh.invalid");
    const json = (status, value, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(JSON.stringify(value));
    };
    if (url.pathname.startsWith("/control/")) {
      const raw = await readBody(req);
      let body = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        return json(400, { error: "not JSON" });
      }
      if (url.pathname === "/control/records" && req.method === "PUT") {
        if (!Array.isArray(body.values) || !body.values.every((v) => typeof v === "string"))
          return json(400, { error: "values: string[]" });
        records.set(canonical(body.name), [...body.values]);
        return json(200, { ok: true });
      }
      if (url.pathname === "/control/records" && req.method === "DELETE") {
        records.delete(canonical(url.searchParams.get("name")));
        return json(200, { ok: true });
      }
      if (url.pathname === "/control/behaviour" && req.method === "PUT") {
        if (body.behaviour === null) behaviours.delete(canonical(body.name));
        else if (BEHAVIOURS.has(body.behaviour)) behaviours.set(canonical(body.name), body.behaviour);
        else return json(400, { error: `behaviour: one of ${[...BEHAVIOURS].join(", ")} or null` });
        return json(200, { ok: true });
      }
      if (url.pathname === "/control/queries" && req.method === "GET")
        return json(200, { count: queries.get(canonical(url.searchParams.get("name"))) ?? 0 });
      return json(404, { error: "not found" });
    }
    req.resume();
    if (url.pathname !== "/dns-query" || req.method !== "GET") return json(404, { error: "not found" });
    const name = canonical(url.searchParams.get("name"));
    const type = url.searchParams.get("type") ?? "A";
    queries.set(name, (queries.get(name) ?? 0) + 1);
    const question = [{ name: `${name}.`, type: type === "TXT" ? TXT : type }];
    const answer = { Status: 0, TC: false, RD: true, RA: true, AD: false, CD: false, Question: question };
    switch (behaviours.get(name)) {
      case "hang":
        return; // the socket stays open until the caller gives up (or the responder stops)
      case "huge": {
        res.writeHead(200, { "content-type": "application/dns-json" });
        let sent = 0;
        const pump = () => {
          while (sent < HUGE_BYTES) {
            sent += CHUNK.length;
            if (!res.write(CHUNK)) return void res.once("drain", pump);
          }
          res.end();
        };
        res.on("close", () => {
          sent = HUGE_BYTES;
        });
        return pump();
      }
      case "servfail":
        return json(200, { ...answer, Status: 2 }, "application/dns-json");
      case "http500":
        return json(500, { error: "resolver failure" });
      case "not-json":
        res.writeHead(200, { "content-type": "application/dns-json" });
        return void res.end("<html>not a DNS answer</html>");
    }
    const values = type === "TXT" ? records.get(name) : undefined;
    if (!values?.length) return json(200, { ...answer, Status: 3, Authority: [] }, "application/dns-json");
    const Answer = values.map((v) => ({ name: `${name}.`, type: TXT, TTL: 300, data: presentation(v) }));
    return json(200, { ...answer, Answer }, "application/dns-json");
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  const url = `http://127.0.0.1:${actualPort}`;
  return {
    port: actualPort,
    url,
    resolverUrl: `${url}/dns-query`,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// `node test/doh-responder.mjs [port]`: run it alone (offline development: DOH_RESOLVER_URL=http://127.0.0.1:8795/dns-query).
if (import.meta.url === `file://${process.argv[1]}`) {
  const responder = await startDohResponder(Number(process.argv[2] ?? 8795));
  console.log(`DoH responder on ${responder.resolverUrl} (control API ${responder.url}/control/records)`);
}
