#!/usr/bin/env node
// The local Stripe fake over HTTP (the API itself is scripts/stripe-fake.mjs), so payments work
// offline without a Stripe key: `npm start` runs it when STRIPE_SECRET_KEY is unset and points the
// worker at it (STRIPE_API_URL + STRIPE_DEV_SECRET_KEY); test/global-setup.ts runs one for the worker tests.
// Standalone: `node scripts/stripe-dev-server.mjs` (PORT, default 8115).
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { createStripeFake } from "./stripe-fake.mjs";

/** The test key npm start gives the worker with the fake (any sk_test_… works; it is not a secret). */
export const STRIPE_DEV_SECRET_KEY = "sk_test_doorman_local_stripe_fake";
/** The webhook signing secret npm start gives the worker with the fake (public: development only). */
export const STRIPE_DEV_WEBHOOK_SECRET = "whsec_doorman_local_stripe_fake";

/** Starts the fake on `host`:`port` (0 = any free port). */
export async function startStripeDevServer({ port = 0, host = "127.0.0.1" } = {}) {
  const sockets = new Set();
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const url = `http://${host}:${server.address().port}`;
  const fake = createStripeFake({ origin: url });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("request", async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const headers = Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v]]));
      const request = new Request(new URL(req.url ?? "/", url), {
        method: req.method,
        headers,
        ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
      });
      const answer = await fake.handle(request);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (err) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: String(err) } }));
    }
  });
  return {
    url,
    fake,
    close: () =>
      new Promise((resolve) => {
        // Hanging requests (sk_test_hang…) keep their sockets open: end them, or close() waits forever.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startStripeDevServer({ port: Number(process.env.PORT || 8115) });
  console.log(`Stripe fake on ${url} (STRIPE_API_URL=${url} STRIPE_SECRET_KEY=${STRIPE_DEV_SECRET_KEY})`);
}
