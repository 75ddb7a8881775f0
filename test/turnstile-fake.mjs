/**
 * A local Cloudflare Turnstile (Node http): siteverify and a tiny widget script, so the worker tests,
 * the browser e2e and offline development run without challenges.cloudflare.com. It follows
 * Cloudflare's documented behaviour (developers.cloudflare.com/turnstile: "Test your Turnstile
 * implementation", "Server-side validation"):
 * - test secrets: 1x0000000000000000000000000000000AA always passes, 2x…AA always fails
 *   (invalid-input-response), 3x…AA answers "token already spent" (timeout-or-duplicate);
 * - the dummy token XXXX.DUMMY.TOKEN.XXXX (what test sitekeys hand out) passes only with a test secret;
 * - any other secret checks the fake's own tokens: missing-input-response, invalid-input-response,
 *   timeout-or-duplicate on reuse and after 300 s, and answers the token's action and hostname.
 *   A widget's secret may be bound to its sitekey (POST /control/widgets); unbound, any secret that
 *   is not a test secret is accepted for the tokens (the fake has no widget registry by default).
 * - fault secrets (not Cloudflare's, for outage tests): one starting "fake-http500" answers HTTP 500,
 *   one starting "fake-hang" never answers.
 *
 * Routes:
 * - POST /turnstile/v0/siteverify (form or JSON: secret, response, remoteip, idempotency_key)
 * - GET  /turnstile/v0/api.js: the widget script (window.turnstile.render/execute/remove/reset/getResponse)
 * - POST /token {sitekey, action, hostname}: a token, as the widget gets one (CORS open)
 * - POST /control/token {sitekey, action, hostname, age_seconds}: a token issued age_seconds ago
 * - POST /control/widgets {sitekey, secret}: binds a secret to a sitekey
 * - GET  /control/stats: siteverify calls answered so far
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { readBody } from "./read-body.mjs";

export const TEST_SECRETS = {
  pass: "1x0000000000000000000000000000000AA",
  fail: "2x0000000000000000000000000000000AA",
  spent: "3x0000000000000000000000000000000AA",
};
export const TEST_SITEKEYS = {
  visiblePass: "1x00000000000000000000AA",
  visibleFail: "2x00000000000000000000AB",
  invisiblePass: "1x00000000000000000000BB",
  invisibleFail: "2x00000000000000000000BB",
  interactive: "3x00000000000000000000FF",
};
export const DUMMY_TOKEN = "XXXX.DUMMY.TOKEN.XXXX";
/** Cloudflare: a token is valid for 300 seconds. */
const TOKEN_TTL_MS = 300_000;
const FAILING_SITEKEYS = new Set([TEST_SITEKEYS.visibleFail, TEST_SITEKEYS.invisibleFail]);
const TEST_SITEKEY_SET = new Set(Object.values(TEST_SITEKEYS));

/** The widget script: renders a small box (or nothing, invisible), asks the fake for a token, calls back. */
function widgetScript(origin) {
  return `(() => {
  const ORIGIN = ${JSON.stringify(origin)};
  const widgets = new Map();
  let next = 0;
  async function solve(id) {
    const w = widgets.get(id);
    if (!w) return;
    const failing = ${JSON.stringify([...FAILING_SITEKEYS])}.includes(w.opts.sitekey);
    if (failing) { w.opts["error-callback"] && w.opts["error-callback"]("600010"); return; }
    try {
      const res = await fetch(ORIGIN + "/token", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ sitekey: w.opts.sitekey, action: w.opts.action || "", hostname: location.hostname }) });
      const { token } = await res.json();
      w.token = token;
      if (w.box) w.box.setAttribute("data-state", "solved");
      w.opts.callback && w.opts.callback(token);
    } catch (e) { w.opts["error-callback"] && w.opts["error-callback"]("network"); }
  }
  window.turnstile = {
    render(container, opts) {
      const el = typeof container === "string" ? document.querySelector(container) : container;
      const id = "fake-widget-" + (++next);
      const w = { opts, token: null, box: null };
      widgets.set(id, w);
      if (opts.size !== "invisible" && opts.appearance !== "execute" && opts.appearance !== "interaction-only") {
        const box = document.createElement("div");
        box.setAttribute("data-fake-turnstile", opts.sitekey);
        box.setAttribute("data-state", "pending");
        box.textContent = "Turnstile (local fake)";
        box.style.cssText = "border:1px solid #999;padding:8px;font:12px sans-serif;width:280px;";
        el && el.appendChild(box);
        w.box = box;
      }
      // Cloudflare's 3x…FF sitekey forces an interactive challenge: here a button the person clicks.
      if (w.box && opts.sitekey === ${JSON.stringify(TEST_SITEKEYS.interactive)}) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = "Verify you are human";
        button.onclick = () => solve(id);
        w.box.appendChild(button);
      } else if (opts.execution !== "execute") setTimeout(() => solve(id), 50);
      return id;
    },
    execute(id) { setTimeout(() => solve(typeof id === "string" ? id : [...widgets.keys()].pop()), 10); },
    reset(id) { const w = widgets.get(id); if (w) { w.token = null; solve(id); } },
    remove(id) { const w = widgets.get(id); if (w && w.box) w.box.remove(); widgets.delete(id); },
    getResponse(id) { return widgets.get(id)?.token ?? undefined; },
  };
})();
`;
}

