/** GET /api/v1 (and /api/latest): the welcome text, naming how the request authenticated, and its refusals. */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, internalAdmin, internalClient, internalServer, signUp } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const WELCOME = "Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.";

describe("GET /api/v1", () => {
  it("without credentials: Authentication: None, as text", async () => {
    const res = await call("");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.text).toBe(`${WELCOME}\n\nAuthentication: None`);
    for (const url of ["http://localhost/api/v1/", "http://localhost/api/latest"]) {
      const other = await workerFetch(url);
      expect(other.status, url).toBe(200);
      expect(await other.text()).toBe(`${WELCOME}\n\nAuthentication: None`);
    }
  });

  it("names the access type, the project and the user", async () => {
    for (const [creds, type] of [
      [internalClient, "Client"],
      [internalServer, "Server"],
      [internalAdmin, "Admin"],
    ] as const) {
      const res = await call("", creds);
      expect(res.status).toBe(200);
      expect(res.text).toBe(`${WELCOME}\n\nAuthentication: ${type}\n  Project: internal\n  User: None`);
    }
    const user = await signUp();
    const signedIn = await call("", { ...internalClient, accessToken: user.accessToken });
    expect(signedIn.text).toBe(`${WELCOME}\n\nAuthentication: Client\n  Project: internal\n  User: ${user.email}`);
  });

  it("refuses unknown query parameters with SCHEMA_ERROR", async () => {
    const res = await call("?extra=param");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("SCHEMA_ERROR");
    expect(res.body.details.message).toBe("Request validation failed on GET /api/v1:\n  - query contains unknown properties: extra");
  });

  it("answers the authentication errors: no project id, missing or invalid keys", async () => {
    expect((await call("", { accessType: "client" })).body.code).toBe("ACCESS_TYPE_WITHOUT_PROJECT_ID");
    expect((await call("", { ...internalServer, secretServerKey: "" })).body.code).toBe("SERVER_AUTHENTICATION_REQUIRED");
    const open = await createProjectWithKeys();
    const keyless = await call("", { projectId: open.projectId, accessType: "client" });
    expect(keyless.text).toBe(`${WELCOME}\n\nAuthentication: Client\n  Project: ${open.projectId}\n  User: None`);
    const invalid = await call("", { projectId: open.projectId, accessType: "client", publishableClientKey: "invalid-key" });
    expect([invalid.status, invalid.body.code]).toEqual([401, "INVALID_PUBLISHABLE_CLIENT_KEY"]);
    const strict = await createProjectWithKeys({ require_publishable_client_key: true });
    const missing = await call("", { projectId: strict.projectId, accessType: "client" });
    expect([missing.status, missing.body.code]).toEqual([401, "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT"]);
    expect((await call("", strict.client)).status).toBe(200);
  });
});
