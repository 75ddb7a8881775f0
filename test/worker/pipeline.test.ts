/** The request pipeline: header auth matrix (wire §1), responses (§2), CORS, 404/405, parsing. */

import { DEV_PUBLISHABLE_CLIENT_KEY, PUBLIC_CLIENT_SENTINEL } from "@doorman/shared/constants";
import { describe, expect, it } from "vitest";
import { DEV_SECRET_SERVER_KEY } from "../../worker/internal-seed";
import { call, createProjectWithKeys, internalAdmin, internalClient, internalServer, signUp } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

function expectKnown(res: { status: number; headers: Headers; body: any }, code: string, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers.get("x-stack-known-error")).toBe(code);
  expect(res.headers.get("x-hexclave-known-error")).toBe(code);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.error).toBe("string");
}

describe("access types and keys", () => {
  it("a key without an access type is PROJECT_KEY_WITHOUT_ACCESS_TYPE", async () => {
    expectKnown(
      await call("/projects/current", { projectId: "internal", publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY }),
      "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
      400,
    );
  });
  it("no access type at all means an anonymous request: ACCESS_TYPE_REQUIRED where auth is needed", async () => {
    expectKnown(await call("/projects/current"), "ACCESS_TYPE_REQUIRED", 400);
  });
  it("an unknown access type is INVALID_ACCESS_TYPE", async () => {
    expectKnown(await call("/projects/current", { projectId: "internal", accessType: "superuser" }), "INVALID_ACCESS_TYPE", 400);
  });
  it("an access type without a project id is ACCESS_TYPE_WITHOUT_PROJECT_ID with request_type", async () => {
    const res = await call("/projects/current", { accessType: "client" });
    expectKnown(res, "ACCESS_TYPE_WITHOUT_PROJECT_ID", 400);
    expect(res.body.details).toEqual({ request_type: "client" });
  });
  it("an unknown project is CURRENT_PROJECT_NOT_FOUND before any key check", async () => {
    const res = await call("/projects/current", {
      projectId: "6f1a4f0e-3b5d-4c1e-9a7b-000000000000",
      accessType: "server",
      secretServerKey: "nope",
    });
    expectKnown(res, "CURRENT_PROJECT_NOT_FOUND", 400);
  });
  it("client access passes without a key and with the public sentinel", async () => {
    expect((await call("/projects/current", { projectId: "internal", accessType: "client" })).status).toBe(200);
    expect(
      (await call("/projects/current", { projectId: "internal", accessType: "client", publishableClientKey: PUBLIC_CLIENT_SENTINEL }))
        .status,
    ).toBe(200);
  });
  it("empty key headers count as absent", async () => {
    expectKnown(
      await call("/projects/current", { projectId: "internal", accessType: "server", secretServerKey: "" }),
      "SERVER_AUTHENTICATION_REQUIRED",
      401,
    );
    expect((await call("/projects/current", { projectId: "internal", accessType: "client", publishableClientKey: "" })).status).toBe(200);
  });
  it("wrong keys give their codes with project_id", async () => {
    const client = await call("/projects/current", { ...internalClient, publishableClientKey: "wrong" });
    expectKnown(client, "INVALID_PUBLISHABLE_CLIENT_KEY", 401);
    expect(client.body.details).toEqual({ project_id: "internal" });
    expectKnown(await call("/projects/current", { ...internalServer, secretServerKey: "wrong" }), "INVALID_SECRET_SERVER_KEY", 401);
    expectKnown(await call("/projects/current", { ...internalAdmin, superSecretAdminKey: "wrong" }), "INVALID_SUPER_SECRET_ADMIN_KEY", 401);
    expectKnown(await call("/projects/current", { projectId: "internal", accessType: "admin" }), "ADMIN_AUTHENTICATION_REQUIRED", 401);
  });
  it("a key of another access level does not authenticate", async () => {
    expectKnown(
      await call("/projects/current", { projectId: "internal", accessType: "server", publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY }),
      "SERVER_AUTHENTICATION_REQUIRED",
      401,
    );
  });
  it("requires a publishable key when the project says so", async () => {
    const p = await createProjectWithKeys({ require_publishable_client_key: true });
    expectKnown(
      await call("/projects/current", { projectId: p.projectId, accessType: "client" }),
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
      401,
    );
    expectKnown(
      await call("/projects/current", { projectId: p.projectId, accessType: "client", publishableClientKey: PUBLIC_CLIENT_SENTINEL }),
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
      401,
    );
    expect((await call("/projects/current", p.client)).status).toBe(200);
  });
  it("an endpoint above the caller's level is INSUFFICIENT_ACCESS_TYPE with details", async () => {
    const res = await call("/users", internalClient);
    expectKnown(res, "INSUFFICIENT_ACCESS_TYPE", 401);
    expect(res.body.details).toEqual({ actual_access_type: "client", allowed_access_types: ["server", "admin"] });
  });
  it("an unknown branch is BRANCH_DOES_NOT_EXIST after the keys", async () => {
    expectKnown(
      await call("/projects/current", { ...internalClient, headers: { "x-stack-branch-id": "dev" } }),
      "BRANCH_DOES_NOT_EXIST",
      400,
    );
    expectKnown(
      await call("/projects/current", { ...internalServer, secretServerKey: "bad", headers: { "x-stack-branch-id": "dev" } }),
      "INVALID_SECRET_SERVER_KEY",
      401,
    );
  });
});

