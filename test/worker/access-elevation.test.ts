/**
 * The access type decides which credentials are read (issue 10's security fix). A request is
 * never elevated by a credential of another level: every credential header is tried at every
 * access level, and the request must keep its declared level or fail on its own credential.
 * An owner's admin access token is read at every level (as the reference does, issue 27) but
 * keeps the level asked for: test/worker/admin-token-access.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type CallOptions, type CallResult, call, createProjectWithKeys, signUp } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
type Level = "client" | "server" | "admin";

let p: Project;
let victimId: string;
let endUserToken: string;

beforeAll(async () => {
  p = await createProjectWithKeys({ allow_user_api_keys: true });
  const victim = await signUp(p.client);
  victimId = victim.userId;
  endUserToken = (await signUp(p.client)).accessToken;
});

/** Every credential header, with a valid value for this project (read once the project exists). */
const CREDENTIALS: [string, () => CallOptions][] = [
  ["publishable client key", () => ({ publishableClientKey: p.client.publishableClientKey })],
  ["secret server key", () => ({ secretServerKey: p.server.secretServerKey })],
  ["super secret admin key", () => ({ superSecretAdminKey: p.adminKey.superSecretAdminKey })],
  ["owner's admin access token", () => ({ adminAccessToken: p.owner.accessToken })],
];

/** The level's own credential, or none. */
function own(level: Level): CallOptions {
  if (level === "client") return p.client;
  if (level === "server") return p.server;
  return p.adminKey;
}

function expectInsufficient(res: CallResult, actual: Level) {
  expect(res.status, res.text).toBe(401);
  expect(res.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  expect(res.body.details.actual_access_type).toBe(actual);
}

describe("a client request is never raised by server or admin credentials", () => {
  for (const [name, credential] of CREDENTIALS) {
    if (name === "publishable client key") continue;
    it(`client + ${name}: GET /users stays client-only`, async () => {
      expectInsufficient(await call("/users", { ...p.client, ...credential() }), "client");
    });
    it(`client without its key + ${name}: still a client`, async () => {
      expectInsufficient(await call("/users", { projectId: p.projectId, accessType: "client", ...credential() }), "client");
    });
    it(`client + user token + ${name}: cannot create an API key for another user`, async () => {
      const res = await call("/user-api-keys", {
        ...p.client,
        ...credential(),
        accessToken: endUserToken,
        body: { user_id: victimId, description: "stolen", expires_at_millis: null, is_public: false },
      });
      // Still a client: the wire's answer to a client naming another user is a plain 403.
      expect(res.status, res.text).toBe(403);
    });
    it(`client + user token + ${name}: /users/me is the client view`, async () => {
      const res = await call("/users/me", { ...p.client, ...credential(), accessToken: endUserToken });
      expect(res.status, res.text).toBe(200);
      expect(res.body).not.toHaveProperty("server_metadata");
    });
  }

  it("an ignored credential is not even checked: a garbage admin or secret key on a client request passes as client", async () => {
    const res = await call("/projects/current", { ...p.client, superSecretAdminKey: "x", secretServerKey: "y" });
    expect(res.status, res.text).toBe(200);
  });

  it("an admin access token is read on a client request (the reference's order): a garbage one is refused", async () => {
    const res = await call("/projects/current", { ...p.client, adminAccessToken: "garbage" });
    expect(res.status, res.text).toBe(401);
    expect(res.body.code).toBe("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  });
});

describe("a server request is never raised by admin credentials", () => {
  for (const [name, credential] of CREDENTIALS) {
    if (name === "secret server key") continue;
    it(`server + ${name}: an admin-only route stays refused`, async () => {
      expectInsufficient(await call("/internal/api-keys", { ...p.server, ...credential() }), "server");
    });
    // The owner's token stands in for the secret key and keeps the server level (the reference's rule).
    if (name === "owner's admin access token") {
      it(`server without its key + ${name}: a server request, still refused an admin-only route`, async () => {
        const own = { projectId: p.projectId, accessType: "server", ...credential() };
        expect((await call("/users", own)).status).toBe(200);
        expectInsufficient(await call("/internal/api-keys", own), "server");
      });
      continue;
    }
    it(`server without its key + ${name}: SERVER_AUTHENTICATION_REQUIRED`, async () => {
      const res = await call("/users", { projectId: p.projectId, accessType: "server", ...credential() });
      expect(res.status, res.text).toBe(401);
      expect(res.body.code).toBe("SERVER_AUTHENTICATION_REQUIRED");
    });
  }
});

describe("an admin request reads only the admin key or an owner's token", () => {
  for (const [name, credential] of CREDENTIALS) {
    if (name === "super secret admin key" || name === "owner's admin access token") continue;
    it(`admin with only the ${name}: ADMIN_AUTHENTICATION_REQUIRED`, async () => {
      const res = await call("/internal/api-keys", { projectId: p.projectId, accessType: "admin", ...credential() });
      expect(res.status, res.text).toBe(401);
      expect(res.body.code).toBe("ADMIN_AUTHENTICATION_REQUIRED");
    });
  }
  it("admin with the owner's token works, and a wrong admin key beside it is not read", async () => {
    const res = await call("/internal/api-keys", { ...p.admin, superSecretAdminKey: "wrong" });
    expect(res.status, res.text).toBe(200);
  });
  it("admin with the admin key works", async () => {
    expect((await call("/internal/api-keys", own("admin"))).status).toBe(200);
  });
  it("an end user's own token is no admin token", async () => {
    const res = await call("/internal/api-keys", { projectId: p.projectId, accessType: "admin", adminAccessToken: endUserToken });
    expect(res.status, res.text).toBe(401);
    expect(res.body.code).toBe("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });
});

describe("each level with its own credential", () => {
  for (const level of ["client", "server", "admin"] as const) {
    it(`${level} reads /projects/current`, async () => {
      expect((await call("/projects/current", own(level))).status).toBe(200);
    });
  }
});
