#!/usr/bin/env node
// `npm run bench:d1-sessions`: what running each request in a D1 session (D1_READ_REPLICATION=true,
// the Sessions API) costs on local workerd, where D1 has no replicas. Two `wrangler dev` servers, one
// with the var and one without, take the same load in alternating rounds: GET /users/me (a read that
// may go to a replica when deployed) and PATCH /users/me (a write, always the primary), each with the
// bookmark sent back as the SDK does. Reports req/s, p50/p99 and workerd CPU ms per request, and
// writes the "d1-sessions" section of docs/benchmarks.md (BENCH_NO_WRITE=1: print only).
// Never part of `npm test`.
//
// Env: BENCH_DURATION (s per round, default 8), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 32).
import os from "node:os";
import { writeMarkedSection } from "./lib/doc.mjs";
import { clientHeaders, post, startDoorman, stopAllDoormen, versionOf } from "./lib/doorman.mjs";
import { cannon, counts } from "./lib/load.mjs";
import { cpuDelta, processTree } from "./lib/proc.mjs";

const DURATION = Number(process.env.BENCH_DURATION || 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const log = (m) => console.error(`[d1-sessions] ${m}`);

for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    stopAllDoormen();
    process.exit(130);
  });
}

const modes = [
  { name: "off", vars: {} },
  { name: "on", vars: { D1_READ_REPLICATION: "true" } },
];

async function prepare(server) {
  const signUp = await post(server.api, "/auth/password/sign-up", clientHeaders, {
    email: `bench-${Date.now()}@example.com`,
    password: "bench password 1",
  });
  const auth = { ...clientHeaders, "x-stack-access-token": signUp.access_token };
  // The bookmark a client would hold after its sign-up (the SDK sends the newest it has seen).
  const me = await fetch(`${server.api}/users/me`, { headers: auth });
  const bookmark = me.headers.get("x-doorman-d1-bookmark");
  return bookmark ? { ...auth, "x-doorman-d1-bookmark": bookmark } : auth;
}

async function measure(server, headers, { method, body }) {
  const before = processTree(server.pid);
  const result = await cannon({
    url: `${server.api}/users/me`,
    method,
    headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    duration: DURATION,
    connections: CONNECTIONS,
  });
  const cpu = cpuDelta(before, processTree(server.pid));
  const { ok, bad } = counts(result);
  return { rps: ok / DURATION, p50: result.latency.p50, p99: result.latency.p99, workerdMs: (cpu.workerd ?? 0) / Math.max(1, ok), bad };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const servers = [];
try {
  let port = 8900;
  for (const mode of modes) {
    const server = await startDoorman({ port: port++, inspectorPort: port++ + 100, vars: mode.vars, log });
    servers.push({ mode, server, headers: await prepare(server) });
  }
  const ops = [
    { name: "GET /users/me", method: "GET" },
    { name: "PATCH /users/me", method: "PATCH", body: { client_metadata: { bench: true } } },
  ];
  const results = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const op of ops) {
      for (const { mode, server, headers } of round % 2 ? servers : [...servers].reverse()) {
        const r = await measure(server, headers, op);
        log(
          `round ${round} ${op.name} sessions ${mode.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, workerd ${r.workerdMs.toFixed(2)} ms/req, ${r.bad} bad`,
        );
        ((results[op.name] ??= {})[mode.name] ??= []).push(r);
      }
    }
  }
  const rows = [];
  for (const op of ops) {
    for (const mode of modes) {
      const rs = results[op.name][mode.name];
      rows.push(
        `| ${op.name} | ${mode.name} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${median(rs.map((r) => r.p50))} | ${median(rs.map((r) => r.p99))} | ${median(rs.map((r) => r.workerdMs)).toFixed(2)} | ${rs.reduce((n, r) => n + r.bad, 0)} |`,
      );
    }
  }
  const md = `<!-- d1-sessions-bench:start -->
## D1 sessions (read replication) on local workerd

\`npm run bench:d1-sessions\`, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}, wrangler ${versionOf("wrangler")}.
Two \`wrangler dev\` servers, \`D1_READ_REPLICATION\` off and on, in alternating rounds (${ROUNDS} × ${DURATION} s, ${CONNECTIONS} connections; medians of the rounds). The client sends back the bookmark it got, as the SDK does.
Local D1 has no replicas, so this is only the cost of the session itself; the gain (reads served near the user) exists only when deployed with replication on.

| operation | sessions | req/s | p50 ms | p99 ms | workerd CPU ms/req | non-2xx |
|---|---|---|---|---|---|---|
${rows.join("\n")}
<!-- d1-sessions-bench:end -->`;
  console.log(md);
  if (!process.env.BENCH_NO_WRITE) writeMarkedSection("d1-sessions", md);
} finally {
  for (const { server } of servers) await server.stop();
}
