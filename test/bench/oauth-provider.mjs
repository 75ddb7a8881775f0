#!/usr/bin/env node
// `npm run bench:oauth`: the OpenID provider (issue 30) on local workerd, measured the way the other
// benches measure. Starts the API worker alone (`wrangler dev`, loopback, fresh state), creates a
// project with its own keys, one end user and one confidential client (client_secret_basic, through
// the admin API), then, through the API only (no browser):
//   1. whole authorizations one after another: GET {issuer}/oauth/authorize → the consent API's
//      approve (the user's session) → POST {issuer}/oauth/token (code + PKCE verifier);
//   2. refreshes one after another, each with the refresh token the previous answer rotated in;
//   3. GET {issuer}/oauth/userinfo with one access token, under autocannon;
//   4. POST {issuer}/oauth/introspect with the project's secret server key, under autocannon;
//   5. local verification in Node with the SDK's resource-server verifier (JWKS fetched once).
// It also prints the D1 statements each endpoint runs (read from the code: a fact, not a timing).
// Writes the "oauth-provider" section of docs/benchmarks.md between its markers (BENCH_NO_WRITE=1: print only).
// Never part of `npm test` (timing is not a pass/fail criterion).
//
// Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_OAUTH_FLOWS (200),
//      BENCH_OAUTH_REFRESHES (300), BENCH_OAUTH_VERIFY_SECONDS (2), BENCH_PORT (8797),
//      BENCH_INSPECTOR_PORT (9232), BENCH_NO_WRITE=1 (print only).
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { writeMarkedSection } from "./lib/doc.mjs";
import { clientHeaders as internalClient, post, root, startDoorman, stopAllDoormen, versionOf } from "./lib/doorman.mjs";
import { cannon } from "./lib/load.mjs";
import { treeRssMiB } from "./lib/proc.mjs";

const DURATION = Number(process.env.BENCH_DURATION || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const FLOWS = Number(process.env.BENCH_OAUTH_FLOWS || 200);
const REFRESHES = Number(process.env.BENCH_OAUTH_REFRESHES || 300);
const VERIFY_SECONDS = Number(process.env.BENCH_OAUTH_VERIFY_SECONDS || 2);
const PORT = Number(process.env.BENCH_PORT || 8797);
const INSPECTOR_PORT = Number(process.env.BENCH_INSPECTOR_PORT || 9232);
const REDIRECT_URI = "http://127.0.0.1:9/cb";
/** A made-up API the verification tokens are bound to (RFC 8707; http is allowed on a loopback host). */
const RESOURCE = "http://127.0.0.1:9/api";
const RESOURCE_TOKENS = 10;
const SCOPE = "openid profile email offline_access";
// The authorize endpoint's per-address limit (60 per 10 minutes) would refuse the sequential flows,
// which all come from 127.0.0.1. Raised, not turned off: its KV read and D1 upsert stay in the figures.
const AUTHORIZE_LIMIT = "1000000/600";

const log = (msg) => console.error(`[bench:oauth] ${msg}`);
const loadAtStart = os.loadavg();

let server = null;
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    stopAllDoormen();
    process.exit(130);
  });
}

