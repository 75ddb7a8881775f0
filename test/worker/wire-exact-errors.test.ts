/** The wire's exact errors (issue 11): the answers the reference implementation's own tests expect. */

import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../worker/config";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";
import { call, createProjectWithKeys, internalClient, internalServer, signUp, uniqueEmail } from "../helpers/api";
import { sinkEmailConfig } from "../helpers/mail";
import { authorizeUrl, fetchWorker } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker-fetch";

async function tokenGrant(fields: Record<string, string>) {
  const res = await workerFetch("http://localhost/api/v1/auth/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, code: res.headers.get("x-stack-known-error"), body: (await res.json()) as any };
}

describe("a route that needs a user, called without one", () => {
  it("password update/set: SCHEMA_ERROR 'auth.user must be defined', as the reference's request schema answers", async () => {
    const update = await call("/auth/password/update", {
      ...internalClient,
      body: { old_password: "a long one", new_password: "another" },
    });
    expect(update.status).toBe(400);
    expect(update.body.code).toBe("SCHEMA_ERROR");
    expect(update.body.error).toBe("Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined");
    const set = await call("/auth/password/set", { ...internalClient, body: { password: "a long one" } });
    expect(set.body.code).toBe("SCHEMA_ERROR");
    expect(set.body.error).toMatch(/auth\.user must be defined$/);
  });

  it("GET /users/me keeps CANNOT_GET_OWN_USER_WITHOUT_USER: the reference's current-user handler throws it (the SDK reads it as null)", async () => {
    const res = await call("/users/me", internalClient);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });
});

describe("unknown user ids", () => {
  it("/users/{id}: USER_NOT_FOUND (404) on GET, PATCH and DELETE, as the reference's users handler; sessions: USER_ID_DOES_NOT_EXIST", async () => {
    const id = crypto.randomUUID();
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const res = await call(`/users/${id}`, { ...internalServer, method, ...(method === "PATCH" ? { body: { display_name: "x" } } : {}) });
      expect([method, res.status, res.body.code]).toEqual([method, 404, "USER_NOT_FOUND"]);
    }
    const session = await call("/auth/sessions", { ...internalServer, body: { user_id: id } });
    expect(session.status).toBe(400);
    expect(session.body).toMatchObject({ code: "USER_ID_DOES_NOT_EXIST", details: { user_id: id } });
  });
});

describe("POST /auth/oauth/token with a bad client", () => {
  it("wrong secret, unknown client id, another branch: INVALID_OAUTH_CLIENT_ID_OR_SECRET (400)", async () => {
    const user = await signUp();
    const base = {
      grant_type: "refresh_token",
      refresh_token: user.refreshToken,
      client_id: "internal",
      client_secret: DEV_PUBLISHABLE_CLIENT_KEY,
    };
    for (const bad of [{ client_secret: "wrong" }, { client_id: crypto.randomUUID() }, { client_id: "internal#dev" }]) {
      const res = await tokenGrant({ ...base, ...bad });
      expect([res.status, res.code, res.body.code]).toEqual([
        400,
        "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
        "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
      ]);
    }
  });
});

describe("POST /users with password and password_hash", () => {
  it("is a plain 400, as the reference; PATCH the same", async () => {
    const hash = "$2a$10$TVyY/gpw9Db/w1fBeJkCgeNg2Rae2JfNqrSBNRgWQ1nJyJ4XwVvwa";
    const created = await call("/users", {
      ...internalServer,
      body: { primary_email: uniqueEmail("both"), password: "a long password", password_hash: hash },
    });
    expect(created.status).toBe(400);
    expect(created.text).toBe("Cannot set both password and password_hash at the same time.");
    const user = await signUp();
    const patched = await call(`/users/${user.userId}`, {
      ...internalServer,
      method: "PATCH",
      body: { password: null, password_hash: hash },
    });
    expect(patched.status).toBe(400);
  });
});

describe("OTP send-sign-in-code with sign-ups disabled", () => {
  it("an unknown email is SIGN_UP_NOT_ENABLED at send time; a known one still gets its code", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true, sign_up_enabled: false, email_config: sinkEmailConfig() });
    const callback = "http://localhost:3000/handler/magic-link-callback";
    const res = await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { email: uniqueEmail("nosignup"), callback_url: callback },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("SIGN_UP_NOT_ENABLED");
    const email = uniqueEmail("known");
    expect(
      (
        await call("/users", {
          ...p.server,
          body: { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true },
        })
      ).status,
    ).toBe(201);
    expect((await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: callback } })).status).toBe(200);
  });
});

describe("the OAuth inner state cookie", () => {
  it("sets its attributes in the reference's order: Path=/; Expires; Max-Age; HttpOnly", async () => {
    const p = await createProjectWithKeys({ oauth_providers: [{ id: "github", type: "shared" }] });
    const res = await fetchWorker(authorizeUrl(p.client));
    expect(res.status).toBe(307);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("stack-oauth-inner-"));
    expect(cookie).toMatch(/^stack-oauth-inner-[^;]+=[^;]+; Path=\/; Expires=[^;]+; Max-Age=\d+;( Secure;)? HttpOnly$/);
    expect(cookie).toMatch(/Max-Age=600;/);
  });
});

describe("STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING", () => {
  it("is off by default and refused in production", () => {
    expect(readConfig({ ENVIRONMENT: "development" }).hardcodedPasskeyChallenge).toBe(false);
    expect(
      readConfig({ ENVIRONMENT: "development", STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true" }).hardcodedPasskeyChallenge,
    ).toBe(true);
    expect(() =>
      readConfig({
        ENVIRONMENT: "production",
        SERVER_SECRET: "a".repeat(64),
        STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true",
      }),
    ).toThrow(/STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING is development-only/);
  });

  it("when on, passkey ceremonies use the reference's fixed challenge 'MOCK' (TU9DSw); otherwise a random one", async () => {
    const p = await createProjectWithKeys({
      passkey_enabled: true,
      domains: [{ domain: "http://localhost:3000", handler_path: "/handler" }],
    });
    const initiate = async (workerEnv: Env) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request("http://localhost/api/v1/auth/passkey/initiate-passkey-authentication", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-stack-project-id": p.projectId,
            "x-stack-access-type": "client",
            "x-stack-publishable-client-key": p.client.publishableClientKey,
          },
          body: "{}",
        }),
        workerEnv,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return (await res.json()) as { options_json: { challenge: string } };
    };
    const fixed = await initiate({ ...env, STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true" } as Env);
    expect(fixed.options_json.challenge).toBe("TU9DSw");
    const random = await initiate(env as Env);
    expect(random.options_json.challenge).not.toBe("TU9DSw");
  });
});
