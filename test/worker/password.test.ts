/** Password and anonymous sign-in: flags, limits, duplicates (also racing), upgrades, imports. */
import { env } from "cloudflare:test";
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, internalClient, signUp, uniqueEmail } from "../helpers/api";

describe("password sign-up", () => {
  it("returns tokens and user id only (and Doorman's device token, issue 29)", async () => {
    const res = await call("/auth/password/sign-up", { ...internalClient, body: { email: uniqueEmail(), password: "long enough pw" } });
    expect(res.status).toBe(200);
    // The reference's three fields; `device_token` is Doorman's extra (the published SDK ignores unknown fields).
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "device_token", "refresh_token", "user_id"]);
    expect(res.body.refresh_token).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
  });

  it("enforces 8 to 70 characters with their codes", async () => {
    const short = await call("/auth/password/sign-up", { ...internalClient, body: { email: uniqueEmail(), password: "1234567" } });
    expect(short.body).toMatchObject({ code: "PASSWORD_TOO_SHORT", details: { min_length: 8 } });
    const long = await call("/auth/password/sign-up", { ...internalClient, body: { email: uniqueEmail(), password: "x".repeat(71) } });
    expect(long.body).toMatchObject({ code: "PASSWORD_TOO_LONG", details: { maxLength: 70 } });
    expect(
      (await call("/auth/password/sign-up", { ...internalClient, body: { email: uniqueEmail(), password: "x".repeat(70) } })).status,
    ).toBe(200);
  });

  it("a duplicate email is USER_EMAIL_ALREADY_EXISTS (409), case-insensitively", async () => {
    const user = await signUp();
    const res = await call("/auth/password/sign-up", {
      ...internalClient,
      body: { email: user.email.toUpperCase(), password: "another password" },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: "USER_EMAIL_ALREADY_EXISTS",
      details: { email: user.email, would_work_if_email_was_verified: false },
    });
  });

  it("two racing sign-ups with one email: exactly one wins, no 5xx", async () => {
    const email = uniqueEmail("race");
    const results = await Promise.all(
      Array.from({ length: 4 }, () => call("/auth/password/sign-up", { ...internalClient, body: { email, password: "racing password" } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM contact_channels WHERE value = ?").bind(email).first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("is gated by sign_up_enabled and credential_enabled", async () => {
    const noSignUp = await createProjectWithKeys({ sign_up_enabled: false });
    expect(
      (await call("/auth/password/sign-up", { ...noSignUp.client, body: { email: uniqueEmail(), password: "long enough pw" } })).body.code,
    ).toBe("SIGN_UP_NOT_ENABLED");
    const noPassword = await createProjectWithKeys({ credential_enabled: false });
    expect(
      (await call("/auth/password/sign-up", { ...noPassword.client, body: { email: uniqueEmail(), password: "long enough pw" } })).body
        .code,
    ).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED");
    expect(
      (await call("/auth/password/sign-in", { ...noPassword.client, body: { email: uniqueEmail(), password: "long enough pw" } })).body
        .code,
    ).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED");
  });

  it("stores an Argon2id PHC hash (m=19456, t=2, p=1), never the password", async () => {
    const user = await signUp();
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.userId).first<{ password_hash: string }>();
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(row?.password_hash).not.toContain(user.password);
  });
});

describe("trusted callback URLs", () => {
  it("checks verification_callback_url against the project's trusted domains", async () => {
    const p = await createProjectWithKeys({
      allow_localhost: false,
      domains: [{ domain: "https://app.example.com", handler_path: "/handler" }],
    });
    const body = (url: string) => ({ email: uniqueEmail(), password: "long enough pw", verification_callback_url: url });
    expect((await call("/auth/password/sign-up", { ...p.client, body: body("https://evil.example.net/cb") })).body.code).toBe(
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect((await call("/auth/password/sign-up", { ...p.client, body: body("http://localhost:3000/cb") })).body.code).toBe(
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect((await call("/auth/password/sign-up", { ...p.client, body: body("http://app.example.com/cb") })).body.code).toBe(
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect(
      (await call("/auth/password/sign-up", { ...p.client, body: body("https://app.example.com/handler/email-verification") })).status,
    ).toBe(200);
  });

  it("allows localhost when the project allows it, and wildcards", async () => {
    const p = await createProjectWithKeys({
      allow_localhost: true,
      domains: [{ domain: "https://*.example.org", handler_path: "/handler" }],
    });
    const body = (url: string) => ({ email: uniqueEmail(), password: "long enough pw", verification_callback_url: url });
    expect((await call("/auth/password/sign-up", { ...p.client, body: body("http://localhost:5173/cb") })).status).toBe(200);
    expect((await call("/auth/password/sign-up", { ...p.client, body: body("https://tenant.example.org/cb") })).status).toBe(200);
    expect((await call("/auth/password/sign-up", { ...p.client, body: body("https://example.org.evil.com/cb") })).body.code).toBe(
      "REDIRECT_URL_NOT_WHITELISTED",
    );
  });
});

describe("password sign-in", () => {
  it("signs in with the right password, fails with EMAIL_PASSWORD_MISMATCH otherwise", async () => {
    const user = await signUp();
    const ok = await call("/auth/password/sign-in", { ...internalClient, body: { email: user.email, password: user.password } });
    expect(ok.status).toBe(200);
    expect(ok.body.user_id).toBe(user.userId);
    const wrong = await call("/auth/password/sign-in", { ...internalClient, body: { email: user.email, password: "wrong password" } });
    expect(wrong.body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    const nobody = await call("/auth/password/sign-in", { ...internalClient, body: { email: uniqueEmail(), password: "whatever123" } });
    expect(nobody.body.code).toBe("EMAIL_PASSWORD_MISMATCH");
  });

  it("normalises passwords with NFKC (composed and decomposed forms match)", async () => {
    const email = uniqueEmail();
    await signUp(internalClient, email, "café-crème-1");
    const decomposed = "cafe\u0301-cre\u0300me-1";
    expect((await call("/auth/password/sign-in", { ...internalClient, body: { email, password: decomposed } })).status).toBe(200);
  });

  it("hashes every UTF-8 byte of a non-ASCII password (no truncation to its UTF-16 length)", async () => {
    const email = uniqueEmail();
    // 8 UTF-16 units, 16 UTF-8 bytes: a wrapper that passed the string's length would hash only "пар".
    await signUp(internalClient, email, "парольпа");
    const signIn = (password: string) => call("/auth/password/sign-in", { ...internalClient, body: { email, password } });
    expect((await signIn("парольпа")).status).toBe(200);
    expect((await signIn("парольпб")).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    expect((await signIn("парольпаX")).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
  });

  it("verifies a hash made before Argon2id (scrypt) and upgrades it on sign-in", async () => {
    const user = await signUp(internalClient, uniqueEmail("legacy"), "legacy scrypt pw");
    // The scrypt PHC string Doorman stored before Argon2id, for the same password (N=2^14, r=8, p=5).
    const { scryptSync } = await import("node:crypto");
    const salt = new Uint8Array(16).fill(7);
    const key = scryptSync("legacy scrypt pw", salt, 32, { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
    const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
    const legacy = `$scrypt$ln=14,r=8,p=5$${b64(salt)}$${b64(new Uint8Array(key))}`;
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(legacy, user.userId).run();
    const signIn = (password: string) => call("/auth/password/sign-in", { ...internalClient, body: { email: user.email, password } });
    expect((await signIn("wrong scrypt pw")).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    expect((await signIn("legacy scrypt pw")).status).toBe(200);
    let hash = legacy;
    for (let i = 0; i < 20 && hash === legacy; i++) {
      hash = (await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.userId).first<{ password_hash: string }>())!
        .password_hash;
      if (hash === legacy) await new Promise((r) => setTimeout(r, 50));
    }
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await signIn("legacy scrypt pw")).status).toBe(200);
  });

  it("a stored Argon2id hash with out-of-bounds parameters fails closed instead of running", async () => {
    const user = await signUp(internalClient, uniqueEmail("bounds"), "bounded params pw");
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.userId).first<{ password_hash: string }>();
    // 4 GiB of memory, or 1000 passes: a tampered row must not take the isolate's memory or CPU.
    for (const params of ["m=4194304,t=2,p=1", "m=19456,t=1000,p=1"]) {
      const tampered = row!.password_hash.replace("m=19456,t=2,p=1", params);
      await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(tampered, user.userId).run();
      const res = await call("/auth/password/sign-in", { ...internalClient, body: { email: user.email, password: "bounded params pw" } });
      expect(res.body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    }
  });

  it("verifies an imported bcrypt hash and upgrades it to Argon2id", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("import");
    const created = await call("/users", {
      ...p.server,
      body: { primary_email: email, primary_email_auth_enabled: true, password_hash: bcrypt.hashSync("imported secret", 4) },
    });
    expect(created.status).toBe(201);
    expect(created.body.has_password).toBe(true);
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email, password: "wrong secret" } })).body.code).toBe(
      "EMAIL_PASSWORD_MISMATCH",
    );
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email, password: "imported secret" } })).status).toBe(200);
    let hash = "";
    for (let i = 0; i < 20 && !hash.startsWith("$argon2id$"); i++) {
      hash = (await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?")
        .bind(created.body.id)
        .first<{ password_hash: string }>())!.password_hash;
      if (!hash.startsWith("$argon2id$")) await new Promise((r) => setTimeout(r, 50));
    }
    expect(hash).toMatch(/^\$argon2id\$/);
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email, password: "imported secret" } })).status).toBe(200);
  });

  it("rejects a password_hash that is not bcrypt", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/users", { ...p.server, body: { primary_email: uniqueEmail(), password_hash: "md5:abc" } });
    expect([res.status, res.text]).toEqual([400, "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format."]);
  });
});

