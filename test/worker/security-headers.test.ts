/** API response headers (issue 11): nosniff everywhere, no-store on every body that carries a token or key. */

import { describe, expect, it } from "vitest";
import { call, internalClient, signUp, uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

describe("API response headers", () => {
  it("token answers are nosniff and no-store", async () => {
    const res = await call("/auth/password/sign-up", {
      ...internalClient,
      body: { email: uniqueEmail("hdr"), password: "correct horse battery" },
    });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeTruthy();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    const user = await signUp();
    const refreshed = await call("/auth/sessions/current/refresh", { ...internalClient, method: "POST", refreshToken: user.refreshToken });
    expect(refreshed.body.access_token).toBeTruthy();
    expect(refreshed.headers.get("x-content-type-options")).toBe("nosniff");
    expect(refreshed.headers.get("cache-control")).toMatch(/no-store/);
  });

  it("errors, public documents and unknown paths are nosniff too", async () => {
    for (const path of ["/users/me", "/projects/internal/.well-known/jwks.json", "/no-such-route", "/openapi.json"]) {
      const res = await call(path, internalClient);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });
});

describe("hostile bodies", () => {
  it("a body nested 5,000 levels deep is BODY_PARSING_ERROR, not a stack overflow", async () => {
    const deep = `${"[".repeat(5000)}1${"]".repeat(5000)}`;
    for (const path of ["/users/me", "/auth/password/sign-in"]) {
      const res = await workerFetch(`http://localhost/api/v1${path}`, {
        method: path === "/users/me" ? "PATCH" : "POST",
        headers: { "content-type": "application/json", "x-stack-project-id": "internal", "x-stack-access-type": "client" },
        body: path === "/users/me" ? `{"client_metadata":${deep}}` : deep,
      });
      expect(res.status).toBeLessThan(500);
    }
    const res = await workerFetch("http://localhost/api/v1/auth/password/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": "internal", "x-stack-access-type": "client" },
      body: `{"email":${"[".repeat(100)}${"]".repeat(100)}}`,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("x-stack-known-error")).toBe("BODY_PARSING_ERROR");
  });
});
