/**
 * Fuzz: malformed requests over every route of the OpenAPI document (drawn from the route
 * declarations, so a new route is fuzzed too). Bad JSON, wrong types derived from the request
 * schemas, huge values, deep nesting, odd unicode, missing or garbage credentials, wrong content
 * types and oversized bodies. No answer may be a 5xx or carry a stack trace.
 *
 * The seed is fixed (reproducible in `npm test`); VITE_DOORMAN_FUZZ_COUNT and VITE_DOORMAN_FUZZ_SEED
 * (environment of the vitest process; Vite passes only VITE_-prefixed variables into workerd)
 * run a bigger or another run:
 *   VITE_DOORMAN_FUZZ_COUNT=100000 npx vitest run test/worker/fuzz.test.ts
 * Valid credentials go with a share of the requests so the handlers are reached, not only the guard.
 * No cf-connecting-ip header is sent, so per-address rate limits do not turn the run into 429s.
 */

import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { beforeAll, describe, expect, it } from "vitest";
import { createProjectWithKeys, type SignedUp, signUp } from "../helpers/api";
import {
  chance,
  documentedOperations,
  encodeWtf8,
  fillPath,
  fuzzBody,
  garbageValue,
  mulberry32,
  type Operation,
  oddString,
  pick,
  type Rng,
  validValue,
  wrongValue,
} from "../helpers/route-doc";
import { workerFetch } from "../helpers/worker-fetch";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const env = ((import.meta as { env?: Record<string, string | undefined> }).env ?? {}) as Record<string, string | undefined>;
// Vite hands only VITE_-prefixed variables of the vitest process to the tests inside workerd.
const COUNT = Math.max(1, Number(env.VITE_DOORMAN_FUZZ_COUNT ?? env.DOORMAN_FUZZ_COUNT ?? 10_000) || 10_000);
const SEED = Number(env.VITE_DOORMAN_FUZZ_SEED ?? env.DOORMAN_FUZZ_SEED ?? 0x5eed) || 0x5eed;
const BATCH = 50;

/** Routes whose success would end the run's own credentials: fuzzed without valid ones. */
const DESTRUCTIVE = new Set(["DELETE /users/me", "DELETE /internal/projects/current"]);
/** Routes that would delete the run's own user or team if handed their ids: given other ids. */
const SPARE_OWN_IDS = /^DELETE \/(users|teams|team-memberships)\//;

let p: Project;
let other: Project;
let user: SignedUp;
let ids: { userId: string; teamId: string; otherUserId: string };

beforeAll(async () => {
  p = await createProjectWithKeys({ client_team_creation_enabled: true, allow_user_api_keys: true, allow_team_api_keys: true });
  other = await createProjectWithKeys();
  user = await signUp(p.client);
  const team = await workerFetch("http://localhost/api/v1/teams", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-stack-project-id": p.projectId,
      "x-stack-access-type": "server",
      "x-stack-secret-server-key": p.server.secretServerKey,
    },
    body: JSON.stringify({ display_name: "Fuzz team", creator_user_id: user.userId }),
  });
  const teamBody = (await team.json()) as { id: string };
  const otherUser = await signUp(other.client);
  ids = { userId: user.userId, teamId: teamBody.id, otherUserId: otherUser.userId };
}, 60_000);

/** A path value: a real id, or an odd one. */
function pathValue(rng: Rng, name: string, spareOwn: boolean): string {
  const r = rng();
  if (r < 0.2 && /user/i.test(name)) return spareOwn ? ids.otherUserId : pick(rng, [ids.userId, ids.otherUserId, "me"]);
  if (r < 0.3 && /team/i.test(name)) return spareOwn ? crypto.randomUUID() : ids.teamId;
  if (r < 0.4) return crypto.randomUUID();
  if (r < 0.5 && name === "provider") return pick(rng, ["github", "google", "spotify", "nope"]);
  return oddString(rng).slice(0, pick(rng, [8, 64, 300, 5000]));
}

