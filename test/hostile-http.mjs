/**
 * A real local HTTP server that misbehaves on purpose (Node), for the outbound-call fault tests
 * (test/worker/outbound-faults.test.ts; vitest's globalSetup starts it, tests in workerd reach it
 * over loopback). What it does is named by the path's first segment, `<mode>` or `<mode>.<tag>`
 * (Stripe's fixed paths, `/v1/…/<mode>.<tag>`, carry it as the last segment, e.g. an account id):
 *
 * - `ok`: 200 `{"ok":true}`;
 * - `hang`: never answers (the socket stays open until the caller gives up);
 * - `redirect`: 302 to `/ok` on this server;
 * - `big`: 200 and 50 MB of JSON-looking bytes, chunked, written only as fast as the caller reads;
 * - `big-declared`: the same with `content-length: 52428800`;
 * - `drip`: 200, then one byte a second, forever;
 * - `token-then-<mode>`: a POST to `…/token` answers an OAuth token; any other path does `<mode>`
 *   (the OAuth userinfo call after a good token exchange).
 *
 * GET /control/stats?tag=<tag>: `{requests, bytesSent, finished, closedEarly}` of the requests with
 * that tag (`closedEarly`: the caller hung up before the answer ended).
 */
import { createServer } from "node:http";

const BIG_BYTES = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, "x");

/** Starts the server on 127.0.0.1 (port 0: any free port). */
export async function startHostileHttp(port = 0) {
  const sockets = new Set();
  const stats = new Map();
  const statsOf = (tag) => {
    let s = stats.get(tag);
    if (!s) {
      s = { requests: 0, bytesSent: 0, finished: false, closedEarly: false };
      stats.set(tag, s);
    }
    return s;
  };
  let origin = "";

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://hostile.invalid");
    if (req.method === "GET" && url.pathname === "/control/stats")
      return void res.end(JSON.stringify(stats.get(url.searchParams.get("tag") ?? "") ?? null));
    req.resume(); // the request body is not needed
    const segments = url.pathname.split("/").filter(Boolean);
    const [named = "ok", tag = named] = (segments[0] === "v1" ? segments.at(-1) : segments[0])?.split(".") ?? [];
    const s = statsOf(tag);
    s.requests += 1;
    res.on("close", () => {
      if (!res.writableFinished) s.closedEarly = true;
    });
    res.on("finish", () => {
      s.finished = true;
    });
    let mode = named;
    if (mode.startsWith("token-then-")) {
      if (segments.at(-1) === "token") {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ access_token: "hostile-access-token", token_type: "Bearer", expires_in: 3600 }));
      }
      mode = mode.slice("token-then-".length);
    }
    switch (mode) {
      case "ok":
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end('{"ok":true}');
      case "hang":
        return;
      case "redirect":
        res.writeHead(302, { location: `${origin}/ok`, "content-type": "text/plain" });
        return void res.end("moved");
      case "big":
      case "big-declared": {
        res.writeHead(200, { "content-type": "application/json", ...(mode === "big-declared" ? { "content-length": BIG_BYTES } : {}) });
        const pump = () => {
          while (s.bytesSent < BIG_BYTES && !res.destroyed) {
            const piece = CHUNK.subarray(0, Math.min(CHUNK.length, BIG_BYTES - s.bytesSent));
            s.bytesSent += piece.length;
            if (!res.write(piece)) return void res.once("drain", pump);
          }
          if (!res.destroyed) res.end();
        };
        return void pump();
      }
      case "drip": {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("[");
        s.bytesSent += 1;
        const timer = setInterval(() => {
          res.write(" ");
          s.bytesSent += 1;
        }, 1000);
        res.on("close", () => clearInterval(timer));
        return;
      }
      default:
        res.writeHead(404, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ error: `unknown mode ${mode}` }));
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  return {
    port: server.address().port,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
