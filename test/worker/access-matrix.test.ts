/**
 * The access matrix, generated from the OpenAPI document (the route declarations), so a new
 * route cannot skip it. For every operation and every access level, with the level's own valid
 * credentials of project A, and for own/other user, own/other team and own/other project where the
 * route takes such ids (path, query or body): the answer must be what the declaration says.
 *
 * - a level the route does not declare is refused (401/403 with a known error);
 * - a declared level with its own ids is answered (2xx, or an error that is not an auth refusal);
 * - a client naming another user, another team it is not in, or another project's ids never gets
 *   a 2xx that carries those ids, nor a 2xx from a write;
 * - no level ever gets a 2xx carrying another project's user or team;
 * - project A's id with project B's key is refused at every level.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { createProjectWithKeys, type SignedUp, signUp } from "../helpers/api";
import { deref, documentedOperations, fillPath, type Level, type Operation, validValue } from "../helpers/route-doc";
import { workerFetch } from "../helpers/worker-fetch";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
type Scenario = "own" | "other-user" | "other-team" | "other-project";
type Cell = { op: string; level: Level; scenario: Scenario | "other-project-key"; status: number; code: string | null; text: string };

const LEVELS: readonly Level[] = ["client", "server", "admin"];
const CONFIG = { client_team_creation_enabled: true, allow_user_api_keys: true, allow_team_api_keys: true };

/** Refusals of the caller's credentials or access level (as opposed to answers about the request). */
const AUTH_REFUSALS = new Set([
  "INSUFFICIENT_ACCESS_TYPE",
  "ACCESS_TYPE_REQUIRED",
  "SERVER_AUTHENTICATION_REQUIRED",
  "ADMIN_AUTHENTICATION_REQUIRED",
  "INVALID_PUBLISHABLE_CLIENT_KEY",
  "INVALID_SECRET_SERVER_KEY",
  "INVALID_SUPER_SECRET_ADMIN_KEY",
  "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
  "UNPARSABLE_ADMIN_ACCESS_TOKEN",
  "INVALID_PROJECT_FOR_ACCESS_TOKEN",
  "CURRENT_PROJECT_NOT_FOUND",
]);

let a: Project;
let b: Project;
let uA: SignedUp;
let uA2: SignedUp;
let uB: SignedUp;
let team: { own: string; other: string; foreign: string };