// ── setup: a project with keys, an end user, a confidential client ────────────────────────
/** An owner signs up in the internal project, creates a project and its keys (as test/helpers/api.ts does). */
async function createProject(api) {
  const stamp = `${Date.now()}-${randomBytes(3).toString("hex")}`;
  const owner = await post(api, "/auth/password/sign-up", internalClient, {
    email: `bench-oauth-owner-${stamp}@example.com`,
    password: "bench password 12345",
  });
  const project = await post(
    api,
    "/internal/projects",
    { ...internalClient, "x-stack-access-token": owner.access_token },
    { display_name: "OpenID provider bench" },
  );
  const ownerAdmin = { "x-stack-project-id": project.id, "x-stack-access-type": "admin", "x-stack-admin-access-token": owner.access_token };
  const keys = await post(api, "/internal/api-keys", ownerAdmin, {
    description: "oauth bench",
    expires_at_millis: Date.now() + 24 * 3600_000,
    has_publishable_client_key: true,
    has_secret_server_key: true,
    has_super_secret_admin_key: true,
  });
  const base = { "x-stack-project-id": project.id };
  return {
    projectId: project.id,
    client: { ...base, "x-stack-access-type": "client", "x-stack-publishable-client-key": keys.publishable_client_key },
    server: { ...base, "x-stack-access-type": "server", "x-stack-secret-server-key": keys.secret_server_key },
    admin: { ...base, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": keys.super_secret_admin_key },
  };
}

// ── the flow, through the API only ────────────────────────────────────────────────────────
function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

const ms = (start) => performance.now() - start;

/** One request, timed from the call to the whole body read; throws on an unexpected status. */
async function timed(url, init, expected) {
  const start = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  const took = ms(start);
  if (res.status !== expected)
    throw new Error(`${init?.method ?? "GET"} ${url} → ${res.status} (expected ${expected}): ${text.slice(0, 400)}`);
  return { res, text, took };
}

const form = (fields) => new URLSearchParams(fields).toString();

/** authorize → approve → code for tokens; answers the tokens and each step's time (ms). */
async function authorization(ctx, { resource } = {}) {
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString("hex");
  const query = new URLSearchParams({
    client_id: ctx.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: SCOPE,
    state,
    nonce: randomBytes(8).toString("hex"),
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...(resource ? { resource } : {}),
  });
  const authorize = await timed(`${ctx.meta.authorization_endpoint}?${query}`, { redirect: "manual" }, 302);
  const requestId = new URL(authorize.res.headers.get("location") ?? "").searchParams.get("request_id");
  if (!requestId) throw new Error(`authorize did not go to the consent page: ${authorize.res.headers.get("location")}`);

  const approve = await timed(
    `${ctx.api}/oauth-provider/authorization-requests/${encodeURIComponent(requestId)}/approve`,
    { method: "POST", headers: { ...ctx.userHeaders, "content-type": "application/json" }, body: "{}" },
    200,
  );
  const back = new URL(JSON.parse(approve.text).redirect_url);
  const code = back.searchParams.get("code");
  if (!code || back.searchParams.get("state") !== state || back.searchParams.get("iss") !== ctx.meta.issuer)
    throw new Error(`approve answered ${back}`);

  const token = await timed(
    ctx.meta.token_endpoint,
    {
      method: "POST",
      headers: { authorization: ctx.basic, "content-type": "application/x-www-form-urlencoded" },
      body: form({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
    },
    200,
  );
  const tokens = JSON.parse(token.text);
  for (const key of ["access_token", "id_token", "refresh_token"])
    if (typeof tokens[key] !== "string") throw new Error(`token answer lacks ${key}: ${token.text.slice(0, 400)}`);
  return { tokens, times: { authorize: authorize.took, approve: approve.took, token: token.took } };
}

async function refresh(ctx, refreshToken) {
  const { text, took } = await timed(
    ctx.meta.token_endpoint,
    {
      method: "POST",
      headers: { authorization: ctx.basic, "content-type": "application/x-www-form-urlencoded" },
      body: form({ grant_type: "refresh_token", refresh_token: refreshToken }),
    },
    200,
  );
  const tokens = JSON.parse(text);
  if (typeof tokens.refresh_token !== "string" || tokens.refresh_token === refreshToken || typeof tokens.access_token !== "string")
    throw new Error(`refresh did not rotate: ${text.slice(0, 400)}`);
  return { tokens, took };
}

// ── statistics ──────────────────────────────────────────────────────────────────────────────
/** Median, p95, p99, max and mean of samples (nearest-rank percentiles, as run.mjs's hash reference). */
function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const n = s.length;
  const pick = (q) => s[Math.min(n - 1, Math.ceil(q * n) - 1)];
  const mean = s.reduce((a, b) => a + b, 0) / n;
  return { n, median: (s[(n - 1) >> 1] + s[n >> 1]) / 2, p95: pick(0.95), p99: pick(0.99), max: s[n - 1], mean };
}

async function underLoad(name, opts) {
  log(`${name}: ${DURATION} s, ${CONNECTIONS} connections`);
  let peakRss = treeRssMiB(server.pid, "workerd");
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, treeRssMiB(server.pid, "workerd"));
  }, 500);
  const r = await cannon({ duration: DURATION, connections: CONNECTIONS, ...opts });
  clearInterval(sampler);
  // expectBody: an answer that is a 200 but not the expected body (say {"active":false}) is counted as bad.
  const bad = r.non2xx + r.errors + r.timeouts + r.mismatches;
  return { name, reqPerSec: r.requests.average, lat: r.latency, total: r["2xx"] + r.non2xx + r.errors + r.timeouts, bad, peakRss };
}