function queryString(rng: Rng, op: Operation): string {
  const parts: string[] = [];
  for (const q of op.queryParams) {
    if (!chance(rng, 0.5)) continue;
    const r = rng();
    let v: unknown;
    if (r < 0.3) v = validValue(q.schema, { user_id: pick(rng, [ids.userId, "me", ids.otherUserId]), team_id: ids.teamId }, q.name);
    else if (r < 0.7) v = wrongValue(q.schema, rng);
    else v = oddString(rng);
    const text = typeof v === "string" ? v : JSON.stringify(v);
    parts.push(`${encodeURIComponent(q.name)}=${encodeWtf8((text ?? "").slice(0, 4000))}`);
    if (chance(rng, 0.05)) parts.push(`${encodeURIComponent(q.name)}=${encodeURIComponent("dup")}`);
  }
  if (chance(rng, 0.1)) parts.push(`${encodeWtf8(oddString(rng).slice(0, 20))}=${encodeWtf8(oddString(rng).slice(0, 20))}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

/** Credentials: none, garbage, another project's, or the project's own (the handler is reached). */
function authHeaders(rng: Rng, op: Operation): { headers: Record<string, string>; mode: string } {
  const h: Record<string, string> = {};
  const pre = chance(rng, 0.1) ? "x-hexclave" : "x-stack";
  const destructive = DESTRUCTIVE.has(`${op.method} ${op.path}`);
  const r = rng();
  if (r < 0.1) return { headers: h, mode: "none" };
  if (r < 0.25 || (destructive && r < 0.55)) {
    const names = [
      "project-id",
      "access-type",
      "publishable-client-key",
      "secret-server-key",
      "super-secret-admin-key",
      "admin-access-token",
      "access-token",
      "refresh-token",
      "allow-anonymous-user",
      "branch-id",
    ];
    for (const name of names)
      if (chance(rng, 0.5))
        h[`${pre}-${name}`] = headerSafe(pick(rng, [oddString(rng), p.projectId, "client", "server", "admin", "internal", "true"]));
    return { headers: h, mode: "garbage" };
  }
  if (r < 0.35) {
    const level = pick(rng, ["client", "server", "admin"] as const);
    h[`${pre}-project-id`] = p.projectId;
    h[`${pre}-access-type`] = level;
    if (level === "client") h[`${pre}-publishable-client-key`] = other.client.publishableClientKey;
    if (level === "server") h[`${pre}-secret-server-key`] = other.server.secretServerKey;
    if (level === "admin") h[`${pre}-super-secret-admin-key`] = other.adminKey.superSecretAdminKey;
    if (chance(rng, 0.5)) h[`${pre}-access-token`] = user.accessToken;
    return { headers: h, mode: "other-project" };
  }
  if (destructive)
    return {
      headers: {
        [`${pre}-project-id`]: "internal",
        [`${pre}-access-type`]: "client",
        [`${pre}-publishable-client-key`]: DEV_PUBLISHABLE_CLIENT_KEY,
      },
      mode: "internal-anon",
    };
  const level = pick(rng, ["client", "client", "server", "admin"] as const);
  h[`${pre}-project-id`] = p.projectId;
  h[`${pre}-access-type`] = level;
  if (level === "client") h[`${pre}-publishable-client-key`] = p.client.publishableClientKey;
  if (level === "server") h[`${pre}-secret-server-key`] = p.server.secretServerKey;
  if (level === "admin") h[`${pre}-super-secret-admin-key`] = p.adminKey.superSecretAdminKey;
  const t = rng();
  if (t < 0.6) h[`${pre}-access-token`] = user.accessToken;
  else if (t < 0.7) h[`${pre}-access-token`] = headerSafe(oddString(rng));
  else if (t < 0.75) h[`${pre}-access-token`] = `${user.accessToken.slice(0, -4)}AAAA`;
  if (chance(rng, 0.1)) h[`${pre}-refresh-token`] = pick(rng, [user.refreshToken, headerSafe(oddString(rng))]);
  return { headers: h, mode: `valid-${level}` };
}

/** Header values must be ByteStrings; keep odd but legal bytes. */
function headerSafe(v: string): string {
  const out = Array.from(v.slice(0, 300), (c) => (c.charCodeAt(0) > 126 || c.charCodeAt(0) < 32 ? "?" : c)).join("");
  return out.trim() || "x";
}

const BAD_JSON = [
  "{",
  "}",
  "[",
  '{"a":',
  "{'a':1}",
  '{"a":1,}',
  "nul",
  "\u0000",
  "\ufeff{}",
  "[]]",
  '{"a":1}{',
  "1e99999",
  '"\\ud800"',
  '{"__proto__":{"x":1}}',
  "NaN",
  '"\\u0000"',
];
const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/octet-stream",
  "",
  "application/json;;;",
  "*/*",
];

type Req = { method: string; url: string; headers: Record<string, string>; body?: string; desc: string };

function makeRequest(rng: Rng, op: Operation): Req {
  const { headers, mode } = authHeaders(rng, op);
  const values: Record<string, string> = {};
  for (const param of op.pathParams) values[param.name] = pathValue(rng, param.name, SPARE_OWN_IDS.test(`${op.method} ${op.path}`));
  let path = fillPath(op.path, values);
  if (chance(rng, 0.03)) path += pick(rng, ["/", "//", "/..", "%2F", "?%"]);
  const url = `http://localhost/api/v1${path}${queryString(rng, op)}`;
  let method = op.method;
  if (chance(rng, 0.03)) method = pick(rng, ["GET", "POST", "PUT", "PATCH", "DELETE"]);
  let body: string | undefined;
  if (method !== "GET") {
    const r = rng();
    const overrides = { user_id: pick(rng, [ids.userId, "me", ids.otherUserId]), team_id: ids.teamId, creator_user_id: "me" };
    if (r < 0.12) body = pick(rng, BAD_JSON);
    else if (r < 0.14) body = `{"a":"${"x".repeat(1_100_000)}"}`;
    else if (r < 0.18) body = JSON.stringify(garbageValue(rng));
    else if (r < 0.22) body = undefined;
    else if (r < 0.25)
      body = new URLSearchParams({
        [oddString(rng).slice(0, 10)]: oddString(rng).slice(0, 100),
        grant_type: pick(rng, ["refresh_token", "authorization_code", "x"]),
      }).toString();
    else body = JSON.stringify(fuzzBody(op.body, rng, overrides));
    const ct = rng();
    if (ct < 0.75)
      headers["content-type"] =
        op.bodyTypes[0] === "application/x-www-form-urlencoded" && chance(rng, 0.5) ? op.bodyTypes[0] : "application/json";
    else if (ct < 0.95) headers["content-type"] = pick(rng, CONTENT_TYPES);
  }
  if (chance(rng, 0.02)) headers["x-doorman-test-now"] = headerSafe(pick(rng, [oddString(rng), "-1", "1e30", "0"]));
  const desc = `${method} ${url.slice(0, 300)} [${mode}] body=${JSON.stringify(body?.slice(0, 300) ?? null)} ct=${headers["content-type"] ?? "-"}`;
  return { method, url, headers, body, desc };
}

const STACK = [
  /\n\s+at\s+\S.*:\d+:\d+/,
  /\bat\s+(async\s+)?[\w.$<>]+\s+\((?:file|worker|\/)[^)]*:\d+:\d+\)/,
  /worker\/[\w/-]+\.ts:\d+/,
  /node_modules\//,
];