async function serverCall(p: Project, method: string, path: string, body: unknown) {
  const res = await workerFetch(`http://localhost/api/v1${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      "x-stack-project-id": p.projectId,
      "x-stack-access-type": "server",
      "x-stack-secret-server-key": p.server.secretServerKey,
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { id: string };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  [a, b] = await Promise.all([createProjectWithKeys(CONFIG), createProjectWithKeys(CONFIG)]);
  [uA, uA2, uB] = await Promise.all([signUp(a.client), signUp(a.client), signUp(b.client)]);
  const [own, other, foreign] = await Promise.all([
    serverCall(a, "POST", "/teams", { display_name: "own", creator_user_id: uA.userId }),
    serverCall(a, "POST", "/teams", { display_name: "other", creator_user_id: uA2.userId }),
    serverCall(b, "POST", "/teams", { display_name: "foreign", creator_user_id: uB.userId }),
  ]);
  team = { own: own.id, other: other.id, foreign: foreign.id };
}, 60_000);

// Payments name their customer `customer_id`; the matrix asks with customer_type "user".
const isUserKey = (name: string) => /^(userId|user_id|creator_user_id|customer_id)$/.test(name);
const isTeamKey = (name: string) => /^(teamId|team_id)$/.test(name);

function idKeys(op: Operation): { user: boolean; team: boolean } {
  const names = [
    ...op.pathParams.map((p) => p.name as string),
    ...op.queryParams.map((p) => p.name as string),
    ...Object.keys(deref(op.body ?? undefined).properties ?? {}),
  ];
  return { user: names.some(isUserKey), team: names.some(isTeamKey) };
}

function scenariosOf(op: Operation): Scenario[] {
  const keys = idKeys(op);
  const out: Scenario[] = [];
  if (keys.user) out.push("other-user");
  if (keys.team) out.push("other-team");
  if (keys.user || keys.team || op.pathParams.some((p) => p.name === "projectId")) out.push("other-project");
  return [...out, "own"];
}

function idsFor(scenario: Scenario) {
  const userId = scenario === "other-user" ? uA2.userId : scenario === "other-project" ? uB.userId : uA.userId;
  const teamId = scenario === "other-team" ? team.other : scenario === "other-project" ? team.foreign : team.own;
  const projectId = scenario === "other-project" ? b.projectId : a.projectId;
  return { userId, teamId, projectId };
}

/** The ids a 2xx must not carry in a scenario (another user's, team's or project's). */
function foreignIds(scenario: Scenario): string[] {
  if (scenario === "other-user") return [uA2.userId, uA2.email];
  if (scenario === "other-team") return [team.other];
  if (scenario === "other-project") return [uB.userId, uB.email, team.foreign];
  return [];
}

const OTHER_PATH_VALUES: Record<string, string> = {
  provider: "github",
  file: "jwks.json",
  permissionId: "team_admin",
  categoryId: "marketing",
  customer_type: "user",
};

function credentials(p: Project, level: Level, withUser: boolean): Record<string, string> {
  const h: Record<string, string> = { "x-stack-project-id": a.projectId, "x-stack-access-type": level };
  if (level === "client") h["x-stack-publishable-client-key"] = p.client.publishableClientKey;
  if (level === "server") h["x-stack-secret-server-key"] = p.server.secretServerKey;
  if (level === "admin") h["x-stack-super-secret-admin-key"] = p.adminKey.superSecretAdminKey;
  if (withUser) h["x-stack-access-token"] = uA.accessToken;
  return h;
}

async function ask(op: Operation, level: Level, scenario: Scenario, keyOf: Project = a): Promise<Cell> {
  const ids = idsFor(scenario);
  const values: Record<string, string> = {};
  for (const param of op.pathParams) {
    const name = param.name as string;
    values[name] = isUserKey(name)
      ? ids.userId
      : isTeamKey(name)
        ? ids.teamId
        : name === "projectId"
          ? ids.projectId
          : (OTHER_PATH_VALUES[name] ?? crypto.randomUUID());
  }
  const query = new URLSearchParams();
  for (const param of op.queryParams) {
    const name = param.name as string;
    if (isUserKey(name)) query.set(name, ids.userId);
    else if (isTeamKey(name)) query.set(name, ids.teamId);
  }
  // Clients act as their signed-in user; server and admin send the user too where it is needed.
  const headers = credentials(keyOf, level, level === "client" || op.user);
  let body: string | undefined;
  if (op.method !== "GET" && op.method !== "DELETE") {
    const overrides = { user_id: ids.userId, creator_user_id: ids.userId, team_id: ids.teamId, customer_id: ids.userId };
    body = JSON.stringify(op.body ? validValue(op.body, overrides) : {});
    headers["content-type"] = "application/json";
  } else if (op.method === "DELETE" && op.body) {
    body = JSON.stringify(validValue(op.body, {}));
    headers["content-type"] = "application/json";
  }
  const qs = query.toString();
  const res = await workerFetch(`http://localhost/api/v1${fillPath(op.path, values)}${qs ? `?${qs}` : ""}`, {
    method: op.method,
    headers,
    body,
  });
  const text = await res.text();
  return {
    op: `${op.method} ${op.path}`,
    level,
    scenario: keyOf === a ? scenario : "other-project-key",
    status: res.status,
    code: res.headers.get("x-stack-known-error"),
    text,
  };
}

