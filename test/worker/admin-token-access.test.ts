/**
 * An owner's admin access token on client and server requests (issue 27, item 1), as the reference
 * does (smart-request.tsx parseAuth: the admin token replaces the key check at every access type).
 * The token stands in for the level's key, which is then not read; the request keeps the access
 * type it asked for (never raised); only the owner's own projects open; a bad, expired, foreign or
 * signed-out token answers the INVALID_ADMIN_ACCESS_TOKEN errors at every level.
 */
import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { beforeAll, describe, expect, it } from "vitest";
import { type CallResult, call, createProjectWithKeys, internalClient, type SignedUp, signUp, uniqueEmail } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

let p: Project;
let other: Project;
let endUser: SignedUp;

beforeAll(async () => {
  [p, other] = await Promise.all([
    createProjectWithKeys({ require_publishable_client_key: true, allow_user_api_keys: true }),
    createProjectWithKeys(),
  ]);
  endUser = await signUp(p.client);
});

const server = (token: string) => ({ projectId: p.projectId, accessType: "server", adminAccessToken: token }) as const;
const client = (token: string) => ({ projectId: p.projectId, accessType: "client", adminAccessToken: token }) as const;

function expectKnown(res: CallResult, code: string, status = 401) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.code).toBe(code);
  expect(res.headers.get("x-stack-known-error")).toBe(code);
}