// ── 5. the SDK's resource-server verifier, in Node ─────────────────────────────────────────
/**
 * Bundles sdk/src/resource-server (with jose, as an app's bundler would; as verify.mjs does), warms the
 * verifier up (its one JWKS fetch), calls `beforeMeasuring` (the bench stops the worker there, so its
 * process cannot share the CPU and no request could reach it), then verifies for ~VERIFY_SECONDS.
 */
async function verifyLocally(meta, tokens, beforeMeasuring) {
  const tmp = mkdtempSync(join(os.tmpdir(), "doorman-oauth-verify-"));
  try {
    const outfile = join(tmp, "resource-server.mjs");
    await build({
      entryPoints: [join(root, "sdk/src/resource-server/index.ts")],
      bundle: true,
      format: "esm",
      platform: "node",
      outfile,
      logLevel: "error",
      absWorkingDir: root,
    });
    const { createResourceServerVerifier } = await import(pathToFileURL(outfile).href);
    let fetches = 0;
    const verify = createResourceServerVerifier({
      issuer: meta.issuer,
      audience: RESOURCE,
      requiredScopes: ["openid"],
      fetch: (url, init) => {
        fetches += 1;
        return fetch(url, init);
      },
    });
    const once = async (i) => {
      const result = await verify(tokens[i % tokens.length]);
      if (result.status !== "ok") throw new Error(`token ${i % tokens.length} refused: ${JSON.stringify(result.error)}`);
    };
    for (let i = 0; i < 500; i++) await once(i); // warm-up: the one JWKS fetch, key import, JIT
    await beforeMeasuring();
    const samples = [];
    const start = performance.now();
    const until = start + VERIFY_SECONDS * 1000;
    let i = 0;
    while (performance.now() < until) {
      const t = performance.now();
      await once(i++);
      samples.push((performance.now() - t) * 1000); // µs
    }
    const seconds = ms(start) / 1000;
    if (fetches !== 1) throw new Error(`expected exactly 1 JWKS fetch, saw ${fetches}`);
    return { ...summary(samples), seconds, perSecond: samples.length / seconds, fetches, tokens: tokens.length };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ── 6. D1 statements per request, read from the code ───────────────────────────────────────
// worker/routes/oauth-provider/*.ts, worker/services/oauth-provider/*.ts, worker/db/queries/oauth-*.ts,
// and the pipeline every /api request goes through (middleware/auth.ts → services/request-auth.ts →
// db/queries/auth-lookup.ts, http/limit.ts → services/rate-limit.ts). A "round trip" is one awaited D1
// call (a batch is one); the provider's public endpoints send no x-stack-* headers, so the
// authentication lookup runs only for the consent API and the server-key introspection.
const D1_STATEMENTS = [
  "| request | D1 round trips | statements | what |",
  "|---|---:|---:|---|",
  "| `GET /oauth/authorize` | 4 | 4 | rate limit `OAUTH_PROVIDER_AUTHORIZE_PER_IP`: KV read of the block cache, then `INSERT … ON CONFLICT DO UPDATE … RETURNING` on `rate_limit_counters` (plus a prune `DELETE` when a window opens); the project row from the isolate's 5 s cache (`loadProjectCached`; on a miss `SELECT projects` first); `SELECT oauth_clients` (`resolveClient`); `INSERT oauth_authorization_requests`; `SELECT project_custom_domains` (where the consent page is) |",
  "| `POST /oauth-provider/authorization-requests/{id}/approve` | 6 (5 waits) | 12 | authentication batch: live session + the user record's 4 selects (+ project and publishable key when the isolate's 5 s cache misses: 7); `SELECT oauth_authorization_requests` (pending); `SELECT oauth_clients`; `SELECT oauth_consents` ∥ `SELECT sessions` (in parallel); one batch: approve `UPDATE … RETURNING` (compare-and-set), `INSERT events` (`oauth_app.authorized`, if changed), consent upsert `… RETURNING`. Deferred after the answer, at most once a minute per user: `UPDATE users SET last_active_at` |",
  "| `POST /oauth/token` (`authorization_code`) | 4 | 10 | the project row from the 5 s cache (on a miss `SELECT projects` first); `SELECT oauth_clients` (then the secret's SHA-256, in memory); `SELECT oauth_authorization_requests` by code hash; the user record's 4 selects (one batch); one batch: redeem `UPDATE … RETURNING` (compare-and-set), `INSERT oauth_grants … SELECT … WHERE EXISTS`, `INSERT events` (`oauth_token.issued`), `INSERT oauth_refresh_tokens` (with `offline_access`). Then two ES256 signatures (access and ID token), no D1 |",
  "| `POST /oauth/token` (`refresh_token`) | 5 | 11 | the project row from the 5 s cache (on a miss `SELECT projects` first); `SELECT oauth_clients`; `SELECT oauth_refresh_tokens` by hash; `SELECT oauth_grants`; the user record's 4 selects (one batch); (`isTeamMember` only for a team-bound grant); one batch: spend `UPDATE … RETURNING` (compare-and-set on `used_at`), `INSERT oauth_refresh_tokens` (if changed), `INSERT events` (`oauth_token.issued`), `UPDATE oauth_grants SET last_used_at`. Then two ES256 signatures |",
  "| `GET /oauth/userinfo` | 2 | 5 | ES256 verification of the token (no D1); the project row from the 5 s cache (on a miss `SELECT projects` first); `SELECT oauth_grants` (live, same user); the user record's 4 selects (one batch) |",
  "| `POST /oauth/introspect` (server key, an access token) | 1 | 1 | authentication: project row and key from the isolate's 5 s cache (on a miss, one batch of 2 first); the provider's own project read hits the same cache; ES256 verification; `SELECT oauth_grants`. A refresh token instead: `SELECT oauth_refresh_tokens`, then `SELECT oauth_grants` |",
  "| resource server (`createResourceServerVerifier`) | 0 | 0 | local ES256 verification against the cached JWKS; it cannot see a revocation before `exp` (introspect where that matters) |",
];

// ── report ─────────────────────────────────────────────────────────────────────────────────
function codeVersion() {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "worker", "sdk/src"], { cwd: root, encoding: "utf8" }).trim();
    return dirty ? `${head} with uncommitted changes in worker/ or sdk/src/` : head;
  } catch {
    return "unknown";
  }
}