/** Destructive routes last, so the fixtures stay alive while the rest is asked. */
function order(ops: Operation[]): Operation[] {
  const rank = (op: Operation) => {
    if (op.method !== "DELETE") return 0;
    if (op.path === "/users/me" || op.path === "/internal/projects/current") return 3;
    if (/^\/(users|teams)\//.test(op.path)) return 2;
    return 1;
  };
  return [...ops].sort((x, y) => rank(x) - rank(y));
}

describe("access matrix over every documented route", () => {
  it("answers or refuses each (route, level, own/other user, team, project) as declared, and leaks nothing", async () => {
    const ops = order(documentedOperations());
    expect(ops.length).toBeGreaterThan(100);
    const cells: Cell[] = [];
    const problems: string[] = [];
    const leaks: string[] = [];
    for (const op of ops) {
      const scenarios = scenariosOf(op);
      const others = scenarios.filter((s) => s !== "own");
      // other-* first (in parallel), then own: a DELETE of one's own object runs after the refusals were tried
      const first = await Promise.all([
        // Server and admin may act on any user or team of their project: their writes naming another
        // user or team are not asked (they would change the fixture, e.g. add the user to the other team).
        ...LEVELS.flatMap((level) =>
          others.filter((s) => level === "client" || op.method === "GET" || s === "other-project").map((s) => ask(op, level, s)),
        ),
        ...(op.access.includes("public") ? [] : LEVELS.map((level) => ask(op, level, "own", b))),
      ]);
      const second = await Promise.all(LEVELS.map((level) => ask(op, level, "own")));
      for (const cell of [...first, ...second]) {
        cells.push(cell);
        const where = `${cell.op} [${cell.level}, ${cell.scenario}] -> ${cell.status} ${cell.code ?? ""} ${cell.text.slice(0, 200)}`;
        const ok = cell.status >= 200 && cell.status < 300;
        const declared = op.access.includes("public") || op.access.includes(cell.level);
        if (cell.status >= 500) problems.push(`5xx: ${where}`);
        if (cell.scenario === "other-project-key") {
          if (!op.access.includes("public") && !(cell.status === 401 || cell.status === 403) && !cell.code)
            problems.push(`another project's key not refused: ${where}`);
          if (!op.access.includes("public") && ok) leaks.push(`another project's key answered: ${where}`);
          continue;
        }
        if (!declared) {
          if (ok || !cell.code || ![401, 403, 404].includes(cell.status)) problems.push(`undeclared level not refused: ${where}`);
          continue;
        }
        const foreign = foreignIds(cell.scenario);
        if (ok && foreign.some((id) => cell.text.includes(id))) {
          if (cell.scenario === "other-project" || cell.level === "client")
            leaks.push(`2xx carries another ${cell.scenario.slice(6)}'s data: ${where}`);
        }
        if (ok && cell.level === "client" && cell.scenario !== "own" && op.method !== "GET")
          leaks.push(`client write on another ${cell.scenario.slice(6)}'s object answered 2xx: ${where}`);
        if (ok && cell.scenario === "other-project" && op.method !== "GET")
          leaks.push(`write naming another project's object answered 2xx: ${where}`);
        if (cell.scenario === "own" && cell.code && AUTH_REFUSALS.has(cell.code))
          problems.push(`declared level refused with own credentials: ${where}`);
      }
    }
    const byScenario = cells.reduce<Record<string, number>>((acc, c) => {
      acc[c.scenario] = (acc[c.scenario] ?? 0) + 1;
      return acc;
    }, {});
    console.log(
      `access matrix: ${ops.length} operations, ${cells.length} cells ${JSON.stringify(byScenario)}; ${leaks.length} leaks; ${problems.length} other problems`,
    );
    for (const line of [...leaks, ...problems].slice(0, 60)) console.log(`  ${line}`);
    expect(leaks).toEqual([]);
    expect(problems).toEqual([]);
  }, 900_000);
});
