/**
 * A local Pwned Passwords range API (Node http) for the breached-password tests (issue 29): it answers
 * GET /range/{5 hex} as the real API does (https://haveibeenpwned.com/API/v3#SearchingPwnedPasswordsByRange):
 * text/plain `SUFFIX:COUNT` lines (35 upper-case hex characters, CRLF), and with `Add-Padding: true`
 * padded to 800-1,000 lines with count-0 entries. vitest's globalSetup (test/global-setup.ts) and the
 * browser harness (test/e2e/stack.mjs) start it; the worker reaches it as PWNED_PASSWORDS_URL.
 *
 * Every range is "not found" for every password except the fixture passwords below, which no other test
 * uses. What a range does is keyed by the prefix of a fixture password, so tests running in parallel
 * never change one another's answers:
 * - BREACHED: listed with a count above 0 (found);
 * - PADDING_ONLY: its suffix is listed only as a padding line, count 0 (must not match);
 * - DOWN: its range answers 503; HANG: its range never answers; GARBAGE: its range answers 200 with HTML.
 *
 * GET /control/seen: the requests seen so far, `[{ path, padding }]` (`padding`: the Add-Padding header).
 * Run alone: `node test/pwned-range-fixture.mjs [port]` (then PWNED_PASSWORDS_URL=http://127.0.0.1:<port>/range/).
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";

/** The fixture passwords, by what their range does (uncommon, free of "doorman"/"stack" and of any test's words). */
export const PWNED_FIXTURE = {
  BREACHED: ["Quokka-breached-fixture-1", "Quokka-breached-fixture-2", "Quokka-breached-fixture-3"],
  PADDING_ONLY: "Quokka-padding-only-fixture",
  DOWN: "Quokka-range-down-fixture",
  HANG: "Quokka-range-hang-fixture",
  GARBAGE: "Quokka-range-garbage-fixture",
};

/** SHA-1 of the NFKC password, upper-case hex, as the worker computes it. */
export function sha1Hex(password) {
  return createHash("sha1").update(password.normalize("NFKC"), "utf8").digest("hex").toUpperCase();
}

/** `count` deterministic SHA-1-shaped suffixes for a prefix (stand-ins for the real corpus's entries). */
function fillerSuffixes(prefix, salt, count) {
  const out = [];
  for (let i = 0; out.length < count; i += 1) out.push(sha1Hex(`${salt}:${prefix}:${i}`).slice(5));
  return out;
}

/** A range answer: `listed` (suffix → count) among real-looking entries, padded with count-0 lines when asked. */
function rangeBody(prefix, listed, padding) {
  const lines = fillerSuffixes(prefix, "entry", 480).map((suffix, i) => `${suffix}:${(i % 97) + 1}`);
  for (const [suffix, count] of listed) lines.push(`${suffix}:${count}`);
  if (padding) {
    // As the real API: random padding to 800-1,000 lines, each with count 0.
    const target = 800 + (Number.parseInt(prefix, 16) % 201);
    for (const suffix of fillerSuffixes(prefix, "pad", Math.max(0, target - lines.length))) lines.push(`${suffix}:0`);
  }
  return lines.sort().join("\r\n");
}

/** Starts the fixture on 127.0.0.1 (port 0: any free port). */
export async function startPwnedRangeFixture(port = 0) {
  const special = new Map();
  const add = (password, mode, extra = {}) => {
    const hash = sha1Hex(password);
    const entry = special.get(hash.slice(0, 5)) ?? { mode: "answer", listed: new Map() };
    if (mode !== "answer") entry.mode = mode;
    if (extra.count !== undefined) entry.listed.set(hash.slice(5), extra.count);
    special.set(hash.slice(0, 5), entry);
  };
  for (const [i, password] of PWNED_FIXTURE.BREACHED.entries()) add(password, "answer", { count: 3 + i * 1000 });
  add(PWNED_FIXTURE.PADDING_ONLY, "answer", { count: 0 });
  add(PWNED_FIXTURE.DOWN, "down");
  add(PWNED_FIXTURE.HANG, "hang");
  add(PWNED_FIXTURE.GARBAGE, "garbage");

  const seen = [];
  const sockets = new Set();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fixture.invalid");
    if (url.pathname === "/control/seen") {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify(seen));
    }
    seen.push({ path: url.pathname, padding: req.headers["add-padding"] ?? null });
    const match = /^\/range\/([0-9A-Fa-f]{5})$/.exec(url.pathname);
    if (req.method !== "GET" || !match) {
      // The real API's answer to a prefix that is not 5 hex characters.
      res.writeHead(400, { "content-type": "text/plain" });
      return void res.end("The hash prefix was not in a valid format");
    }
    const prefix = match[1].toUpperCase();
    const entry = special.get(prefix) ?? { mode: "answer", listed: new Map() };
    if (entry.mode === "hang") return; // the socket stays open until the caller gives up
    if (entry.mode === "down") {
      res.writeHead(503, { "content-type": "text/plain" });
      return void res.end("Service Unavailable");
    }
    if (entry.mode === "garbage") {
      res.writeHead(200, { "content-type": "text/html" });
      return void res.end("<!doctype html><title>Just a moment...</title>");
    }
    res.writeHead(200, { "content-type": "text/plain", "cache-control": "public, max-age=2678400" });
    res.end(rangeBody(prefix, entry.listed, req.headers["add-padding"] === "true"));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address();
  return {
    port: address.port,
    url: `http://127.0.0.1:${address.port}/range/`,
    seen: () => [...seen],
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fixture = await startPwnedRangeFixture(Number(process.argv[2] ?? 0));
  console.log(`Pwned Passwords range fixture: PWNED_PASSWORDS_URL=${fixture.url}`);
}