type Finding = { desc: string; status: number; text: string };

const slow = new Map<string, number>();

async function send(req: Req & { op?: string }): Promise<{ status: number; text: string }> {
  const t0 = Date.now();
  try {
    const res = await workerFetch(req.url, { method: req.method, headers: req.headers, body: req.body });
    const text = await res.text();
    slow.set(req.op ?? "", (slow.get(req.op ?? "") ?? 0) + Date.now() - t0);
    return { status: res.status, text };
  } catch (error) {
    // A request the fetch API itself refuses (e.g. a body on a method that has none) never reached the worker.
    if (error instanceof TypeError) return { status: 0, text: String(error) };
    throw error;
  }
}

describe("fuzz over every documented route", () => {
  it(`${COUNT} malformed requests (seed ${SEED}): no 5xx, no stack traces`, async () => {
    const ops = documentedOperations();
    expect(ops.length).toBeGreaterThan(100);
    const rng = mulberry32(SEED);
    const findings: Finding[] = [];
    const byStatus = new Map<number, number>();
    const reached = new Set<string>();
    const started = Date.now();
    for (let done = 0; done < COUNT; done += BATCH) {
      const batch: Req[] = [];
      for (let i = done; i < Math.min(COUNT, done + BATCH); i++) {
        // round-robin then random: every route gets its share
        const op = i < ops.length * 20 ? (ops[i % ops.length] as Operation) : pick(rng, ops);
        const req = makeRequest(rng, op);
        (req as Req & { op: string }).op = `${op.method} ${op.path}`;
        batch.push(req);
      }
      const results = await Promise.all(batch.map(send));
      results.forEach((res, i) => {
        const req = batch[i] as Req & { op: string };
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        if (res.status >= 200 && res.status < 300) reached.add(req.op);
        if (res.status >= 500 || STACK.some((re) => re.test(res.text)))
          findings.push({ desc: req.desc, status: res.status, text: res.text.slice(0, 500) });
      });
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${COUNT} requests over ${ops.length} operations in ${seconds}s; statuses ${JSON.stringify(Object.fromEntries([...byStatus].sort((a, b) => a[0] - b[0])))}; ${reached.size} operations answered 2xx at least once; ${findings.length} findings`,
    );
    console.log(`slowest: ${JSON.stringify([...slow].sort((a, b) => b[1] - a[1]).slice(0, 12))}`);
    for (const f of findings.slice(0, 20)) console.log(`  ${f.status} ${f.desc}\n    -> ${f.text}`);
    expect(findings.map((f) => `${f.status} ${f.desc} -> ${f.text}`)).toEqual([]);
    // the run reached handlers, not only the guard
    expect(reached.size).toBeGreaterThan(Math.min(20, COUNT / 50));
  }, 1_800_000);
});
