/**
 * A real local webhook receiver (Node): verifies each request with the `svix` npm package, exactly
 * as a customer's back end would, and records what came. Used by vitest's globalSetup (tests in
 * workerd reach it over loopback) and by the browser e2e.
 *
 * - POST /hooks/<name>: a webhook; answers 200, or 500 while the hook's `fail` count lasts.
 * - PUT /control/<name> {secret, fail?}: the secret to verify with, and how many requests to fail.
 * - GET /control/<name>: what the hook received, oldest first.
 */
import { createServer } from "node:http";
import { Webhook } from "svix";
import { readBody } from "./read-body.mjs";

function verify(secret, body, headers) {
  if (!secret) return { verified: false, error: "no secret registered" };
  try {
    new Webhook(secret).verify(body, headers);
    return { verified: true, error: null };
  } catch (err) {
    return { verified: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Starts the receiver on 127.0.0.1 (port 0: any free port). */
export async function startWebhookReceiver(port = 0) {
  const hooks = new Map();
  const hook = (name) => {
    let h = hooks.get(name);
    if (!h) {
      h = { secret: null, fail: 0, received: [] };
      hooks.set(name, h);
    }
    return h;
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver.invalid");
    const [, area, name] = url.pathname.split("/");
    const body = await readBody(req);
    const json = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (!name) return json(404, { error: "no hook name" });
    const h = hook(decodeURIComponent(name));
    if (area === "control" && req.method === "PUT") {
      const config = JSON.parse(body || "{}");
      if (config.secret !== undefined) h.secret = config.secret;
      if (config.fail !== undefined) h.fail = config.fail;
      return json(200, { ok: true });
    }
    if (area === "control" && req.method === "GET") return json(200, h.received);
    if (area === "hooks" && req.method === "POST") {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
      const answered = h.fail > 0 ? 500 : 200;
      if (h.fail > 0) h.fail -= 1;
      h.received.push({ headers, body, ...verify(h.secret, body, headers), answered, receivedAt: Date.now() });
      return json(answered, answered === 200 ? { received: true } : { error: "receiver told to fail" });
    }
    return json(404, { error: "not found" });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