describe("anonymous sign-up", () => {
  it("creates an anonymous user that password sign-up upgrades in place", async () => {
    const anon = await call("/auth/anonymous/sign-up", { ...internalClient, method: "POST" });
    expect(anon.status).toBe(200);
    const token = anon.body.access_token;
    const blocked = await call("/users/me", { ...internalClient, accessToken: token });
    expect(blocked.body.code).toBe("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    const me = await call("/users/me", { ...internalClient, accessToken: token, allowAnonymous: true });
    expect(me.body).toMatchObject({
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: "anonymous" },
      primary_email: null,
    });

    const email = uniqueEmail("upgrade");
    const up = await call("/auth/password/sign-up", {
      ...internalClient,
      accessToken: token,
      allowAnonymous: true,
      body: { email, password: "upgrade password" },
    });
    expect(up.status).toBe(200);
    expect(up.body.user_id).toBe(anon.body.user_id);
    const after = await call("/users/me", { ...internalClient, accessToken: up.body.access_token });
    expect(after.body).toMatchObject({ id: anon.body.user_id, is_anonymous: false, primary_email: email, has_password: true });
  });

  it("a sign-up keeps the request's country; an upgraded anonymous user keeps a country set meanwhile", async () => {
    const p = await createProjectWithKeys();
    const fromCa = await call("/auth/password/sign-up", {
      ...p.client,
      headers: { "cf-ipcountry": "CA" },
      body: { email: uniqueEmail("ca"), password: "long enough pw" },
    });
    expect((await call(`/users/${fromCa.body.user_id}`, p.server)).body.country_code).toBe("CA");

    const anon = await call("/auth/anonymous/sign-up", { ...p.client, method: "POST" });
    await call(`/users/${anon.body.user_id}`, { ...p.server, method: "PATCH", body: { country_code: "FR" } });
    const up = await call("/auth/password/sign-up", {
      ...p.client,
      accessToken: anon.body.access_token,
      allowAnonymous: true,
      headers: { "cf-ipcountry": "DE" },
      body: { email: uniqueEmail("fr"), password: "upgrade password" },
    });
    expect(up.status, up.text).toBe(200);
    expect((await call(`/users/${anon.body.user_id}`, p.server)).body.country_code).toBe("FR");
  });

  it("rejects a body", async () => {
    const res = await call("/auth/anonymous/sign-up", { ...internalClient, body: { anything: 1 } });
    expect(res.body.code).toBe("SCHEMA_ERROR");
  });
});