describe("a server request with only the owner's token", () => {
  it("POST /users is answered 201 with the server view (the reference's e2e after Project.createAndSwitch)", async () => {
    const res = await call("/users", { ...server(p.owner.accessToken), body: { primary_email: uniqueEmail("owner-srv") } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toHaveProperty("server_metadata");
    const read = await call(`/users/${res.body.id}`, server(p.owner.accessToken));
    expect(read.status, read.text).toBe(200);
    expect(read.body.id).toBe(res.body.id);
  });

  it("is a server request: admin-only routes answer INSUFFICIENT_ACCESS_TYPE", async () => {
    const res = await call("/internal/api-keys", server(p.owner.accessToken));
    expectKnown(res, "INSUFFICIENT_ACCESS_TYPE");
    expect(res.body.details).toMatchObject({ actual_access_type: "server" });
  });

  it("does not read a secret key beside the token (a wrong one is ignored, as in the reference)", async () => {
    const res = await call("/users", { ...server(p.owner.accessToken), secretServerKey: "wrong" });
    expect(res.status, res.text).toBe(200);
  });

  it("is recorded as the server level, named by the owner", async () => {
    const created = await call("/users", { ...server(p.owner.accessToken), body: { primary_email: uniqueEmail("owner-ev") } });
    expect(created.status, created.text).toBe(201);
    const events = await call(`/internal/events?type=user.created`, p.admin);
    const event = events.body.items.find((e: { user_id: string }) => e.user_id === created.body.id);
    expect(event.actor).toEqual({ type: "server", id: p.owner.userId });
  });
});

describe("a client request with only the owner's token", () => {
  it("needs no publishable key, even where the project requires one", async () => {
    expectKnown(
      await call("/projects/current", { projectId: p.projectId, accessType: "client" }),
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
    );
    expect((await call("/projects/current", client(p.owner.accessToken))).status).toBe(200);
    // A wrong publishable key beside the token is not read.
    expect((await call("/projects/current", { ...client(p.owner.accessToken), publishableClientKey: "wrong" })).status).toBe(200);
  });

  it("stays a client request: /users/me is the signed-in user's client view", async () => {
    const res = await call("/users/me", { ...client(p.owner.accessToken), accessToken: endUser.accessToken });
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(endUser.userId);
    expect(res.body).not.toHaveProperty("server_metadata");
  });

  it("cannot reach server-only or admin-only routes", async () => {
    for (const path of ["/users", "/internal/api-keys", "/internal/projects/current"]) {
      const res = await call(path, client(p.owner.accessToken));
      expectKnown(res, "INSUFFICIENT_ACCESS_TYPE");
      expect(res.body.details).toMatchObject({ actual_access_type: "client" });
    }
  });

  it("cannot act on another user through a client route", async () => {
    const victim = await signUp(p.client);
    const res = await call("/user-api-keys", {
      ...client(p.owner.accessToken),
      accessToken: endUser.accessToken,
      body: { user_id: victim.userId, description: "stolen", expires_at_millis: null, is_public: false },
    });
    // The wire's answer to a client naming another user: a plain 403.
    expect(res.status).toBe(403);
    // The same call for the signed-in user is a client's own business.
    const own = await call("/user-api-keys", {
      ...client(p.owner.accessToken),
      accessToken: endUser.accessToken,
      body: { user_id: endUser.userId, description: "mine", expires_at_millis: null, is_public: false },
    });
    expect(own.status, own.text).toBeLessThan(300);
  });
});

describe("tokens that do not open this project, at client and server level", () => {
  const levels = [
    ["client", client],
    ["server", server],
  ] as const;

  for (const [level, as] of levels) {
    it(`${level}: another project's owner is ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN (tenants stay apart)`, async () => {
      expectKnown(await call("/projects/current", as(other.owner.accessToken)), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
      // Their own project still opens with it.
      const own = await call("/projects/current", { ...as(other.owner.accessToken), projectId: other.projectId });
      expect(own.status, own.text).toBe(200);
    });

    it(`${level}: an internal user who owns nothing is ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN`, async () => {
      const stranger = await signUp();
      expectKnown(await call("/projects/current", as(stranger.accessToken)), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
    });

    it(`${level}: the project's own end user is ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN (not an internal session)`, async () => {
      expectKnown(await call("/projects/current", as(endUser.accessToken)), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
    });

    it(`${level}: an anonymous internal session is UNPARSABLE_ADMIN_ACCESS_TOKEN (the reference decodes admin tokens without anonymous users)`, async () => {
      const anon = await call("/auth/anonymous/sign-up", { ...internalClient, method: "POST" });
      expect(anon.status, anon.text).toBe(200);
      expectKnown(await call("/projects/current", as(anon.body.access_token)), "UNPARSABLE_ADMIN_ACCESS_TOKEN");
    });

    it(`${level}: garbage is UNPARSABLE_ADMIN_ACCESS_TOKEN, even beside a valid key`, async () => {
      expectKnown(await call("/projects/current", as("garbage")), "UNPARSABLE_ADMIN_ACCESS_TOKEN");
      const key = level === "client" ? p.client : p.server;
      expectKnown(await call("/projects/current", { ...key, adminAccessToken: "garbage" }), "UNPARSABLE_ADMIN_ACCESS_TOKEN");
    });

    it(`${level}: an expired token is ADMIN_ACCESS_TOKEN_EXPIRED with expired_at_millis`, async () => {
      const res = await call("/projects/current", { ...as(p.owner.accessToken), nowMs: Date.now() + 11 * 60_000 });
      expectKnown(res, "ADMIN_ACCESS_TOKEN_EXPIRED");
      expect(typeof res.body.details.expired_at_millis).toBe("number");
    });
  }

  it("a signed-out owner's token is refused at every level (the session ended)", async () => {
    const q = await createProjectWithKeys();
    const owner = { projectId: q.projectId, adminAccessToken: q.owner.accessToken };
    for (const accessType of ["client", "server", "admin"])
      expect((await call("/projects/current", { ...owner, accessType })).status).toBe(200);
    const signOut = await call("/auth/sessions/current", {
      projectId: "internal",
      accessType: "client",
      publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY,
      method: "DELETE",
      body: {},
      accessToken: q.owner.accessToken,
    });
    expect(signOut.status, signOut.text).toBe(200);
    for (const accessType of ["client", "server", "admin"]) {
      expectKnown(await call("/projects/current", { ...owner, accessType }), "UNPARSABLE_ADMIN_ACCESS_TOKEN");
    }
    // The project's own keys still work.
    expect((await call("/projects/current", q.server)).status).toBe(200);
  });
});