/** Starts the fake on 127.0.0.1 (port 0: any free port). */
export async function startTurnstileFake(port = 0) {
  /** token -> { sitekey, action, hostname, issuedAt, spent } */
  const tokens = new Map();
  const widgetSecrets = new Map();
  const stats = { siteverify: 0 };
  const hanging = new Set();

  const issue = ({ sitekey, action, hostname, age_seconds }) => {
    // A test sitekey hands out the documented dummy token; a real-looking one gets a token of the fake's own.
    if (TEST_SITEKEY_SET.has(sitekey)) return DUMMY_TOKEN;
    const token = `fake.${randomBytes(24).toString("base64url")}`;
    tokens.set(token, {
      sitekey: String(sitekey ?? ""),
      action: String(action ?? ""),
      hostname: String(hostname ?? "localhost"),
      issuedAt: Date.now() - Number(age_seconds ?? 0) * 1000,
      spent: false,
    });
    return token;
  };

  const verify = (secret, response) => {
    const failure = (code) => ({ success: false, "error-codes": [code] });
    if (!secret) return failure("missing-input-secret");
    if (!response) return failure("missing-input-response");
    if (secret === TEST_SECRETS.fail) return failure("invalid-input-response");
    if (secret === TEST_SECRETS.spent) return failure("timeout-or-duplicate");
    const entry = tokens.get(response);
    if (secret === TEST_SECRETS.pass) {
      const challenge_ts = new Date().toISOString();
      // The dummy token says nothing about where it was solved (Cloudflare's placeholder answer).
      if (!entry) return { success: true, "error-codes": [], challenge_ts, hostname: "example.com", action: "" };
      return { success: true, "error-codes": [], challenge_ts, hostname: entry.hostname, action: entry.action };
    }
    // Cloudflare: production secrets reject the dummy token.
    if (!entry) return failure("invalid-input-response");
    const bound = widgetSecrets.get(entry.sitekey);
    if (bound !== undefined && bound !== secret) return failure("invalid-input-secret");
    // Checked and spent in one synchronous step: concurrent checks of one token cannot both pass.
    if (entry.spent) return failure("timeout-or-duplicate");
    entry.spent = true;
    if (Date.now() - entry.issuedAt > TOKEN_TTL_MS) return failure("timeout-or-duplicate");
    return {
      success: true,
      "error-codes": [],
      challenge_ts: new Date(entry.issuedAt).toISOString(),
      hostname: entry.hostname,
      action: entry.action,
    };
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://turnstile.invalid");
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type" };
    const json = (status, value) => {
      res.writeHead(status, { "content-type": "application/json", ...cors });
      res.end(JSON.stringify(value));
    };
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors, "access-control-allow-methods": "GET, POST" });
      res.end();
      return;
    }
    const raw = await readBody(req);
    const body = () => {
      if ((req.headers["content-type"] ?? "").includes("application/json")) {
        try {
          return JSON.parse(raw || "{}");
        } catch {
          return {};
        }
      }
      return Object.fromEntries(new URLSearchParams(raw));
    };
    if (req.method === "GET" && url.pathname === "/turnstile/v0/api.js") {
      res.writeHead(200, { "content-type": "text/javascript", ...cors });
      res.end(widgetScript(`http://${req.headers.host}`));
      return;
    }
    if (req.method === "POST" && url.pathname === "/turnstile/v0/siteverify") {
      const { secret, response } = body();
      if (typeof secret === "string" && secret.startsWith("fake-hang")) {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      if (typeof secret === "string" && secret.startsWith("fake-http500")) return json(500, { error: "internal" });
      stats.siteverify++;
      return json(200, verify(secret, response));
    }
    if (req.method === "POST" && (url.pathname === "/token" || url.pathname === "/control/token")) {
      const input = body();
      if (url.pathname === "/token") delete input.age_seconds;
      return json(200, { token: issue(input) });
    }
    if (req.method === "POST" && url.pathname === "/control/widgets") {
      const { sitekey, secret } = body();
      widgetSecrets.set(String(sitekey), String(secret));
      return json(200, { ok: true });
    }
    if (req.method === "GET" && url.pathname === "/control/stats") return json(200, stats);
    json(404, { error: "not found" });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    port: actualPort,
    url: `http://127.0.0.1:${actualPort}`,
    stop: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

// `node test/turnstile-fake.mjs [port]`: run it alone (offline `npm start`, docs/security.md).
if (import.meta.url === `file://${process.argv[1]}`) {
  const fake = await startTurnstileFake(Number(process.argv[2] ?? 8793));
  console.log(`Turnstile fake on ${fake.url} (siteverify ${fake.url}/turnstile/v0/siteverify, script ${fake.url}/turnstile/v0/api.js)`);
}
