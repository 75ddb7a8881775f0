#!/usr/bin/env node
// `npm run bench:profile`: CPU profiles of the worker isolate under load, through wrangler dev's
// inspector (the V8 Profiler domain), for GET /users/me, the refresh, a password sign-in and a sign-up.
// Writes docs/perf/doorman-<scenario>.cpuprofile (open in Chrome DevTools or VS Code) and prints
// the isolate's busy time per request and the functions with the most self time.
// Never part of `npm test`. Env: PROFILE_SECONDS (6), PROFILE_CONNECTIONS (10), PROFILE_PORT (8812),
// PROFILE_INSPECTOR_PORT (9242), PROFILE_ONLY (comma list of scenarios).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { allRateLimitsOff, clientHeaders, post, readAndRefreshRequests, root, startDoorman } from "./lib/doorman.mjs";
import { inspector, summarise } from "./lib/inspector.mjs";
import { cannon } from "./lib/load.mjs";

const SECONDS = Number(process.env.PROFILE_SECONDS || 6);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS || 10);
const PORT = Number(process.env.PROFILE_PORT || 8812);
const INSPECTOR_PORT = Number(process.env.PROFILE_INSPECTOR_PORT || 9242);
const ONLY = process.env.PROFILE_ONLY?.split(",");
const log = (msg) => console.error(`[profile] ${msg}`);

const server = await startDoorman({ port: PORT, inspectorPort: INSPECTOR_PORT, vars: allRateLimitsOff(), log });
try {
  const email = `profile-${Date.now()}@example.com`;
  const password = "correct horse battery";
  let signUps = 0;
  const user = await post(server.api, "/auth/password/sign-up", clientHeaders, { email, password });
  const scenarios = {
    ...readAndRefreshRequests(server.api, user),
    "sign-in": {
      url: `${server.api}/auth/password/sign-in`,
      method: "POST",
      headers: { ...clientHeaders, "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
      connections: 4,
    },
    // A new email per request; each sign-up also queues its verification email, so the profile
    // holds the queue consumer's work (render and dev-outbox send) beside the request's own.
    "sign-up": {
      url: `${server.api}/auth/password/sign-up`,
      method: "POST",
      headers: { ...clientHeaders, "content-type": "application/json" },
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              email: `profile-su-${Date.now().toString(36)}-${++signUps}@example.com`,
              password,
              verification_callback_url: "http://localhost:3000/handler/email-verification",
            }),
          }),
        },
      ],
      connections: 4,
    },
  };
  const cdp = await inspector(INSPECTOR_PORT);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  for (const [name, { connections = CONNECTIONS, ...request }] of Object.entries(scenarios)) {
    if (ONLY && !ONLY.includes(name)) continue;
    await cannon({ ...request, duration: 2, connections }); // warm-up: JIT and isolate caches
    await cdp.send("Profiler.start");
    const result = await cannon({ ...request, duration: SECONDS, connections });
    const { result: stopped } = await cdp.send("Profiler.stop");
    const file = join(root, "docs", "perf", `doorman-${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(stopped.profile));
    const { busyMsPerRequest, top } = summarise(stopped.profile, result.requests.total);
    console.log(`\n${name}: ${result.requests.total} requests, ${result.requests.average} req/s, ${result.non2xx} non-2xx`);
    console.log(`  isolate busy ${busyMsPerRequest.toFixed(2)} ms per request (wall time on the isolate thread; other load inflates it)`);
    for (const t of top) console.log(`  ${t.usPerRequest.toFixed(0).padStart(6)} µs  ${t.name}`);
    console.log(`  profile: ${file}`);
  }
  cdp.close();
} finally {
  await server.stop();
}