function report({ readySecs, flows, flowWallSecs, refreshes, refreshWallSecs, loads, verified }) {
  const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : "–");
  const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–");
  const cpu = os.cpus()[0]?.model?.trim() ?? "unknown CPU";
  const seqRow = (name, s, perSecond) =>
    `| ${name} | ${s.n} | ${f1(s.median)} | ${f1(s.p95)} | ${f1(s.p99)} | ${f1(s.max)} | ${f1(s.mean)} | ${f1(perSecond)} |`;
  const step = (name) => summary(flows.map((t) => t[name]));
  const [authorizeStats, approveStats, tokenStats] = [step("authorize"), step("approve"), step("token")];
  const whole = summary(flows.map((t) => t.authorize + t.approve + t.token));
  const refreshStats = summary(refreshes);
  return [
    "## The OpenID provider (issue 30)",
    "",
    "Generated by `npm run bench:oauth` (test/bench/oauth-provider.mjs). Local workerd figures, as at the top of this",
    "file: the API worker alone under `wrangler dev` on loopback, driven from the same machine (client and server",
    "share the CPU). A fresh project with its own keys, one end user signed up with a password, and one confidential",
    "client (`client_secret_basic`) registered with `POST /internal/oauth-clients`; the provider's settings are the",
    `defaults. Every flow goes through the API only: no browser. Scope \`${SCOPE}\`.`,
    "",
    `- Date: ${new Date().toISOString()}; code: ${codeVersion()}`,
    `- Machine: ${os.availableParallelism()} CPUs (\`nproc\`), ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}`,
    `- Node ${process.version}, wrangler ${versionOf("wrangler")}, workerd ${versionOf("workerd")}, autocannon ${versionOf("autocannon")}, jose ${versionOf("jose")}`,
    `- Load average when the bench started: ${loadAtStart.map((n) => n.toFixed(2)).join(" / ")} (1 / 5 / 15 min; other work on the machine skews the figures)`,
    `- Worker ready in ${readySecs.toFixed(1)} s. One var set: \`RATE_LIMIT_OAUTH_PROVIDER_AUTHORIZE_PER_IP=${AUTHORIZE_LIMIT}\`, since`,
    "  every request comes from 127.0.0.1 and the default (60 per 10 minutes) would refuse the sequential flows; the",
    "  limiter still runs (its KV read and D1 upsert are in the authorize figures).",
    "",
    "### A whole authorization, one after another",
    "",
    "Each flow: `GET {issuer}/oauth/authorize` (PKCE S256; answered with a 302 to the consent page), the consent API's",
    "`POST /api/v1/oauth-provider/authorization-requests/{id}/approve` (the user's client key and access token; it answers",
    "the redirect URI with the code), then `POST {issuer}/oauth/token` (`authorization_code`, the verifier, Basic client",
    "authentication; answers access, ID and refresh tokens). One request at a time, timed from the call to the whole body;",
    "\"per s\" is 1000 / mean (one client's rate, not the server's capacity).",
    "",
    "| step | N | median ms | p95 ms | p99 ms | max ms | mean ms | per s |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    seqRow("`GET /oauth/authorize`", authorizeStats, 1000 / authorizeStats.mean),
    seqRow("`POST …/approve` (consent API)", approveStats, 1000 / approveStats.mean),
    seqRow("`POST /oauth/token` (code + verifier)", tokenStats, 1000 / tokenStats.mean),
    seqRow("**whole authorization** (the three)", whole, flows.length / flowWallSecs),
    "",
    `The whole row's "per s" is authorizations per second of wall time (${f1(flowWallSecs)} s for ${flows.length}).`,
    "",
    "### Refresh with rotation, one after another",
    "",
    "`POST {issuer}/oauth/token` with `grant_type=refresh_token`, each with the refresh token the previous answer rotated in",
    "(each spends its token and answers a new one, a new access token and a new ID token).",
    "",
    "| request | N | median ms | p95 ms | p99 ms | max ms | mean ms | per s |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    seqRow("`POST /oauth/token` (`refresh_token`)", refreshStats, refreshes.length / refreshWallSecs),
    "",
    "### Under load",
    "",
    `autocannon, ${DURATION} s per scenario, ${CONNECTIONS} concurrent connections, no pipelining. The same access token`,
    "(audience: the issuer) each time; an answer counts as bad if it is not a 2xx or its body differs from the one read",
    'before the load (for introspection, `{"active":false}` would). autocannon has no p95: p90 and p97.5 are shown.',
    "",
    "| scenario | req/s | p50 ms | p90 ms | p97.5 ms | p99 ms | max ms | requests | bad | workerd peak RSS MiB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...loads.map(
      (r) =>
        `| ${r.name} | ${f1(r.reqPerSec)} | ${f1(r.lat.p50)} | ${f1(r.lat.p90)} | ${f1(r.lat.p97_5)} | ${f1(r.lat.p99)} | ${f1(r.lat.max)} | ${f0(r.total)} | ${f0(r.bad)} | ${f0(r.peakRss)} |`,
    ),
    "",
    "### Verification in the resource server (Node, no request to Doorman)",
    "",
    "`createResourceServerVerifier` (sdk/src/resource-server/verify.ts, bundled with jose by esbuild as an app's bundler",
    `would) in Node ${process.version}, \`audience\` = a resource server's URL and \`requiredScopes: ["openid"]\`, over`,
    `${verified.tokens} access tokens Doorman issued for that resource (\`resource=${RESOURCE}\` in their authorizations), cycled.`,
    `The verifier fetched the JWKS from the worker once, during a 500-verification warm-up (fetches counted: ${verified.fetches});`,
    `the worker was then stopped, and the verifier verified one token after another for ${f1(verified.seconds)} s.`,
    "",
    "| verifications | per second | median µs | p95 µs | p99 µs | max µs | JWKS fetches |",
    "|---:|---:|---:|---:|---:|---:|---:|",
    `| ${f0(verified.n)} | ${f0(verified.perSecond)} | ${f1(verified.median)} | ${f1(verified.p95)} | ${f1(verified.p99)} | ${f1(verified.max)} | ${verified.fetches} |`,
    "",
    "### D1 statements per request (read from the code, not measured)",
    "",
    "The steady state of each request above: project, consent and grant already there, the isolate's caches warm.",
    "",
    ...D1_STATEMENTS,
    "",
  ].join("\n");
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────
try {
  server = await startDoorman({
    port: PORT,
    inspectorPort: INSPECTOR_PORT,
    vars: { RATE_LIMIT_OAUTH_PROVIDER_AUTHORIZE_PER_IP: AUTHORIZE_LIMIT },
    log,
  });
  const api = server.api;

  const project = await createProject(api);
  const user = await post(api, "/auth/password/sign-up", project.client, {
    email: `bench-oauth-user-${Date.now()}@example.com`,
    password: "bench password 12345",
  });
  const registered = await post(api, "/internal/oauth-clients", project.admin, {
    name: "Bench app",
    client_type: "confidential",
    token_endpoint_auth_method: "client_secret_basic",
    redirect_uris: [REDIRECT_URI],
  });
  if (typeof registered.client_secret !== "string") throw new Error(`no client secret: ${JSON.stringify(registered)}`);
  const meta = await (await fetch(`${api}/projects/${project.projectId}/.well-known/openid-configuration`)).json();
  log(`project ${project.projectId}, user ${user.user_id}, client ${registered.client_id}; issuer ${meta.issuer}`);
  const ctx = {
    api,
    meta,
    clientId: registered.client_id,
    basic: `Basic ${Buffer.from(`${encodeURIComponent(registered.client_id)}:${encodeURIComponent(registered.client_secret)}`).toString("base64")}`,
    userHeaders: { ...project.client, "x-stack-access-token": user.access_token },
  };

  // 1. whole authorizations, one after another (one unmeasured first: the isolate's JIT and the first consent row)
  await authorization(ctx);
  log(`${FLOWS} authorizations, one after another`);
  const flows = [];
  let last = null;
  const flowStart = performance.now();
  for (let i = 0; i < FLOWS; i++) {
    last = await authorization(ctx);
    flows.push(last.times);
  }
  const flowWallSecs = ms(flowStart) / 1000;

  // 2. refresh with rotation, each with the previous answer's refresh token
  log(`${REFRESHES} refreshes, one after another`);
  const refreshes = [];
  let refreshToken = last.tokens.refresh_token;
  const refreshStart = performance.now();
  for (let i = 0; i < REFRESHES; i++) {
    const r = await refresh(ctx, refreshToken);
    refreshes.push(r.took);
    refreshToken = r.tokens.refresh_token;
  }
  const refreshWallSecs = ms(refreshStart) / 1000;

  // 3. and 4. under load, with one access token (audience: the issuer)
  const accessToken = last.tokens.access_token;
  const userinfoUrl = meta.userinfo_endpoint;
  const expectedUserinfo = (await timed(userinfoUrl, { headers: { authorization: `Bearer ${accessToken}` } }, 200)).text;
  const introspectHeaders = { ...project.server, "content-type": "application/x-www-form-urlencoded" };
  const introspectBody = form({ token: accessToken });
  const expectedIntrospection = (
    await timed(meta.introspection_endpoint, { method: "POST", headers: introspectHeaders, body: introspectBody }, 200)
  ).text;
  if (JSON.parse(expectedIntrospection).active !== true) throw new Error(`introspection: ${expectedIntrospection}`);
  const loads = [];
  loads.push(
    await underLoad("`GET /oauth/userinfo` (Bearer)", {
      url: userinfoUrl,
      method: "GET",
      headers: { authorization: `Bearer ${accessToken}` },
      expectBody: expectedUserinfo,
    }),
  );
  loads.push(
    await underLoad("`POST /oauth/introspect` (server key)", {
      url: meta.introspection_endpoint,
      method: "POST",
      headers: introspectHeaders,
      body: introspectBody,
      expectBody: expectedIntrospection,
    }),
  );

  // 5. local verification: tokens bound to a resource server's URL
  log(`${RESOURCE_TOKENS} authorizations for ${RESOURCE}, then ${VERIFY_SECONDS} s of local verification`);
  const resourceTokens = [];
  for (let i = 0; i < RESOURCE_TOKENS; i++) resourceTokens.push((await authorization(ctx, { resource: RESOURCE })).tokens.access_token);
  const readySecs = server.readySecs;
  const verified = await verifyLocally(meta, resourceTokens, async () => {
    await server.stop();
    server = null;
  });

  const md = report({ readySecs, flows, flowWallSecs, refreshes, refreshWallSecs, loads, verified });
  console.log(md);
  if (!process.env.BENCH_NO_WRITE) {
    writeMarkedSection("oauth-provider", `<!-- oauth-provider-bench:start -->\n${md.trimEnd()}\n<!-- oauth-provider-bench:end -->`);
    log("wrote docs/benchmarks.md");
  }
  const broken = loads.filter((r) => r.bad > 0);
  if (broken.length) log(`bad answers under load in: ${broken.map((r) => `${r.name} (${r.bad})`).join(", ")}`);
} catch (err) {
  console.error(`[bench:oauth] ${err.stack ?? err}`);
  process.exitCode = 1;
} finally {
  await server?.stop();
  stopAllDoormen();
}
