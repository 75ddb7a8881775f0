// A Chrome DevTools Protocol session on one workerd isolate (wrangler dev's or Miniflare's inspector port), and
// the summary of a V8 CPU profile taken through it. Used by test/bench/profile.mjs and test/bench/no-proxy.mjs.
import WebSocket from "ws";

/**
 * Connects to the isolate whose inspector target id is `target` (Miniflare: "core:user:<worker name>"), or the
 * first one listed (wrangler dev lists only the worker's). Resolves with { send(method, params), close() }.
 */
export async function inspector(port, target) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const chosen = target ? targets.find((t) => t.id === target) : targets[0];
  if (!chosen) throw new Error(`no inspector target ${target ?? ""} on port ${port} (${targets.map((t) => t.id).join(", ")})`);
  const ws = new WebSocket(chosen.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let id = 0;
  const pending = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data));
    pending.get(msg.id)?.(msg);
    pending.delete(msg.id);
  });
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

/**
 * Busy time (every sample but "(idle)"; "(program)" and "(garbage collector)" count) and the top self-time functions
 * of a profile, per request. Each sample stands for the time since the previous one, capped at twice the profile's
 * median interval: V8 takes no sample of an isolate while its thread runs another isolate (workerd runs the local D1's
 * Durable Object, KV and every worker of the process on one thread), so without the cap the isolate's next sample
 * (typically the code resuming after a D1 call) would absorb the D1's own time; the same holds while the thread waits
 * for a core. `rawBusyMsPerRequest` is the uncapped sum.
 */
export function summarise(profile, requests, topN = 15) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const sorted = profile.timeDeltas.filter((d) => d > 0).sort((a, b) => a - b);
  const cap = 2 * (sorted[Math.floor(sorted.length / 2)] ?? 0);
  const self = new Map();
  let busy = 0;
  let raw = 0;
  profile.samples.forEach((nodeId, i) => {
    const frame = byId.get(nodeId).callFrame;
    const delta = profile.timeDeltas[i] ?? 0;
    if (frame.functionName === "(idle)") return;
    const ms = Math.min(delta, cap) / 1000;
    raw += delta / 1000;
    busy += ms;
    const where = frame.url ? `${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}` : "";
    const key = `${frame.functionName || "(anonymous)"} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + ms);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, topN);
  return {
    busyMsPerRequest: busy / requests,
    rawBusyMsPerRequest: raw / requests,
    sampleCapUs: cap,
    top: top.map(([name, ms]) => ({ name, usPerRequest: (ms / requests) * 1000 })),
  };
}
