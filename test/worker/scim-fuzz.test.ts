/**
 * Fuzz of the SCIM server behind its token (issue 31): the generated route fuzz (fuzz.test.ts) has no
 * SCIM token, so it only meets the 401; here every request carries the connection's token and reaches
 * the handlers: odd bodies built from SCIM attribute names with garbage values, PATCH operations with
 * real and mangled paths, hostile filters and query values. No answer may be a 5xx, and every error
 * is an RFC 7644 §3.12 body. The seed is fixed (reproducible); VITE_DOORMAN_FUZZ_COUNT runs more.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { chance, encodeWtf8, garbageValue, mulberry32, oddString, pick, type Rng } from "../helpers/route-doc";
import { ENTERPRISE_USER_SCHEMA, ERROR_SCHEMA, type ScimConnection, scim, scimConnection, setGroupMapping } from "../helpers/sso-scim";

const env = ((import.meta as { env?: Record<string, string | undefined> }).env ?? {}) as Record<string, string | undefined>;
const COUNT = Math.max(1, Math.floor(Number(env.VITE_DOORMAN_FUZZ_COUNT ?? 1500) / 5) || 300);
const SEED = 0x5c1e;

let conn: ScimConnection;
const userIds: string[] = [];
const groupIds: string[] = [];

beforeAll(async () => {
  // The connection's rate limit off: the run sends more than a minute's allowance.
  conn = await scimConnection({ rate_limits: { SCIM_PER_CONNECTION: "0" } });
  await setGroupMapping(conn, { Fuzzers: ["$read_members"], "": ["$update_team"] });
  for (let i = 0; i < 3; i++) {
    const res = await scim(conn, "/Users", {
      body: { userName: `seed${i}-${crypto.randomUUID()}@fuzz.test`, emails: [{ value: `s${i}@fuzz.test`, type: "work" }] },
    });
    userIds.push(res.body.id);
  }
  const group = await scim(conn, "/Groups", { body: { displayName: "Fuzzers", members: userIds.map((value) => ({ value })) } });
  groupIds.push(group.body.id);
}, 60_000);

const ATTRIBUTES = [
  "userName",
  "USERNAME",
  "externalId",
  "active",
  "displayName",
  "name",
  "name.givenName",
  "emails",
  'emails[type eq "work"].value',
  'emails[type eq "work"]',
  "emails[primary eq true].value",
  "phoneNumbers",
  "addresses",
  'addresses[type eq "work"].streetAddress',
  "groups",
  "members",
  'members[value eq "x"]',
  "id",
  "meta",
  "schemas",
  "password",
  ENTERPRISE_USER_SCHEMA,
  `${ENTERPRISE_USER_SCHEMA}:manager`,
  `${ENTERPRISE_USER_SCHEMA}:manager.value`,
  "urn:ietf:params:scim:schemas:core:2.0:User:userName",
  "urn:ietf:params:scim:schemas:extension:custom:2.0:User:thing",
];

function value(rng: Rng): unknown {
  const r = rng();
  if (r < 0.2) return pick(rng, ["True", "False", "true", true, false, null, "", "x@fuzz.test"]);
  if (r < 0.35)
    return [{ value: pick(rng, [...userIds, ...groupIds, crypto.randomUUID(), oddString(rng).slice(0, 40)]), primary: chance(rng, 0.5) }];
  if (r < 0.45) return { givenName: oddString(rng).slice(0, 50), value: garbageValue(rng) };
  return garbageValue(rng);
}

function resourceBody(rng: Rng): unknown {
  if (chance(rng, 0.1)) return garbageValue(rng);
  const body: Record<string, unknown> = {};
  if (chance(rng, 0.7)) body.userName = pick(rng, [`fz-${Math.floor(rng() * 50)}@fuzz.test`, oddString(rng).slice(0, 300)]);
  if (chance(rng, 0.5)) body.displayName = pick(rng, ["Fuzzers", "", oddString(rng).slice(0, 300)]);
  const n = Math.floor(rng() * 4);
  for (let i = 0; i < n; i++) body[pick(rng, ATTRIBUTES)] = value(rng);
  return body;
}

function patchBody(rng: Rng): unknown {
  if (chance(rng, 0.1)) return garbageValue(rng);
  const ops = Array.from({ length: 1 + Math.floor(rng() * 3) }, () => {
    const op: Record<string, unknown> = { op: pick(rng, ["add", "replace", "remove", "Replace", "Add", "Remove", "move", 3]) };
    if (chance(rng, 0.75)) op.path = chance(rng, 0.8) ? pick(rng, ATTRIBUTES) : oddString(rng).slice(0, 200);
    if (chance(rng, 0.85)) op.value = chance(rng, 0.3) ? Object.fromEntries([[pick(rng, ATTRIBUTES), value(rng)]]) : value(rng);
    return op;
  });
  return {
    schemas: pick(rng, [["urn:ietf:params:scim:api:messages:2.0:PatchOp"], undefined, ["nope"]]),
    [pick(rng, ["Operations", "operations"])]: ops,
  };
}

function filter(rng: Rng): string {
  const attr = pick(rng, [
    "userName",
    "externalId",
    "emails.value",
    "displayName",
    "title",
    'emails[type eq "work"]',
    oddString(rng).slice(0, 30),
  ]);
  const op = pick(rng, ["eq", "co", "pr", "EQ", "ne", ""]);
  const v = pick(rng, ['"x@fuzz.test"', "true", "5", `"${oddString(rng).slice(0, 60)}"`, "", '"']);
  const base = `${attr} ${op} ${v}`;
  return pick(rng, [base, `${base} and ${base}`, `(${base}) or ${base}`, `not (${base})`, oddString(rng).slice(0, 1200)]);
}

function path(rng: Rng, kind: "Users" | "Groups"): string {
  const ids = kind === "Users" ? userIds : groupIds;
  return pick(rng, [...ids, crypto.randomUUID(), encodeWtf8(oddString(rng).slice(0, 100)) || "x"]);
}

describe("SCIM fuzz with a valid token", () => {
  it(`${COUNT * 5} odd requests: no 5xx, every error a SCIM error`, async () => {
    const rng = mulberry32(SEED);
    const statuses: Record<number, number> = {};
    const problems: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      const kind = pick(rng, ["Users", "Groups"] as const);
      const requests = [
        scim(conn, `/${kind}?filter=${encodeWtf8(filter(rng))}&startIndex=${encodeWtf8(pick(rng, ["1", "-5", "x", "99999999999"]))}`),
        scim(conn, `/${kind}`, { body: resourceBody(rng) }),
        scim(conn, `/${kind}/${path(rng, kind)}`, { method: "PUT", body: resourceBody(rng) }),
        scim(conn, `/${kind}/${path(rng, kind)}`, {
          method: "PATCH",
          body: patchBody(rng),
          headers: chance(rng, 0.2) ? { "if-match": pick(rng, ['W/"1"', "*", "garbage", 'W/"99999999999999999999"']) } : {},
        }),
        chance(rng, 0.9)
          ? scim(conn, `/${kind}/${path(rng, kind)}?excludedAttributes=${encodeWtf8(oddString(rng).slice(0, 50))}`)
          : scim(conn, `/${kind}/${crypto.randomUUID()}`, { method: "DELETE" }),
      ];
      for (const res of await Promise.all(requests)) {
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 500) problems.push(`${res.status}: ${res.text.slice(0, 300)}`);
        else if (res.status >= 400 && (res.body?.schemas?.[0] !== ERROR_SCHEMA || typeof res.body.status !== "string"))
          problems.push(`not a SCIM error: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    console.log(`scim fuzz: ${COUNT * 5} requests, statuses ${JSON.stringify(statuses)}, ${problems.length} problems`);
    for (const line of problems.slice(0, 20)) console.log(`  ${line}`);
    expect(problems).toEqual([]);
    // The seeded group still answers consistently afterwards.
    const group = await scim(conn, `/Groups/${groupIds[0]}`);
    expect(group.status).toBe(200);
  }, 600_000);
});