describe("both header prefixes", () => {
  it("accepts x-hexclave-* exactly like x-stack-*", async () => {
    const user = await signUp({ ...internalClient, prefix: "x-hexclave" });
    const me = await call("/users/me", {
      ...internalServer,
      secretServerKey: DEV_SECRET_SERVER_KEY,
      accessToken: user.accessToken,
      prefix: "x-hexclave",
    });
    expect(me.status).toBe(200);
    expect(me.body.primary_email).toBe(user.email);
  });
  it("rejects the same header with disagreeing values", async () => {
    const res = await call("/projects/current", { ...internalClient, headers: { "x-hexclave-project-id": "other" } });
    expectKnown(res, "SCHEMA_ERROR", 400);
  });
  it("answers with both known-error and actual-status headers", async () => {
    const res = await call("/users", { ...internalClient, headers: { "x-hexclave-override-error-status": "true" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-stack-actual-status")).toBe("401");
    expect(res.headers.get("x-hexclave-actual-status")).toBe("401");
  });
});

describe("responses", () => {
  it("x-stack-override-error-status turns a 4xx into 200 and keeps the body", async () => {
    const res = await call("/users", { ...internalClient, headers: { "x-stack-override-error-status": "true" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-stack-actual-status")).toBe("401");
    expect(res.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });
  it("every response has a request id and no-store caching", async () => {
    const res = await call("/projects/current", internalClient);
    expect(res.headers.get("x-stack-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("cache-control")).toBe("no-store, max-age=0");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });
  it("unknown body keys are SCHEMA_ERROR with a bulleted message", async () => {
    const res = await call("/auth/password/sign-in", {
      ...internalClient,
      body: { email: "a@example.com", password: "12345678", extra: 1 },
    });
    expectKnown(res, "SCHEMA_ERROR", 400);
    expect(res.body.details.message).toMatch(/^Request validation failed on POST \/api\/v1\/auth\/password\/sign-in:\n {2}- /);
  });
  it("unknown query keys are SCHEMA_ERROR", async () => {
    expectKnown(await call("/users?bogus=1", internalServer), "SCHEMA_ERROR", 400);
  });
  it("malformed JSON is BODY_PARSING_ERROR", async () => {
    expectKnown(
      await call("/auth/password/sign-in", { ...internalClient, method: "POST", rawBody: "{not json", contentType: "application/json" }),
      "BODY_PARSING_ERROR",
      400,
    );
  });
  it("an unsupported content type is BODY_PARSING_ERROR", async () => {
    expectKnown(
      await call("/auth/password/sign-in", { ...internalClient, method: "POST", rawBody: "<a/>", contentType: "application/xml" }),
      "BODY_PARSING_ERROR",
      400,
    );
  });
  it("an oversized body is refused without a 500", async () => {
    const res = await call("/auth/password/sign-in", {
      ...internalClient,
      method: "POST",
      rawBody: JSON.stringify({ email: "x".repeat(1_100_000) }),
      contentType: "application/json",
    });
    expectKnown(res, "BODY_PARSING_ERROR", 400);
  });
  it("form-encoded bodies are parsed", async () => {
    const res = await call("/auth/password/sign-in", {
      ...internalClient,
      method: "POST",
      rawBody: "email=nobody%40example.com&password=whatever12",
      contentType: "application/x-www-form-urlencoded",
    });
    expectKnown(res, "EMAIL_PASSWORD_MISMATCH", 400);
  });
  it("wrong types are SCHEMA_ERROR, never 500", async () => {
    for (const body of [{ email: 5, password: [] }, [], "str", null, { email: "not-an-email", password: "12345678" }]) {
      const res = await call("/auth/password/sign-in", {
        ...internalClient,
        method: "POST",
        rawBody: JSON.stringify(body),
        contentType: "application/json",
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
  it("unknown paths are 404 text and wrong methods are 405", async () => {
    const missing = await workerFetch("http://localhost/api/v1/no-such-thing");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("text/plain");
    const wrongMethod = await workerFetch("http://localhost/api/v1/health", { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    const wrongMethod2 = await workerFetch("http://localhost/api/v1/auth/password/sign-in", { method: "GET" });
    expect(wrongMethod2.status).toBe(405);
  });
  it("/api/latest serves the same handlers", async () => {
    const res = await workerFetch("http://localhost/api/latest/health");
    expect(res.status).toBe(200);
  });
});

describe("CORS", () => {
  it("answers preflight with the wire's headers", async () => {
    const res = await workerFetch("http://localhost/api/v1/users/me", {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com", "access-control-request-method": "PATCH" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("PATCH");
    const allowed = res.headers.get("access-control-allow-headers") ?? "";
    for (const h of ["x-stack-project-id", "x-hexclave-access-token", "x-stack-allow-anonymous-user", "content-type"])
      expect(allowed).toContain(h);
    expect(res.headers.get("access-control-max-age")).toBe("86400");
  });
  it("exposes the known-error and actual-status headers", async () => {
    const res = await call("/projects/current", internalClient);
    const exposed = res.headers.get("access-control-expose-headers") ?? "";
    expect(exposed).toContain("x-stack-known-error");
    expect(exposed).toContain("x-stack-actual-status");
  });
});

describe("misc endpoints", () => {
  it("check-feature-support answers text", async () => {
    const res = await call("/check-feature-support", { ...internalClient, body: { feature_name: "payments" } });
    expect(res.status).toBe(200);
    expect(res.text).toContain("payments");
  });
});
