#!/usr/bin/env node
// The Node peer of `npm run bench:peer`: Better Auth with email and password and its `jwt` plugin
// (test/bench/peer/options.mjs, shared with the workerd peer), on Node's http server and
// better-sqlite3, with its defaults except what a local benchmark needs (rate limits and telemetry
// off); its password hash is its own default (scrypt, node:crypto). Creates its schema at start with Better Auth's own migration planner (what
// `npx @better-auth/cli migrate` runs), in the SQLite file PEER_DB, then listens on 127.0.0.1:PEER_PORT
// and prints one JSON line {"ready":…} on stdout. Exits cleanly on SIGTERM/SIGINT, so that a
// `--cpu-prof` profile is written.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { toNodeHandler } from "better-auth/node";
import Database from "better-sqlite3";
import { peerOptions } from "./options.mjs";

const port = Number(process.env.PEER_PORT || 8798);
const file = process.env.PEER_DB;
if (!file) throw new Error("PEER_DB (the SQLite file) is required");
const baseURL = `http://127.0.0.1:${port}`;

const db = new Database(file);
// Better Auth's documented SQLite setup leaves the journal mode to the caller; WAL is what a
// production Node deployment on SQLite would run, and what D1's local SQLite uses too.
db.pragma("journal_mode = WAL");

const auth = betterAuth({
  ...peerOptions({
    baseURL,
    // The bench passes one random secret per run (a restarted peer keeps accepting its cookie);
    // without it, a random one per process. Never a fixed string: nothing signed here outlives the run.
    secret: process.env.PEER_SECRET || randomBytes(32).toString("hex"),
  }),
  database: db,
});

const { runMigrations, toBeCreated } = await getMigrations(auth.options);
await runMigrations();

const handler = toNodeHandler(auth);
const server = createServer((req, res) => {
  handler(req, res).catch((err) => {
    console.error(err);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => {
  const sqlite = db.prepare("select sqlite_version() as v").get().v;
  console.log(JSON.stringify({ ready: baseURL, pid: process.pid, sqlite, tables: toBeCreated.map((t) => t.table) }));
});

function shutdown() {
  server.close();
  server.closeAllConnections();
  db.close();
  // process.exit runs the exit hooks, so `--cpu-prof` writes its file.
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
