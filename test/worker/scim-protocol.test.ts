/**
 * The SCIM protocol surface (RFC 7643/7644; issue 31): the bearer token and its refusals (401 with a
 * challenge, 403 for a disabled connection, 429 past the connection's limit), discovery, the supported
 * filters and the refusal of every other one (including input built to stall the filter parser),
 * pagination, ETags with If-Match / If-None-Match, and bad input answered as RFC 7644 §3.12 errors:
 * never SCHEMA_ERROR, never a 5xx, a huge body refused with 413.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  ENTERPRISE_USER_SCHEMA,
  ERROR_SCHEMA,
  GROUP_SCHEMA,
  newScimToken,
  patchOp,
  type ScimConnection,
  type ScimResult,
  scim,
  scimConnection,
  setConnectionEnabled,
  USER_SCHEMA,
} from "../helpers/sso-scim";

let conn: ScimConnection;

beforeAll(async () => {
  conn = await scimConnection();
}, 60_000);

function expectScimError(res: ScimResult, status: number, scimType?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/scim+json");
  expect(res.headers.get("x-stack-known-error")).toBeNull();
  expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status) });
  expect(typeof res.body.detail).toBe("string");
  if (scimType) expect(res.body.scimType).toBe(scimType);
  else expect(res.body).not.toHaveProperty("scimType");
}

async function createUser(extra: Record<string, unknown> = {}): Promise<ScimResult> {
  const res = await scim(conn, "/Users", {
    body: { schemas: [USER_SCHEMA], userName: `u-${crypto.randomUUID()}@protocol.test`, ...extra },
  });
  expect(res.status, res.text).toBe(201);
  return res;
}

describe("authentication", () => {
  it("refuses a missing, wrong, foreign or non-bearer token with 401 and a challenge", async () => {
    const other = await scimConnection({}, conn.project);
    for (const token of [null, newScimToken(), other.token, "not-a-scim-token"]) {
      const res = await scim(conn, "/Users", { token });
      expectScimError(res, 401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="SCIM"');
    }
    const basic = await scim(conn, "/Users", { token: null, headers: { authorization: `Basic ${btoa(`x:${conn.token}`)}` } });
    expectScimError(basic, 401);
    // Authentication comes before reading the request: a bad body from a stranger is still a 401.
    expectScimError(await scim(conn, "/Users", { token: null, rawBody: "{" }), 401);
  });

  it("answers 403 while the connection is disabled", async () => {
    const own = await scimConnection({}, conn.project);
    await setConnectionEnabled(own, false);
    expectScimError(await scim(own, "/Users"), 403);
    await setConnectionEnabled(own, true);
    expect((await scim(own, "/Users")).status).toBe(200);
  });

  it("limits each connection's calls (SCIM_PER_CONNECTION) with 429 and Retry-After", async () => {
    const limited = await scimConnection({ rate_limits: { SCIM_PER_CONNECTION: "3/60" } });
    for (let i = 0; i < 3; i++) expect((await scim(limited, "/ServiceProviderConfig")).status).toBe(200);
    const refused = await scim(limited, "/Users");
    expectScimError(refused, 429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another connection is not held back by it.
    expect((await scim(conn, "/ServiceProviderConfig")).status).toBe(200);
  });
});

describe("discovery", () => {
  it("describes the server: PATCH, filters and ETags; no bulk, sort or password change", async () => {
    const res = await scim(conn, "/ServiceProviderConfig");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [expect.objectContaining({ type: "oauthbearertoken", primary: true })],
      meta: { resourceType: "ServiceProviderConfig", location: `http://localhost/api/v1/scim/${conn.connectionId}/ServiceProviderConfig` },
    });
  });

  it("lists the User and Group resource types and their schemas", async () => {
    const types = await scim(conn, "/ResourceTypes");
    expect(types.body).toMatchObject({ totalResults: 2, itemsPerPage: 2 });
    expect(types.body.Resources.map((t: { id: string }) => t.id)).toEqual(["User", "Group"]);
    const user = await scim(conn, "/ResourceTypes/User");
    expect(user.body).toMatchObject({
      endpoint: "/Users",
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
      meta: { resourceType: "ResourceType", location: expect.stringMatching(/\/ResourceTypes\/User$/) },
    });
    expectScimError(await scim(conn, "/ResourceTypes/Printer"), 404);

    const schemas = await scim(conn, "/Schemas");
    expect(schemas.body.Resources.map((s: { id: string }) => s.id)).toEqual([USER_SCHEMA, ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA]);
    const userSchema = await scim(conn, `/Schemas/${USER_SCHEMA}`);
    expect(userSchema.body.meta.location).toBe(`http://localhost/api/v1/scim/${conn.connectionId}/Schemas/${USER_SCHEMA}`);
    const userName = userSchema.body.attributes.find((a: { name: string }) => a.name === "userName");
    expect(userName).toMatchObject({ type: "string", required: true, uniqueness: "server", caseExact: false });
    const emails = userSchema.body.attributes.find((a: { name: string }) => a.name === "emails");
    expect(emails.multiValued).toBe(true);
    expect(emails.subAttributes.map((a: { name: string }) => a.name)).toEqual(["value", "display", "type", "primary"]);
    const group = await scim(conn, `/Schemas/${GROUP_SCHEMA}`);
    expect(group.body.attributes.map((a: { name: string }) => a.name)).toEqual(["displayName", "members"]);
  });
});

describe("filters", () => {
  let alice: ScimResult;
  let aliceName: string;

  beforeAll(async () => {
    aliceName = `Alice-${crypto.randomUUID()}@protocol.test`;
    alice = await createUser({
      userName: aliceName,
      externalId: `ext-${aliceName}`,
      emails: [
        { value: `home-${aliceName}`, type: "home" },
        { value: `work-${aliceName}`, type: "work", primary: true },
      ],
    });
    await createUser();
  });

  const ids = async (filter: string) => {
    const res = await scim(conn, `/Users?filter=${encodeURIComponent(filter)}`);
    expect(res.status, res.text).toBe(200);
    return res.body.Resources.map((r: { id: string }) => r.id);
  };

  it("answers userName eq (case-insensitive), externalId eq, emails.value eq and their and", async () => {
    const id = alice.body.id;
    expect(await ids(`userName eq "${aliceName.toLowerCase()}"`)).toEqual([id]);
    expect(await ids(`USERNAME Eq "${aliceName}"`)).toEqual([id]);
    expect(await ids(`${USER_SCHEMA}:userName eq "${aliceName}"`)).toEqual([id]);
    expect(await ids(`externalId eq "ext-${aliceName}"`)).toEqual([id]);
    expect(await ids(`externalId eq "EXT-${aliceName}"`)).toEqual([]);
    expect(await ids(`emails.value eq "WORK-${aliceName}"`)).toEqual([id]);
    expect(await ids(`emails[type eq "work" and value eq "work-${aliceName}"]`)).toEqual([id]);
    expect(await ids(`emails[type eq "home" and value eq "work-${aliceName}"]`)).toEqual([]);
    expect(await ids(`userName eq "${aliceName}" and externalId eq "ext-${aliceName}"`)).toEqual([id]);
    expect(await ids(`userName eq "${aliceName}" and externalId eq "other"`)).toEqual([]);
    // Entra appends its own flag to the tenant URL's queries: it is ignored.
    const flagged = await scim(conn, `/Users?aadOptscim062020&filter=${encodeURIComponent(`userName eq "${aliceName}"`)}`);
    expect(flagged.body.totalResults).toBe(1);
  });

  it("refuses every other filter with invalidFilter", async () => {
    const refused = [
      'title eq "x"',
      `userName co "${aliceName.slice(0, 5)}"`,
      'userName eq "a" or userName eq "b"',
      'not (userName eq "a")',
      "userName pr",
      "userName eq 5",
      "userName eq",
      'userName eq "a" and',
      '(userName eq "a"',
      'emails[display eq "x"]',
      'groups[value eq "x"]',
      // Built to stall the parser's string pattern (exponential backtracking on line breaks) and its recursion.
      `userName eq "${"\n".repeat(5000)}`,
      `${"(".repeat(200)}userName eq "a"${")".repeat(200)}`,
      `userName eq "${"a".repeat(5000)}"`,
    ];
    for (const filter of refused) {
      const started = Date.now();
      const res = await scim(conn, `/Users?filter=${encodeURIComponent(filter)}`);
      expectScimError(res, 400, "invalidFilter");
      expect(Date.now() - started).toBeLessThan(2000);
    }
    expectScimError(await scim(conn, `/Groups?filter=${encodeURIComponent('members.value eq "x"')}`), 400, "invalidFilter");
  });

  it("filters Groups by displayName and externalId", async () => {
    const name = `Filtered ${crypto.randomUUID()}`;
    const created = await scim(conn, "/Groups", { body: { displayName: name, externalId: `g-${name}` } });
    expect(created.status).toBe(201);
    for (const filter of [
      `displayName eq "${name}"`,
      `externalId eq "g-${name}"`,
      `displayName eq "${name}" and externalId eq "g-${name}"`,
    ]) {
      const res = await scim(conn, `/Groups?filter=${encodeURIComponent(filter)}`);
      expect(res.body.Resources.map((r: { id: string }) => r.id)).toEqual([created.body.id]);
    }
  });
});

describe("pagination", () => {
  it("pages with startIndex and count, and reports totalResults", async () => {
    const own = await scimConnection({}, conn.project);
    const made: string[] = [];
    for (let i = 0; i < 3; i++)
      made.push((await scim(own, "/Users", { body: { userName: `p${i}-${crypto.randomUUID()}@x.test` } })).body.id);
    const none = await scim(own, "/Users?count=0");
    expect(none.body).toMatchObject({ totalResults: 3, itemsPerPage: 0, startIndex: 1, Resources: [] });
    const clamped = await scim(own, "/Users?startIndex=0&count=-4");
    expect(clamped.body).toMatchObject({ totalResults: 3, startIndex: 1, itemsPerPage: 0 });
    const second = await scim(own, "/Users?startIndex=2&count=1");
    expect(second.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(second.body.Resources[0].id).toBe(made[1]);
    const past = await scim(own, "/Users?startIndex=10");
    expect(past.body).toMatchObject({ totalResults: 3, startIndex: 10, itemsPerPage: 0, Resources: [] });
    const capped = await scim(own, "/Users?count=100000");
    expect(capped.body.itemsPerPage).toBe(3);
    expectScimError(await scim(own, "/Users?count=many"), 400, "invalidValue");
    expectScimError(await scim(own, "/Users?startIndex=1.5"), 400, "invalidValue");
  });

  it("answers only the attributes asked for", async () => {
    const user = await createUser({ displayName: "Projected", title: "Boss" });
    const only = await scim(conn, `/Users/${user.body.id}?attributes=userName,title`);
    expect(Object.keys(only.body).sort()).toEqual(["id", "schemas", "title", "userName"]);
    const without = await scim(conn, `/Users/${user.body.id}?excludedAttributes=groups,title`);
    expect(without.body).not.toHaveProperty("groups");
    expect(without.body).not.toHaveProperty("title");
    expect(without.body.displayName).toBe("Projected");
  });
});

describe("ETags", () => {
  it("answers the version as a weak ETag and holds writes to If-Match", async () => {
    const user = await createUser({ displayName: "Versioned" });
    const id = user.body.id;
    const read = await scim(conn, `/Users/${id}`);
    expect(read.headers.get("etag")).toBe('W/"1"');
    const unchanged = await scim(conn, `/Users/${id}`, { headers: { "if-none-match": 'W/"1"' } });
    expect(unchanged.status).toBe(304);

    const patched = await scim(conn, `/Users/${id}`, {
      method: "PATCH",
      headers: { "if-match": 'W/"1"' },
      body: patchOp({ op: "replace", path: "displayName", value: "Second" }),
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers.get("etag")).toBe('W/"2"');
    expect((await scim(conn, `/Users/${id}`, { headers: { "if-none-match": 'W/"1"' } })).status).toBe(200);

    const stalePatch = await scim(conn, `/Users/${id}`, {
      method: "PATCH",
      headers: { "if-match": 'W/"1"' },
      body: patchOp({ op: "replace", path: "displayName", value: "Lost" }),
    });
    expectScimError(stalePatch, 412);
    const stalePut = await scim(conn, `/Users/${id}`, {
      method: "PUT",
      headers: { "if-match": 'W/"1"' },
      body: { userName: user.body.userName },
    });
    expectScimError(stalePut, 412);
    const staleDelete = await scim(conn, `/Users/${id}`, { method: "DELETE", headers: { "if-match": 'W/"1"' } });
    expectScimError(staleDelete, 412);
    expect((await scim(conn, `/Users/${id}`)).body.displayName).toBe("Second");

    const anyVersion = await scim(conn, `/Users/${id}`, {
      method: "PUT",
      headers: { "if-match": "*" },
      body: { userName: user.body.userName, displayName: "Third" },
    });
    expect(anyVersion.status).toBe(200);
    expect(anyVersion.body.meta.version).toBe('W/"3"');
    expect((await scim(conn, `/Users/${id}`, { method: "DELETE", headers: { "if-match": 'W/"3"' } })).status).toBe(204);
  });
});

describe("bad input", () => {
  it("answers unreadable and invalid bodies with SCIM 400s", async () => {
    expectScimError(await scim(conn, "/Users", { rawBody: "{" }), 400, "invalidSyntax");
    expectScimError(await scim(conn, "/Users", { rawBody: "[1,2]" }), 400, "invalidSyntax");
    expectScimError(await scim(conn, "/Users", { rawBody: `${"[".repeat(100)}${"]".repeat(100)}` }), 400, "invalidSyntax");
    expectScimError(await scim(conn, "/Users", { body: { schemas: [USER_SCHEMA] } }), 400, "invalidValue");
    expectScimError(await scim(conn, "/Users", { body: { userName: "   " } }), 400, "invalidValue");
    expectScimError(await scim(conn, "/Users", { body: { userName: ["a"] } }), 400, "invalidValue");
    expectScimError(await scim(conn, "/Users", { body: { userName: "x@y.test", active: "maybe" } }), 400, "invalidValue");
    expectScimError(await scim(conn, "/Users", { body: { userName: "x@y.test", name: 5 } }), 400, "invalidValue");
    expectScimError(await scim(conn, "/Users", { body: { userName: "x".repeat(3000) } }), 400, "invalidValue");
    const many = Array.from({ length: 101 }, (_, i) => ({ value: `e${i}@x.test` }));
    expectScimError(await scim(conn, "/Users", { body: { userName: "x@y.test", emails: many } }), 400, "invalidValue");
    expectScimError(await scim(conn, "/Groups", { body: { members: [] } }), 400, "invalidValue");
    expectScimError(await scim(conn, `/Users/${"x".repeat(300)}`), 400, "invalidValue");
    expectScimError(await scim(conn, `/Users/${crypto.randomUUID()}`), 404);
  });

  it("refuses a duplicate userName (case-insensitive) with 409 uniqueness", async () => {
    const user = await createUser();
    const again = await scim(conn, "/Users", { body: { userName: user.body.userName.toUpperCase() } });
    expectScimError(again, 409, "uniqueness");
    const other = await createUser();
    const rename = await scim(conn, `/Users/${other.body.id}`, {
      method: "PATCH",
      body: patchOp({ op: "replace", path: "userName", value: user.body.userName }),
    });
    expectScimError(rename, 409, "uniqueness");
  });

  it("refuses malformed PATCH requests with the matching scimType", async () => {
    const user = await createUser({ emails: [{ value: "one@x.test", type: "work" }] });
    const at = `/Users/${user.body.id}`;
    const cases: [unknown, string][] = [
      [{ schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"] }, "invalidSyntax"],
      [{ schemas: [USER_SCHEMA], Operations: [{ op: "add", path: "title", value: "x" }] }, "invalidSyntax"],
      [patchOp({ op: "move", path: "title", value: "x" }), "invalidSyntax"],
      [patchOp({ op: "add", path: "title" }), "invalidValue"],
      [patchOp({ op: "remove" }), "noTarget"],
      [patchOp({ op: "replace", value: "not an object" }), "invalidValue"],
      [patchOp({ op: "replace", path: 'emails[type eq "work"', value: "x" }), "invalidPath"],
      [patchOp({ op: "replace", path: "title.sub", value: "x" }), "invalidPath"],
      [patchOp({ op: "replace", path: 'userName[value eq "x"]', value: "x" }), "invalidPath"],
      [patchOp({ op: "replace", path: 'emails[type zz "work"].value', value: "x" }), "invalidFilter"],
      [patchOp({ op: "replace", path: 'emails[value sw "nobody"].value', value: "x" }), "noTarget"],
      [patchOp({ op: "add", path: "groups", value: [{ value: crypto.randomUUID() }] }), "mutability"],
      [patchOp({ op: "replace", value: { id: crypto.randomUUID() } }), "mutability"],
      [patchOp({ op: "remove", path: "userName" }), "invalidValue"],
      [patchOp({ op: "replace", path: "active", value: "perhaps" }), "invalidValue"],
    ];
    for (const [body, scimType] of cases) expectScimError(await scim(conn, at, { method: "PATCH", body }), 400, scimType);
    const put = await scim(conn, at, { method: "PUT", body: { id: crypto.randomUUID(), userName: user.body.userName } });
    expectScimError(put, 400, "mutability");
    // None of them changed the User.
    expect((await scim(conn, at)).body.meta.version).toBe('W/"1"');
  });

  it("refuses a huge body with 413 before reading it", async () => {
    const huge = JSON.stringify({ userName: "big@x.test", title: "x".repeat(2_000_000) });
    expectScimError(await scim(conn, "/Users", { rawBody: huge }), 413);
  });

  it("accepts plain JSON and answers it to a client that asks for it, ignoring attributes it does not keep", async () => {
    const res = await scim(conn, "/Users", {
      contentType: "application/json",
      headers: { accept: "application/json" },
      body: {
        userName: `plain-${crypto.randomUUID()}@x.test`,
        favouriteColour: "teal",
        "urn:ietf:params:scim:schemas:extension:custom:2.0:User": { worksiteId: "180" },
        [ENTERPRISE_USER_SCHEMA]: { department: "R&D", unknown: 1 },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).not.toHaveProperty("favouriteColour");
    expect(res.body).not.toHaveProperty("urn:ietf:params:scim:schemas:extension:custom:2.0:User");
    expect(res.body[ENTERPRISE_USER_SCHEMA]).toEqual({ department: "R&D" });
    // An operation on an attribute the server does not keep changes nothing.
    const ignored = await scim(conn, `/Users/${res.body.id}`, {
      method: "PATCH",
      body: patchOp({ op: "add", path: "urn:ietf:params:scim:schemas:extension:custom:2.0:User:worksiteId", value: "181" }),
    });
    expect(ignored.status, ignored.text).toBe(200);
    expect(ignored.body.meta.version).toBe('W/"1"');
  });
});