describe("password update and set", () => {
  it("update checks the old password, keeps this session and ends the others", async () => {
    const user = await signUp();
    const other = await call("/auth/password/sign-in", { ...internalClient, body: { email: user.email, password: user.password } });
    const wrong = await call("/auth/password/update", {
      ...internalClient,
      accessToken: user.accessToken,
      body: { old_password: "not it at all", new_password: "new password 1" },
    });
    expect(wrong.body.code).toBe("PASSWORD_CONFIRMATION_MISMATCH");
    const short = await call("/auth/password/update", {
      ...internalClient,
      accessToken: user.accessToken,
      body: { old_password: user.password, new_password: "short" },
    });
    expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
    const ok = await call("/auth/password/update", {
      ...internalClient,
      accessToken: user.accessToken,
      body: { old_password: user.password, new_password: "new password 1" },
    });
    expect(ok.body).toEqual({ success: true });
    expect(
      (await call("/auth/sessions/current/refresh", { ...internalClient, method: "POST", refreshToken: user.refreshToken })).status,
    ).toBe(200);
    expect(
      (await call("/auth/sessions/current/refresh", { ...internalClient, method: "POST", refreshToken: other.body.refresh_token })).status,
    ).toBe(401);
    expect(
      (await call("/auth/password/sign-in", { ...internalClient, body: { email: user.email, password: user.password } })).body.code,
    ).toBe("EMAIL_PASSWORD_MISMATCH");
    expect(
      (await call("/auth/password/sign-in", { ...internalClient, body: { email: user.email, password: "new password 1" } })).status,
    ).toBe(200);
  });

  it("update without a password is USER_DOES_NOT_HAVE_PASSWORD; set works once", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("nopw");
    const created = await call("/users", { ...p.server, body: { primary_email: email, primary_email_auth_enabled: true } });
    const session = await call("/auth/sessions", { ...p.server, body: { user_id: created.body.id } });
    const token = session.body.access_token;
    const update = await call("/auth/password/update", {
      ...p.client,
      accessToken: token,
      body: { old_password: "whatever12", new_password: "new password 1" },
    });
    expect(update.body.code).toBe("USER_DOES_NOT_HAVE_PASSWORD");
    expect((await call("/auth/password/set", { ...p.client, accessToken: token, body: { password: "first password" } })).body).toEqual({
      success: true,
    });
    const again = await call("/auth/password/set", { ...p.client, accessToken: token, body: { password: "second password" } });
    expect(again.status).toBe(400);
    expect(again.text).toBe("User already has a password set.");
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email, password: "first password" } })).status).toBe(200);
  });

  it("set is PASSWORD_AUTHENTICATION_NOT_ENABLED when the project has no password sign-in", async () => {
    const p = await createProjectWithKeys({ credential_enabled: false });
    const created = await call("/users", { ...p.server, body: { primary_email: uniqueEmail("nopw-off") } });
    const session = await call("/auth/sessions", { ...p.server, body: { user_id: created.body.id } });
    const res = await call("/auth/password/set", {
      ...p.client,
      accessToken: session.body.access_token,
      body: { password: "first password" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED");
  });

  it("needs a signed-in user", async () => {
    const res = await call("/auth/password/update", {
      ...internalClient,
      body: { old_password: "a long one", new_password: "another one" },
    });
    // As the reference: its request schema requires auth.user (issue 11, the wire's exact errors).
    expect(res.body.code).toBe("SCHEMA_ERROR");
  });
});
