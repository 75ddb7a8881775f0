/**
 * A real local server that speaks the OpenAI chat-completions protocol (Node), for the assistant's
 * tests (vitest's globalSetup; tests in workerd reach it over loopback) and the browser e2e.
 * It answers deterministically and records what it was sent, so tests can read the prompt.
 *
 * POST /v1/chat/completions (or /chat/completions), by `model`:
 * - anything else ("echo"): the reply is "You asked: <the last user message>";
 * - "slow-<ms>": the same, after <ms> before the first byte, then 40 ms between pieces;
 * - "error-<status>": that status with an OpenAI error body;
 * - "error-401-encoded": a 401 whose message echoes the key raw, base64, base64url, URL-encoded and hex;
 * - "hang": never answers (the caller's timeout must end it);
 * - "break": streams two pieces, then drops the connection;
 * - "drip": answers at once, then a delta every 0.9 s forever (under a 1 s gap timeout: only a cap
 *   on the whole answer ends it); whole, a space of JSON every 0.9 s forever;
 * - "flood": 50 MB of deltas (whole: one 50 MB message), as fast as the caller reads.
 * With `stream: true` the reply comes as SSE `chat.completion.chunk`s, one word each, then a usage
 * chunk when `stream_options.include_usage` is set, then `data: [DONE]`.
 * Usage: prompt_tokens = ceil(characters of all messages / 4), completion_tokens = words of the reply.
 *
 * GET /control/requests?key=<bearer key>: the request bodies sent with that key, oldest first.
 */
import { createServer } from "node:http";
import { readBody } from "./read-body.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (b && typeof b.text === "string" ? b.text : "")).join("");
  return "";
}

const FLOOD_BYTES = 50 * 1024 * 1024;

/** "drip" and "flood": answers that never end, or end far too late. */
function hostileAnswer(model, stream, res) {
  res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
  const delta = (text) =>
    `data: ${JSON.stringify({ id: "chatcmpl-hostile", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
  if (model === "drip") {
    res.write(stream ? delta("") : '{"choices":[');
    const timer = setInterval(() => res.write(stream ? delta("drip ") : " "), 900);
    res.on("close", () => clearInterval(timer));
    return;
  }
  const piece = stream ? delta("x".repeat(64 * 1024)) : "x".repeat(64 * 1024);
  let sent = 0;
  if (!stream) res.write('{"choices":[{"message":{"role":"assistant","content":"');
  const pump = () => {
    while (sent < FLOOD_BYTES && !res.destroyed) {
      sent += piece.length;
      if (!res.write(piece)) return void res.once("drain", pump);
    }
    if (!res.destroyed) res.end(stream ? "data: [DONE]\n\n" : '"}}]}');
  };
  pump();
}

/** Starts the server on 127.0.0.1 (port 0: any free port). */
export async function startOpenAiSink(port = 0) {
  const requests = new Map();
  const sockets = new Set();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://sink.invalid");
    const json = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (req.method === "GET" && url.pathname === "/control/requests")
      return json(200, requests.get(url.searchParams.get("key") ?? "none") ?? []);
    if (req.method !== "POST" || !/^(\/v1)?\/chat\/completions$/.test(url.pathname)) return json(404, { error: { message: "not found" } });
    const key = (req.headers.authorization ?? "").replace(/^Bearer /, "") || "none";
    let body;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return json(400, { error: { message: "invalid JSON", type: "invalid_request_error" } });
    }
    const list = requests.get(key) ?? [];
    list.push(body);
    requests.set(key, list);
    const model = String(body.model ?? "echo");
    if (model === "error-401-encoded") {
      const b64 = Buffer.from(key).toString("base64");
      const forms = [
        key,
        b64,
        b64.replace(/=+$/, ""),
        Buffer.from(key).toString("base64url"),
        encodeURIComponent(key),
        Buffer.from(key).toString("hex"),
      ];
      return json(401, { error: { message: `Refused: ${forms.join(" | ")}.`, type: "invalid_request_error", code: null } });
    }
    const failing = model.match(/^error-(\d{3})$/);
    if (failing) {
      // A 401 names the key it refused, as real providers do (partly): the caller must not pass it on.
      const message = failing[1] === "401" ? `Incorrect API key provided: ${key}.` : `The test provider failed with ${failing[1]}.`;
      return json(Number(failing[1]), { error: { message, type: "server_error", code: null } });
    }
    if (model === "hang") return; // the socket stays open until the caller gives up
    if (model === "drip" || model === "flood") return hostileAnswer(model, body.stream === true, res);
    const slow = model.match(/^slow-(\d+)$/);
    if (slow) await sleep(Number(slow[1]));
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const lastUser = [...messages].reverse().find((m) => m.role === "user");
    const reply = `You asked: ${textOf(lastUser?.content)}`;
    const words = reply.split(/(?<= )/);
    const usage = {
      prompt_tokens: Math.ceil(messages.reduce((n, m) => n + textOf(m.content).length, 0) / 4),
      completion_tokens: reply.split(/\s+/).filter(Boolean).length,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const id = `chatcmpl-${Date.now()}`;
    if (!body.stream) {
      return json(200, {
        id,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
        usage,
      });
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const chunk = (delta, finish = null, extra = {}) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    res.write(chunk({ role: "assistant", content: "" }));
    for (const [i, word] of words.entries()) {
      if (model === "break" && i === 2) {
        await sleep(50); // let the pieces so far arrive first
        res.destroy();
        return;
      }
      res.write(chunk({ content: word }));
      if (slow) await sleep(40);
    }
    res.write(chunk({}, "stop"));
    if (body.stream_options?.include_usage)
      res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage })}\n\n`);
    res.end("data: [DONE]\n\n");
  });
  // Why: workerd reuses a kept-alive connection; Node's default 5 s idle close could race a call made
  // after a pause in a test file ("Network connection lost"). stop() destroys the sockets anyway.
  server.keepAliveTimeout = 60_000;
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
