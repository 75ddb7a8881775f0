/**
 * POST /auth/oauth/cross-domain/authorize and its code at /auth/oauth/token: the handoff of an
 * existing session (same refresh token), PKCE, single use, trusted URLs, access-token binding.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type CallOptions, call, createProjectWithKeys, type SignedUp, signUp } from "../helpers/api";
import { s256 } from "../helpers/oauth";

const VERIFIER = "W2LPAD4M4ES-3wBjzU6J5ApykmuxQy5VTs3oSmtboDM";
const CALLBACK = "http://localhost:3000/handler/oauth-callback?stack_cross_domain_auth=1";
const AFTER = "http://localhost:3000/after-sign-in";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

async function handoff(p: Project, auth: { accessToken?: string; refreshToken?: string }, body: Record<string, unknown> = {}) {
  return call("/auth/oauth/cross-domain/authorize", {
    ...p.client,
    ...auth,
    body: {
      redirect_uri: CALLBACK,
      state: "cross-domain-state",
      code_challenge: await s256(VERIFIER),
      code_challenge_method: "S256",
      after_callback_redirect_url: AFTER,
      ...body,
    },
  });
}

function exchange(p: Project, code: string, o: { redirectUri?: string; verifier?: string } = {}) {
  return call("/auth/oauth/token", {
    body: {
      grant_type: "authorization_code",
      client_id: p.projectId,
      client_secret: p.client.publishableClientKey,
      code,
      redirect_uri: o.redirectUri ?? CALLBACK,
      code_verifier: o.verifier ?? VERIFIER,
    },
  });
}

async function codeFor(p: Project, user: SignedUp, body: Record<string, unknown> = {}) {
  const res = await handoff(p, user, body);
  expect(res.status).toBe(200);
  return new URL(res.body.redirect_url).searchParams.get("code")!;
}

const refresh = (p: Project, refreshToken: string) =>
  call("/auth/sessions/current/refresh", { ...(p.client as CallOptions), method: "POST", refreshToken });

describe("POST /auth/oauth/cross-domain/authorize", () => {
  it("redirects with a one-time code and the state; the code yields the same session's refresh token", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const res = await handoff(p, user);
    expect(res.status).toBe(200);
    const redirect = new URL(res.body.redirect_url);
    expect(`${redirect.origin}${redirect.pathname}`).toBe("http://localhost:3000/handler/oauth-callback");
    expect(redirect.searchParams.get("stack_cross_domain_auth")).toBe("1");
    expect(redirect.searchParams.get("state")).toBe("cross-domain-state");
    const code = redirect.searchParams.get("code")!;

    const token = await exchange(p, code);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({
      refresh_token: user.refreshToken,
      is_new_user: false,
      after_callback_redirect_url: AFTER,
      afterCallbackRedirectUrl: AFTER,
    });
    const me = await call("/users/me", { ...p.client, accessToken: token.body.access_token });
    expect(me.body.id).toBe(user.userId);
    // No new session: the user still has exactly the one they handed over.
    const sessions = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(user.userId).first<{ n: number }>();
    expect(sessions?.n).toBe(1);
  });

  it("stores the refresh token sealed in the code row, never readable", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    await codeFor(p, user);
    const row = await env.DB.prepare("SELECT data FROM verification_codes WHERE project_id = ? AND purpose = 'oauth_authorization_code'")
      .bind(p.projectId)
      .first<{ data: string }>();
    expect(row?.data).toBeDefined();
    expect(row!.data).not.toContain(user.refreshToken);
  });

  it("refuses a replayed code, and the replay revokes the handed-over session", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const code = await codeFor(p, user);
    expect((await exchange(p, code)).status).toBe(200);
    const again = await exchange(p, code);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVALID_AUTHORIZATION_CODE");
    expect((await refresh(p, user.refreshToken)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("refuses a wrong PKCE verifier and a different redirect_uri", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const code = await codeFor(p, user);
    const wrong = await exchange(p, code, { verifier: "this-is-an-invalid-pkce-verifier" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_AUTHORIZATION_CODE");
    const otherUri = await exchange(p, code, { redirectUri: "http://localhost:3000/handler/oauth-callback" });
    expect(otherUri.status).toBe(400);
    // The right verifier still works: failures do not use the code up.
    expect((await exchange(p, code)).status).toBe(200);
  });

  it("refuses untrusted redirect and after-callback URLs before issuing a code", async () => {
    const p = await createProjectWithKeys({
      allow_localhost: false,
      domains: [{ domain: "https://app.example.com", handler_path: "/handler" }],
    });
    const user = await signUp(p.client);
    for (const body of [
      { redirect_uri: "https://evil.example.com/oauth/callback", after_callback_redirect_url: "https://app.example.com/after" },
      { redirect_uri: "https://app.example.com/handler/oauth-callback", after_callback_redirect_url: "https://evil.example.com/post-auth" },
      { redirect_uri: "http://localhost:3000/handler/oauth-callback", after_callback_redirect_url: "https://app.example.com/after" },
      { redirect_uri: "https://app.example.com.evil.com/cb", after_callback_redirect_url: undefined },
    ]) {
      const res = await handoff(p, user, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get("x-stack-known-error")).toBe("REDIRECT_URL_NOT_WHITELISTED");
    }
    const codes = await env.DB.prepare(
      "SELECT count(*) AS n FROM verification_codes WHERE project_id = ? AND purpose = 'oauth_authorization_code'",
    )
      .bind(p.projectId)
      .first<{ n: number }>();
    expect(codes?.n).toBe(0);
    const trusted = await handoff(p, user, {
      redirect_uri: "https://app.example.com/handler/oauth-callback",
      after_callback_redirect_url: "https://app.example.com/after",
    });
    expect(trusted.status).toBe(200);
  });

  it("accepts the native apps' redirect scheme", async () => {
    const p = await createProjectWithKeys({ allow_localhost: false, domains: [] });
    const user = await signUp(p.client);
    const res = await handoff(p, user, { redirect_uri: "stack-auth-mobile-oauth-url://success", after_callback_redirect_url: undefined });
    expect(res.status).toBe(200);
    expect(res.body.redirect_url).toMatch(/^stack-auth-mobile-oauth-url:\/\/success\?code=/);
  });

  it("needs a signed-in user: no access token, or only a refresh token, is USER_AUTHENTICATION_REQUIRED", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    for (const auth of [{}, { refreshToken: user.refreshToken }]) {
      const res = await handoff(p, auth);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("USER_AUTHENTICATION_REQUIRED");
    }
  });

  it("binds the refresh token to the access token's session", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const missing = await handoff(p, { accessToken: user.accessToken });
    expect(missing.status).toBe(400);
    expect(missing.text).toBe("Cross-domain auth handoff requires passing the current refresh token.");

    const wrong = await handoff(p, {
      accessToken: user.accessToken,
      refreshToken: "this-refresh-token-does-not-match-the-current-session",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toBe("Cross-domain auth handoff refresh token does not match the authenticated session.");

    // The same user's other session, and another user's session: both refused.
    const second = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    const other = await signUp(p.client);
    for (const refreshToken of [second.body.refresh_token as string, other.refreshToken]) {
      const res = await handoff(p, { accessToken: user.accessToken, refreshToken });
      expect(res.status).toBe(401);
    }
    // Another project's session of the same refresh token string cannot match either.
    const q = await createProjectWithKeys();
    const elsewhere = await call("/auth/oauth/cross-domain/authorize", {
      ...q.client,
      accessToken: user.accessToken,
      refreshToken: user.refreshToken,
      body: { redirect_uri: CALLBACK, state: "s", code_challenge: await s256(VERIFIER) },
    });
    expect(elsewhere.status).toBe(401);
  });

  it("refuses a signed-out session, and a code whose session signed out before the exchange", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const code = await codeFor(p, user);
    const out = await call("/auth/sessions/current", { ...p.client, method: "DELETE", accessToken: user.accessToken });
    expect(out.status).toBe(200);
    const token = await exchange(p, code);
    expect(token.status).toBe(400);
    expect(token.body.code).toBe("INVALID_AUTHORIZATION_CODE");
    const after = await handoff(p, user);
    expect(after.status).toBe(401);
  });

  it("answers bad input with SCHEMA_ERROR, never a 500", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    for (const body of [
      { code_challenge: "too-short" },
      { code_challenge: "x".repeat(129) },
      { code_challenge: `${"a".repeat(42)}+` },
      { code_challenge_method: "plain" },
      { redirect_uri: "not a url" },
      { after_callback_redirect_url: "nope" },
      { state: "" },
      { state: "s".repeat(513) },
      { unexpected: true },
    ]) {
      const res = await handoff(p, user, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("SCHEMA_ERROR");
    }
    const noBody = await call("/auth/oauth/cross-domain/authorize", {
      ...p.client,
      ...user,
      rawBody: "{",
      contentType: "application/json",
    });
    expect(noBody.status).toBe(400);
  });

  it("a TOTP user confirms the second factor at the exchange", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const secret = btoa(String.fromCharCode(...Array.from({ length: 20 }, (_, i) => i * 7 + 3)));
    const patched = await call("/users/me", {
      ...p.client,
      accessToken: user.accessToken,
      method: "PATCH",
      body: { totp_secret_base64: secret },
    });
    expect(patched.status).toBe(200);
    const code = await codeFor(p, user);
    const token = await exchange(p, code);
    expect(token.status).toBe(400);
    expect(token.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
  });
});
