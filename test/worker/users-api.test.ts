/** /users: client and server views, updates, deletion, listing and pagination. */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, internalClient, internalServer, signUp, uniqueEmail } from "../helpers/api";

const CLIENT_KEYS = [
  "auth_with_email",
  "client_metadata",
  "client_read_only_metadata",
  "display_name",
  "has_password",
  "id",
  "is_anonymous",
  "is_restricted",
  "oauth_providers",
  "otp_auth_enabled",
  "passkey_auth_enabled",
  "primary_email",
  "primary_email_verified",
  "profile_image_url",
  "requires_totp_mfa",
  "restricted_by_admin",
  "restricted_by_admin_reason",
  "restricted_reason",
  "selected_team",
  "selected_team_id",
  "signed_up_at_millis",
].sort();

const GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";

describe("/users/me", () => {
  it("client access sees exactly the client view; server access sees the server view", async () => {
    const user = await signUp();
    const client = await call("/users/me", { ...internalClient, accessToken: user.accessToken });
    expect(Object.keys(client.body).sort()).toEqual(CLIENT_KEYS);
    const server = await call("/users/me", { ...internalServer, accessToken: user.accessToken });
    expect(server.body).toMatchObject({ id: user.userId, server_metadata: null, primary_email_auth_enabled: true });
    expect(typeof server.body.last_active_at_millis).toBe("number");
    expect(server.body.risk_scores).toEqual({ sign_up: { bot: 0, free_trial_abuse: 0 } });
  });

  it("without a user: CANNOT_GET_OWN_USER_WITHOUT_USER", async () => {
    expect((await call("/users/me", internalClient)).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  it("client PATCH accepts client fields and refuses server-only fields", async () => {
    const user = await signUp();
    const ok = await call("/users/me", {
      ...internalClient,
      accessToken: user.accessToken,
      method: "PATCH",
      body: { display_name: "Grace", client_metadata: { a: [1, { b: true }] }, profile_image_url: GIF },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ display_name: "Grace", client_metadata: { a: [1, { b: true }] }, profile_image_url: GIF });
    // A client sets an inline image only (as the wire): a URL or another data type is a plain 400.
    for (const profile_image_url of ["https://img.example.com/a.png", "data:image/not-valid;base64,test"]) {
      const res = await call("/users/me", {
        ...internalClient,
        accessToken: user.accessToken,
        method: "PATCH",
        body: { profile_image_url },
      });
      expect([res.status, res.text]).toEqual([400, "Invalid profile image URL"]);
    }
    for (const body of [{ server_metadata: {} }, { client_read_only_metadata: {} }, { password: "new password 1" }, { unknown: 1 }]) {
      const res = await call("/users/me", { ...internalClient, accessToken: user.accessToken, method: "PATCH", body });
      expect(res.body.code, JSON.stringify(body)).toBe("SCHEMA_ERROR");
    }
  });

  it("selecting a team the user is not in is a 404 known error, not a 500", async () => {
    const user = await signUp();
    const res = await call("/users/me", {
      ...internalClient,
      accessToken: user.accessToken,
      method: "PATCH",
      body: { selected_team_id: "6f1a4f0e-3b5d-4c1e-9a7b-000000000000" },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("TEAM_MEMBERSHIP_NOT_FOUND");
  });

  it("client deletion is gated by client_user_deletion_enabled", async () => {
    const off = await createProjectWithKeys();
    const a = await signUp(off.client);
    const refused = await call("/users/me", { ...off.client, accessToken: a.accessToken, method: "DELETE" });
    expect(refused.status).toBe(400);
    const on = await createProjectWithKeys({ client_user_deletion_enabled: true });
    const b = await signUp(on.client);
    expect((await call("/users/me", { ...on.client, accessToken: b.accessToken, method: "DELETE" })).body).toEqual({ success: true });
    expect((await call(`/users/${b.userId}`, on.server)).body.code).toBe("USER_NOT_FOUND");
  });
});

describe("/users (server)", () => {
  it("creates users with metadata and a bcrypt-less password, and reads them back", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("created");
    const res = await call("/users", {
      ...p.server,
      body: {
        primary_email: email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        password: "created password",
        display_name: "Created",
        client_metadata: { c: 1 },
        client_read_only_metadata: { r: 2 },
        server_metadata: { s: 3 },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      primary_email: email,
      primary_email_verified: true,
      has_password: true,
      display_name: "Created",
      client_metadata: { c: 1 },
      client_read_only_metadata: { r: 2 },
      server_metadata: { s: 3 },
      selected_team: null,
    });
    expect((await call(`/users/${res.body.id}`, p.server)).body.server_metadata).toEqual({ s: 3 });
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email, password: "created password" } })).status).toBe(200);
  });

  it("a created primary email signs in only when primary_email_auth_enabled says so (off by default, as the wire)", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("default-off");
    const plain = await call("/users", { ...p.server, body: { primary_email: email, password: "created password" } });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body.primary_email_auth_enabled).toBe(false);
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email, password: "created password" } })).status).toBe(400);
    // Not an auth email: another user may take the address for sign-in, and one more may hold it without.
    const auth = await call("/users", { ...p.server, body: { primary_email: email, primary_email_auth_enabled: true } });
    expect(auth.status, auth.text).toBe(201);
    expect(auth.body.primary_email_auth_enabled).toBe(true);
    expect((await call("/users", { ...p.server, body: { primary_email: email } })).status).toBe(201);
    const taken = await call("/users", { ...p.server, body: { primary_email: email, primary_email_auth_enabled: true } });
    expect(taken.body.code).toBe("USER_EMAIL_ALREADY_EXISTS");
  });

  it("rejects duplicates, bad passwords and unknown fields with known errors", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("dup");
    expect((await call("/users", { ...p.server, body: { primary_email: email, primary_email_auth_enabled: true } })).status).toBe(201);
    const dup = await call("/users", { ...p.server, body: { primary_email: email.toUpperCase(), primary_email_auth_enabled: true } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("USER_EMAIL_ALREADY_EXISTS");
    expect((await call("/users", { ...p.server, body: { primary_email: uniqueEmail(), password: "short" } })).body).toMatchObject({
      code: "PASSWORD_TOO_SHORT",
      details: { min_length: 8 },
    });
    expect((await call("/users", { ...p.server, body: { primary_email: uniqueEmail(), password: "y".repeat(71) } })).body).toMatchObject({
      code: "PASSWORD_TOO_LONG",
      details: { maxLength: 70 },
    });
    expect((await call("/users", { ...p.server, body: { primary_email: "not an email" } })).body.code).toBe("SCHEMA_ERROR");
    expect((await call("/users", { ...p.server, body: { selected_team_id: null } })).body.code).toBe("SCHEMA_ERROR");
  });

  it("GET, PATCH and DELETE an unknown id are USER_NOT_FOUND (404)", async () => {
    const missing = "/users/6f1a4f0e-3b5d-4c1e-9a7b-000000000000";
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { display_name: "x" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await call(missing, { ...internalServer, method, body });
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe("USER_NOT_FOUND");
    }
    // As the reference: deleting an id that is not a UUID is a SCHEMA_ERROR.
    const notUuid = await call("/users/01234567-89ab-cdef-0123-456789abcdef", { ...internalServer, method: "DELETE" });
    expect([notUuid.status, notUuid.body.code]).toEqual([400, "SCHEMA_ERROR"]);
  });

  it("clients cannot manage other users", async () => {
    const user = await signUp();
    for (const path of ["/users", `/users/${user.userId}`]) {
      const res = await call(path, { ...internalClient, accessToken: user.accessToken });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
  });

  it("a server password change ends the user's other sessions", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const res = await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { password: "brand new password" } });
    expect(res.status).toBe(200);
    const refresh = await call("/auth/sessions/current/refresh", { ...p.client, method: "POST", refreshToken: user.refreshToken });
    expect(refresh.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    expect(
      (await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: "brand new password" } })).status,
    ).toBe(200);
  });

  it("changes and removes the primary email", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const next = uniqueEmail("moved");
    const moved = await call(`/users/${user.userId}`, {
      ...p.server,
      method: "PATCH",
      body: { primary_email: next, primary_email_verified: true },
    });
    expect(moved.body).toMatchObject({ primary_email: next, primary_email_verified: true });
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email: next, password: user.password } })).status).toBe(200);
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } })).body.code).toBe(
      "EMAIL_PASSWORD_MISMATCH",
    );
    const other = await signUp(p.client);
    const taken = await call(`/users/${other.userId}`, { ...p.server, method: "PATCH", body: { primary_email: next } });
    expect(taken.body.code).toBe("USER_EMAIL_ALREADY_EXISTS");
    const removed = await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { primary_email: null } });
    expect(removed.body.primary_email).toBeNull();
  });

  it("a primary email the user already has is promoted (its verification kept); the old one and null demote, not delete", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const second = uniqueEmail("second");
    await call("/contact-channels", {
      ...p.server,
      body: { user_id: user.userId, value: second, type: "email", used_for_auth: false, is_verified: true },
    });
    const moved = await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { primary_email: second } });
    expect(moved.body).toMatchObject({ primary_email: second, primary_email_verified: true });
    const removed = await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { primary_email: null } });
    expect(removed.body).toMatchObject({ primary_email: null, primary_email_verified: false });
    const channels = (await call(`/contact-channels?user_id=${user.userId}`, p.server)).body.items;
    expect(channels.map((c: { value: string; is_primary: boolean }) => [c.value, c.is_primary]).sort()).toEqual(
      [
        [user.email, false],
        [second, false],
      ].sort(),
    );
    // auth_with_email follows the password and OTP, not the primary email (as the wire).
    const off = await call(`/users/${user.userId}`, {
      ...p.server,
      method: "PATCH",
      body: { primary_email: second, primary_email_auth_enabled: false },
    });
    expect(off.body).toMatchObject({ primary_email_auth_enabled: false, auth_with_email: true });
    await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { primary_email: null } });
    const flagged = await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { primary_email_verified: true } });
    expect([flagged.status, flagged.text]).toEqual([400, "primary_email_verified cannot be true without primary_email"]);
    const created = await call("/users", { ...p.server, body: { primary_email_auth_enabled: true } });
    expect([created.status, created.text]).toEqual([400, "primary_email_auth_enabled cannot be true without primary_email"]);
  });

  it("a password the back end sets on /users/me ends every session, the current one too", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const set = await call("/users/me", {
      ...p.server,
      accessToken: user.accessToken,
      method: "PATCH",
      body: { password: "a brand new secret" },
    });
    expect(set.status).toBe(200);
    const refresh = await call("/auth/sessions/current/refresh", { ...p.client, refreshToken: user.refreshToken, body: {} });
    expect(refresh.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("lists with cursor pagination, ordering, search and anonymous filters", async () => {
    const p = await createProjectWithKeys();
    const emails: string[] = [];
    for (let i = 0; i < 5; i++) {
      const email = uniqueEmail(`list${i}`);
      emails.push(email);
      await call("/users", { ...p.server, body: { primary_email: email, display_name: i === 2 ? "Needle Person" : `User ${i}` } });
    }
    const anon = await call("/auth/anonymous/sign-up", { ...p.client, method: "POST" });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof call>> = await call(`/users?limit=2${cursor ? `&cursor=${cursor}` : ""}`, p.server);
      expect(page.body.is_paginated).toBe(true);
      seen.push(...page.body.items.map((u: { primary_email: string }) => u.primary_email));
      cursor = page.body.pagination.next_cursor;
    } while (cursor);
    expect(seen).toEqual(emails);

    const desc = await call("/users?desc=true&order_by=signed_up_at", p.server);
    expect(desc.body.items.map((u: { primary_email: string }) => u.primary_email)).toEqual([...emails].reverse());

    expect((await call("/users?query=needle", p.server)).body.items.map((u: { display_name: string }) => u.display_name)).toEqual([
      "Needle Person",
    ]);
    expect((await call(`/users?query=${encodeURIComponent(emails[3]!.slice(0, 12))}`, p.server)).body.items).toHaveLength(1);
    expect((await call("/users?query=%25", p.server)).body.items).toHaveLength(0); // LIKE wildcards are escaped

    const all = await call("/users?include_anonymous=true", p.server);
    expect(all.body.items).toHaveLength(6);
    const only = await call("/users?only_anonymous=true&include_anonymous=true", p.server);
    expect(only.body.items.map((u: { id: string }) => u.id)).toEqual([anon.body.user_id]);
    const alone = await call("/users?only_anonymous=true", p.server);
    expect([alone.status, alone.text]).toEqual([400, "only_anonymous=true requires include_anonymous=true"]);
    const empty = await call(`/users/${anon.body.user_id}`, { ...p.server, method: "PATCH", body: { profile_image_url: "" } });
    expect(empty.body.code).toBe("SCHEMA_ERROR");

    expect((await call("/users?limit=0", p.server)).body.code).toBe("SCHEMA_ERROR");
    expect((await call("/users?cursor=6f1a4f0e-3b5d-4c1e-9a7b-000000000000", p.server)).body.code).toBe("SCHEMA_ERROR");
  });

  it("orders by display name or primary email, nulls last, and pages stably across ties", async () => {
    const p = await createProjectWithKeys();
    const names = ["bob", "Alice", null, "alice", "bob", "Carol", null, "Bob", "alice"];
    const made: { id: string; name: string | null; email: string | null }[] = [];
    for (const [i, name] of names.entries()) {
      // Every third user has no email; the rest sort by email in another order than by name.
      const email = i % 3 === 1 ? null : uniqueEmail(`${String.fromCharCode(122 - i)}order`);
      const res = await call("/users", { ...p.server, body: { display_name: name, primary_email: email } });
      expect(res.status).toBe(201);
      made.push({ id: res.body.id, name, email });
    }
    type Made = (typeof made)[number];
    const byKey = (key: (u: Made) => string | null, descending: boolean) => (a: Made, b: Made) => {
      const [ka, kb] = [key(a), key(b)];
      if ((ka === null) !== (kb === null)) return ka === null ? 1 : -1; // nulls last either way
      const cmp = ka === kb ? (a.id < b.id ? -1 : 1) : ka! < kb! ? -1 : 1;
      return descending ? -cmp : cmp;
    };
    const orders = {
      display_name: (u: Made) => u.name?.toLowerCase() ?? null,
      primary_email: (u: Made) => u.email,
    };
    for (const [orderBy, key] of Object.entries(orders)) {
      for (const descending of [false, true]) {
        const expected = [...made].sort(byKey(key, descending)).map((u) => u.id);
        const whole = await call(`/users?order_by=${orderBy}&desc=${descending}`, p.server);
        expect(
          whole.body.items.map((u: { id: string }) => u.id),
          `${orderBy} desc=${descending}`,
        ).toEqual(expected);
        for (const limit of [2, 3]) {
          const seen: string[] = [];
          let cursor: string | null = null;
          let pages = 0;
          do {
            const page: Awaited<ReturnType<typeof call>> = await call(
              `/users?order_by=${orderBy}&desc=${descending}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
              p.server,
            );
            expect(page.body.items.length).toBeLessThanOrEqual(limit);
            seen.push(...page.body.items.map((u: { id: string }) => u.id));
            cursor = page.body.pagination.next_cursor;
            pages++;
          } while (cursor && pages < 20);
          expect(seen, `${orderBy} desc=${descending} limit=${limit}`).toEqual(expected);
        }
      }
    }
    expect((await call("/users?order_by=last_active_at", p.server)).body.code).toBe("SCHEMA_ERROR");
  });

  it("lists restricted users only on request and finds a user by exact id", async () => {
    const p = await createProjectWithKeys({ require_email_verification: true });
    const make = async (tag: string, body: Record<string, unknown>) =>
      (await call("/users", { ...p.server, body: { primary_email: uniqueEmail(tag), ...body } })).body.id as string;
    const verified = await make("ok", { primary_email_verified: true });
    const unverified = await make("unverified", {});
    const blocked = await make("blocked", { primary_email_verified: true, restricted_by_admin: true });
    const anon = (await call("/auth/anonymous/sign-up", { ...p.client, method: "POST" })).body.user_id as string;
    const ids = async (query: string) => (await call(`/users${query}`, p.server)).body.items.map((u: { id: string }) => u.id);

    expect(await ids("")).toEqual([verified]);
    expect(await ids("?include_restricted=true")).toEqual([verified, unverified, blocked]);
    expect(await ids("?include_anonymous=true")).toEqual([verified, unverified, blocked, anon]);
    expect(await ids(`?include_restricted=true&query=${blocked}`)).toEqual([blocked]);
    expect(await ids(`?query=${blocked.slice(0, 8)}`)).toEqual([]); // ids match exactly, not in part

    const relaxed = await createProjectWithKeys();
    const plain = (await call("/users", { ...relaxed.server, body: { primary_email: uniqueEmail("plain") } })).body.id;
    expect((await call("/users", relaxed.server)).body.items.map((u: { id: string }) => u.id)).toEqual([plain]);
  });

  it("keeps last_active_at_millis current", async () => {
    const user = await signUp();
    const later = Date.now() + 5 * 60_000;
    await call("/users/me", { ...internalClient, accessToken: user.accessToken, nowMs: later - 1 });
    let seen = 0;
    for (let i = 0; i < 20 && seen < later - 60_000; i++) {
      seen = (await call(`/users/${user.userId}`, internalServer)).body.last_active_at_millis;
    }
    expect(seen).toBeGreaterThanOrEqual(later - 60_000);
  });
});
