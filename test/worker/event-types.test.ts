/**
 * The event catalogue (issue 13): every type is written by its action and by no other — each
 * action below is followed by the exact list of new events — and an action that fails or changes
 * nothing writes none. The subject, actor and a payload without secrets are checked where they matter.
 */
import { env } from "cloudflare:test";
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../worker/services/events";
import { call, createProjectWithKeys, type SignedUp, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";
import { signInWithProvider } from "../helpers/oauth";
import { SoftAuthenticator } from "../helpers/webauthn";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
type Row = { id: string; type: string; user_id: string | null; team_id: string | null; actor_type: string; data: string | null };
type Seen = { type: string; user_id: string | null; team_id: string | null; actor_type: string; data: Record<string, unknown> | null };

const DAY = 24 * 60 * 60 * 1000;
const SECRET = new Uint8Array(Array.from({ length: 20 }, (_, i) => i * 7 + 3));
const SECRET_B64 = btoa(String.fromCharCode(...SECRET));
const totpAt = (ms: number) => generateHOTP(SECRET, BigInt(Math.floor(ms / 30_000)), 6);
const written = new Set<string>();

/** Runs `action` and answers the project's events it wrote, oldest first. */
async function eventsOf(p: Project, action: () => Promise<unknown>): Promise<Seen[]> {
  const all = async () =>
    (await env.DB.prepare("SELECT * FROM events WHERE project_id = ? ORDER BY created_at, rowid").bind(p.projectId).all<Row>()).results;
  const before = new Set((await all()).map((r) => r.id));
  await action();
  return (await all())
    .filter((r) => !before.has(r.id))
    .map((r) => {
      written.add(r.type);
      return { type: r.type, user_id: r.user_id, team_id: r.team_id, actor_type: r.actor_type, data: r.data ? JSON.parse(r.data) : null };
    });
}
const typesOf = async (p: Project, action: () => Promise<unknown>) => (await eventsOf(p, action)).map((e) => e.type);
const as = (p: Project, user: SignedUp) => ({ ...p.client, accessToken: user.accessToken });

describe("event catalogue: sign-up, sign-in and sessions", () => {
  it("password: sign-up, sign-in, a wrong password (known and unknown email), the day's activity", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("pw");
    let user!: SignedUp;
    const up = await eventsOf(p, async () => {
      user = await signUp(p.client, email);
    });
    expect(up.map((e) => e.type)).toEqual(["user.created", "sign_in.succeeded", "user.active"]);
    expect(up[0]).toMatchObject({ user_id: user.userId, actor_type: "system", data: { method: "password", is_anonymous: false } });
    expect(up[1]!.data).toMatchObject({ method: "password" });
    expect(typeof up[1]!.data?.session_id).toBe("string");

    // Same day: a sign-in, no second user.active.
    expect(await typesOf(p, () => call("/auth/password/sign-in", { ...p.client, body: { email, password: user.password } }))).toEqual([
      "sign_in.succeeded",
    ]);
    const wrong = await eventsOf(p, () => call("/auth/password/sign-in", { ...p.client, body: { email, password: "not the password" } }));
    expect(wrong).toEqual([
      expect.objectContaining({
        type: "sign_in.failed",
        user_id: user.userId,
        // With the request's risk signals (issue 29): none here.
        data: { method: "password", reason: "EMAIL_PASSWORD_MISMATCH", risk: { score: 0, signals: [] } },
      }),
    ]);
    const nobody = await eventsOf(p, () =>
      call("/auth/password/sign-in", { ...p.client, body: { email: uniqueEmail("nobody"), password: "whatever 123" } }),
    );
    expect(nobody).toEqual([expect.objectContaining({ type: "sign_in.failed", user_id: null })]);
    expect(JSON.stringify(nobody)).not.toContain("nobody");
  });

  it("refresh: nothing new the same day; the next day's first refresh is that day's user.active", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const refresh = (nowMs?: number) =>
      call("/auth/sessions/current/refresh", { ...p.client, refreshToken: user.refreshToken, body: {}, nowMs });
    expect(await typesOf(p, () => refresh())).toEqual([]);
    const tomorrow = Date.now() + DAY;
    expect(await typesOf(p, () => refresh(tomorrow))).toEqual(["user.active"]);
    expect(await typesOf(p, () => refresh(tomorrow + 1000))).toEqual([]);
  });

  it("sign-out, revoking another session, and a second sign-out that finds nothing", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const second = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    const sessions = await call("/auth/sessions?user_id=me", { ...as(p, user) });
    const other = sessions.body.items.find((s: { is_current_session: boolean }) => !s.is_current_session);
    const revoked = await eventsOf(p, () => call(`/auth/sessions/${other.id}`, { ...as(p, user), method: "DELETE" }));
    expect(revoked).toEqual([expect.objectContaining({ type: "session.revoked", user_id: user.userId, data: { session_id: other.id } })]);

    const out = { ...p.client, accessToken: second.body.access_token, refreshToken: second.body.refresh_token };
    expect(second.status).toBe(200);
    // The second session was the one revoked above, so its sign-out finds nothing and writes nothing.
    expect(await typesOf(p, () => call("/auth/sessions/current", { ...out, method: "DELETE", body: {} }))).toEqual([]);
    const mine = { ...as(p, user), refreshToken: user.refreshToken };
    const signedOut = await eventsOf(p, () => call("/auth/sessions/current", { ...mine, method: "DELETE", body: {} }));
    expect(signedOut).toEqual([expect.objectContaining({ type: "sign_out", user_id: user.userId, actor_type: "user" })]);
  });

  it("refresh-token reuse after the grace window revokes the session and is recorded once", async () => {
    const p = await createProjectWithKeys({ refresh_token_rotation: true });
    const user = await signUp(p.client);
    const rotated = await call("/auth/sessions/current/refresh", { ...p.client, refreshToken: user.refreshToken, body: {} });
    expect(rotated.body.refresh_token).toBeTruthy();
    const later = Date.now() + 60_000;
    const replay = await eventsOf(p, () =>
      call("/auth/sessions/current/refresh", { ...p.client, refreshToken: user.refreshToken, body: {}, nowMs: later }),
    );
    expect(replay).toEqual([expect.objectContaining({ type: "session.token_reused", user_id: user.userId })]);
    // The family is gone: the current token fails too, and nothing more is written.
    const after = await eventsOf(p, async () => {
      const res = await call("/auth/sessions/current/refresh", {
        ...p.client,
        refreshToken: rotated.body.refresh_token,
        body: {},
        nowMs: later,
      });
      expect(res.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    });
    expect(after).toEqual([]);
  });

  it("server sessions: a plain one is a server sign-in, an impersonation is its own event", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const server = await eventsOf(p, () => call("/auth/sessions", { ...p.server, body: { user_id: user.userId } }));
    expect(server).toEqual([
      expect.objectContaining({ type: "sign_in.succeeded", actor_type: "server", data: expect.objectContaining({ method: "server" }) }),
    ]);
    const imp = await eventsOf(p, () => call("/auth/sessions", { ...p.admin, body: { user_id: user.userId, is_impersonation: true } }));
    expect(imp).toEqual([expect.objectContaining({ type: "session.impersonated", user_id: user.userId, actor_type: "admin" })]);
    expect(await typesOf(p, () => call("/auth/sessions", { ...p.server, body: { user_id: crypto.randomUUID() } }))).toEqual([]);
  });

  it("anonymous and OTP sign-ups name their method; upgrading an anonymous user is an update", async () => {
    const p = await createProjectWithKeys({ anonymous_sign_up_enabled: true, magic_link_enabled: true, email_config: sinkEmailConfig() });
    let anon!: { access_token: string; refresh_token: string };
    const a = await eventsOf(p, async () => {
      anon = (await call("/auth/anonymous/sign-up", { ...p.client, body: {} })).body;
    });
    expect(a.map((e) => [e.type, e.data?.method])).toEqual([
      ["user.created", "anonymous"],
      ["sign_in.succeeded", "anonymous"],
      ["user.active", undefined],
    ]);
    const upgrade = await eventsOf(p, () =>
      call("/auth/password/sign-up", {
        ...p.client,
        accessToken: anon.access_token,
        allowAnonymous: true,
        body: { email: uniqueEmail("up"), password: "a good password 1" },
      }),
    );
    expect(upgrade.map((e) => [e.type, e.data?.method])).toEqual([
      ["user.updated", "password"],
      ["sign_in.succeeded", "password"],
    ]);

    const email = uniqueEmail("otp");
    await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { email, callback_url: "http://localhost:3000/handler/magic-link-callback" },
    });
    const [mail] = await waitForMail(email);
    const otp = await eventsOf(p, () => call("/auth/otp/sign-in", { ...p.client, body: { code: codeFrom(mail!) } }));
    expect(otp.map((e) => [e.type, e.data?.method])).toEqual([
      ["user.created", "otp"],
      ["sign_in.succeeded", "otp"],
      ["user.active", undefined],
    ]);
  });

  it("OAuth: sign-up through a provider, then linking a provider to an existing user", async () => {
    const p = await createProjectWithKeys({ oauth_providers: [{ id: "github", type: "shared" }] });
    const first = await eventsOf(p, () => signInWithProvider(p.client, uniqueEmail("gh")));
    expect(first.map((e) => [e.type, e.data?.method, e.data?.provider])).toEqual([
      ["user.created", "oauth", "github"],
      ["sign_in.succeeded", "oauth", "github"],
      ["user.active", undefined, undefined],
    ]);
    const owner = await signUp(p.client);
    const linked = await eventsOf(p, () => signInWithProvider(p.client, uniqueEmail("link"), { type: "link", token: owner.accessToken }));
    expect(linked.map((e) => e.type)).toEqual(["oauth_account.linked", "sign_in.succeeded"]);
    expect(linked[0]).toMatchObject({ user_id: owner.userId, data: { provider: "github" } });
  });

  it("passkey added, a passkey sign-in, and a CLI login", async () => {
    const ORIGIN = "http://localhost:3000";
    const p = await createProjectWithKeys({ passkey_enabled: true });
    const user = await signUp(p.client);
    const authenticator = await SoftAuthenticator.create();
    const added = await eventsOf(p, async () => {
      const start = await call("/auth/passkey/initiate-passkey-registration", { ...as(p, user), body: {} });
      const credential = await authenticator.register(start.body.options_json, { origin: ORIGIN });
      const res = await call("/auth/passkey/register", { ...as(p, user), body: { credential, code: start.body.code } });
      expect(res.status, res.text).toBe(200);
    });
    expect(added).toEqual([expect.objectContaining({ type: "passkey.added", user_id: user.userId })]);
    const signIn = await eventsOf(p, async () => {
      const start = await call("/auth/passkey/initiate-passkey-authentication", { ...p.client, body: {} });
      const authentication_response = await authenticator.authenticate(start.body.options_json, { origin: ORIGIN });
      expect((await call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response, code: start.body.code } })).status).toBe(
        200,
      );
    });
    expect(signIn.map((e) => [e.type, e.data?.method])).toEqual([["sign_in.succeeded", "passkey"]]);

    const started = (await call("/auth/cli", { ...p.client, body: {} })).body;
    // Confirmed by a signed-in user (no refresh token handed over): the poll creates the CLI's own session.
    expect((await call("/auth/cli/complete", { ...as(p, user), body: { login_code: started.login_code } })).status).toBe(200);
    const cli = await eventsOf(p, () => call("/auth/cli/poll", { ...p.client, body: { polling_code: started.polling_code } }));
    expect(cli.map((e) => [e.type, e.data?.method, e.user_id])).toEqual([["sign_in.succeeded", "cli", user.userId]]);
    expect(await typesOf(p, () => call("/auth/cli/poll", { ...p.client, body: { polling_code: started.polling_code } }))).toEqual([]);
  });
});

describe("event catalogue: account security", () => {
  it("password changed (a wrong old password writes nothing) and password reset", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    const bad = await typesOf(p, () =>
      call("/auth/password/update", { ...as(p, user), body: { old_password: "wrong wrong", new_password: "another password 2" } }),
    );
    expect(bad).toEqual([]);
    const changed = await eventsOf(p, () =>
      call("/auth/password/update", { ...as(p, user), body: { old_password: user.password, new_password: "another password 2" } }),
    );
    expect(changed).toEqual([expect.objectContaining({ type: "password.changed", user_id: user.userId, data: { removed: false } })]);
    expect(JSON.stringify(changed)).not.toContain("another password");

    await call("/auth/password/send-reset-code", {
      ...p.client,
      body: { email: user.email, callback_url: "http://localhost:3000/handler/password-reset" },
    });
    // The first mail is the "password changed" notice of the update above.
    const mail = (await waitForMail(user.email, 2)).find((m) => m.subject.startsWith("Reset your password"));
    const reset = await eventsOf(p, () =>
      call("/auth/password/reset", { ...p.client, body: { code: codeFrom(mail!), password: "third password 3" } }),
    );
    expect(reset.map((e) => e.type)).toEqual(["password.reset"]);
  });

  it("email verified", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    await call("/contact-channels/send-verification-code", {
      ...as(p, user),
      body: { email: user.email, callback_url: "http://localhost:3000/handler/email-verification" },
    });
    const [mail] = await waitForMail(user.email);
    const verified = await eventsOf(p, () => call("/contact-channels/verify", { ...p.client, body: { code: codeFrom(mail!) } }));
    expect(verified).toEqual([expect.objectContaining({ type: "email.verified", user_id: user.userId })]);
    expect(await typesOf(p, () => call("/contact-channels/verify", { ...p.client, body: { code: codeFrom(mail!) } }))).toEqual([]);
  });

  it("MFA enrolled, a wrong and a right TOTP, MFA removed; other profile fields stay user.updated", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const patch = (body: Record<string, unknown>) => call("/users/me", { ...as(p, user), method: "PATCH", body });
    expect(await typesOf(p, () => patch({ totp_secret_base64: SECRET_B64, display_name: "Ada" }))).toEqual([
      "mfa.enrolled",
      "user.updated",
    ]);
    const first = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    const attempt = first.body.details.attempt_code;
    const wrongCode = totpAt(Date.now()) === "000000" ? "111111" : "000000";
    const wrong = await eventsOf(p, () =>
      call("/auth/mfa/sign-in", { ...p.client, body: { type: "totp", totp: wrongCode, code: attempt } }),
    );
    // The first factor's risk score travels with the attempt (issue 29).
    expect(wrong).toEqual([
      expect.objectContaining({
        type: "sign_in.failed",
        data: {
          method: "password",
          mfa: true,
          reason: "INVALID_TOTP_CODE",
          risk: { score: expect.any(Number), signals: expect.any(Array) },
        },
      }),
    ]);
    const right = await eventsOf(p, () =>
      call("/auth/mfa/sign-in", { ...p.client, body: { type: "totp", totp: totpAt(Date.now()), code: attempt } }),
    );
    expect(right.map((e) => [e.type, e.data?.method, e.data?.mfa])).toEqual([["sign_in.succeeded", "password", true]]);
    expect(await typesOf(p, () => patch({ totp_secret_base64: null }))).toEqual(["mfa.removed"]);
    expect(await typesOf(p, () => patch({ totp_secret_base64: null }))).toEqual([]);
  });
});

describe("event catalogue: permissions, API keys, invitations, config", () => {
  it("team and project permissions: granted once, revoked once", async () => {
    const p = await createProjectWithKeys({ allow_user_api_keys: true });
    await call("/team-permission-definitions", { ...p.admin, body: { id: "read" } });
    await call("/project-permission-definitions", { ...p.admin, body: { id: "reports" } });
    const user = await signUp(p.client);
    const team = await call("/teams", { ...p.server, body: { display_name: "T" } });
    await call(`/team-memberships/${team.body.id}/${user.userId}`, { ...p.server, body: {} });
    const teamGrant = `/team-permissions/${team.body.id}/${user.userId}/read`;
    const granted = await eventsOf(p, () => call(teamGrant, { ...p.server, body: {} }));
    expect(granted).toEqual([
      expect.objectContaining({
        type: "team_permission.created",
        team_id: team.body.id,
        user_id: user.userId,
        data: { permission_id: "read" },
      }),
    ]);
    expect(await typesOf(p, () => call(teamGrant, { ...p.server, body: {} }))).toEqual([]);
    expect(await typesOf(p, () => call(teamGrant, { ...p.server, method: "DELETE" }))).toEqual(["team_permission.deleted"]);
    expect(await typesOf(p, () => call(teamGrant, { ...p.server, method: "DELETE" }))).toEqual([]);

    const projectGrant = `/project-permissions/${user.userId}/reports`;
    expect(await typesOf(p, () => call(projectGrant, { ...p.server, body: {} }))).toEqual(["project_permission.created"]);
    expect(await typesOf(p, () => call(projectGrant, { ...p.server, method: "DELETE" }))).toEqual(["project_permission.deleted"]);
    expect(await typesOf(p, () => call(projectGrant, { ...p.server, method: "DELETE" }))).toEqual([]);
  });

  it("API keys: created and revoked once; the key itself never in the log", async () => {
    const p = await createProjectWithKeys({ allow_user_api_keys: true });
    const user = await signUp(p.client);
    let key!: { id: string; value: string };
    const created = await eventsOf(p, async () => {
      key = (await call("/user-api-keys", { ...as(p, user), body: { user_id: "me", description: "ci", expires_at_millis: null } })).body;
    });
    expect(created).toEqual([
      expect.objectContaining({ type: "api_key.created", user_id: user.userId, data: { api_key_id: key.id, kind: "user" } }),
    ]);
    const revoke = () => call(`/user-api-keys/${key.id}`, { ...as(p, user), method: "PATCH", body: { revoked: true } });
    const revoked = await eventsOf(p, revoke);
    expect(revoked.map((e) => e.type)).toEqual(["api_key.revoked"]);
    expect(await typesOf(p, revoke)).toEqual([]);
    expect(JSON.stringify([...created, ...revoked])).not.toContain(key.value);
  });

  it("invitation sent and accepted (with the membership)", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const team = await call("/teams", { ...p.server, body: { display_name: "Invite team" } });
    const invitee = await signUp(p.client);
    const sent = await eventsOf(p, () =>
      call("/team-invitations/send-code", {
        ...p.server,
        body: { team_id: team.body.id, email: invitee.email, callback_url: "http://localhost:3000/handler/team-invitation" },
      }),
    );
    expect(sent).toEqual([expect.objectContaining({ type: "team_invitation.sent", team_id: team.body.id })]);
    expect(JSON.stringify(sent)).not.toContain(invitee.email);
    const [mail] = await waitForMail(invitee.email);
    const accepted = await eventsOf(p, () => call("/team-invitations/accept", { ...as(p, invitee), body: { code: codeFrom(mail!) } }));
    // The membership comes with its default member permission (team_member).
    expect(accepted.map((e) => e.type).sort()).toEqual(["team_invitation.accepted", "team_membership.created", "team_permission.created"]);
    expect(await typesOf(p, () => call("/team-invitations/accept", { ...as(p, invitee), body: { code: codeFrom(mail!) } }))).toEqual([]);
  });

  it("config changed names the keys, never the values (a client secret stays out)", async () => {
    const p = await createProjectWithKeys();
    const changed = await eventsOf(p, () =>
      call("/internal/projects/current", {
        ...p.admin,
        method: "PATCH",
        body: {
          display_name: "Renamed",
          config: { oauth_providers: [{ id: "github", type: "standard", client_id: "cid", client_secret: "very-secret-value" }] },
        },
      }),
    );
    expect(changed).toEqual([
      expect.objectContaining({
        type: "project.config_changed",
        actor_type: "admin",
        data: { keys: ["config.oauth_providers", "displayName"] },
      }),
    ]);
    expect(JSON.stringify(changed)).not.toContain("very-secret-value");
    const refused = await typesOf(p, () =>
      call("/internal/projects/current", {
        ...p.admin,
        method: "PATCH",
        body: { config: { domains: [{ domain: "not a url", handler_path: "/h" }] } },
      }),
    );
    expect(refused).toEqual([]);
    // An override that leaves the typed config alone (an email theme) names its top-level key.
    const theme = await eventsOf(p, () =>
      call("/internal/email-themes", {
        ...p.admin,
        body: { display_name: "Brand", tsx_source: "export function EmailTheme({ children }) { return children; }" },
      }),
    );
    expect(theme).toEqual([expect.objectContaining({ type: "project.config_changed", data: { keys: ["override.emails"] } })]);
  });

  it("a personal team on sign-up writes its team and membership events", async () => {
    const p = await createProjectWithKeys({ create_team_on_sign_up: true });
    let user!: SignedUp;
    const events = await eventsOf(p, async () => {
      user = await signUp(p.client);
    });
    expect(events.map((e) => e.type)).toEqual([
      "team.created",
      "team_membership.created",
      "user.created",
      "sign_in.succeeded",
      "user.active",
    ]);
    expect(events[1]!.user_id).toBe(user.userId);
  });
});

describe("event catalogue coverage", () => {
  it("the tests above saw every type written except those covered in events.test.ts", () => {
    const coveredElsewhere = [
      "user.deleted",
      "team.updated",
      "team.deleted",
      "team_membership.deleted",
      // second-factor.test.ts (issue 25)
      "mfa.recovery_codes_generated",
      "mfa.recovery_code_used",
      "sign_in.locked_out",
      // webhook-secrets.test.ts (issue 28)
      "webhook.secret_revealed",
      "webhook.secret_rotated",
      // impersonation-links.test.ts (issue 28)
      "impersonation.link_created",
      // breached-passwords.test.ts (issue 29)
      "password.breach_check_failed",
      // device-verification.test.ts (issue 29)
      "device.verification_required",
      "device.verification_succeeded",
      "device.verification_failed",
      "device.added",
      // oauth-provider-clients.test.ts, oauth-provider-register.test.ts (issue 30: the OpenID provider's clients)
      "oauth_client.created",
      "oauth_client.updated",
      "oauth_client.deleted",
      "oauth_client.secret_rotated",
      // oauth-provider-consent.test.ts (issue 30: the consent page and authorized apps)
      "oauth_app.authorized",
      "oauth_app.denied",
      "oauth_app.revoked",
      // oauth-provider-code-flow/-refusals/-tokens.test.ts (issue 30, the OpenID provider's flows)
      "oauth_token.issued",
      "oauth_token.revoked",
      // scim-entra/-okta/-deprovision/-groups.test.ts (issue 31: SCIM provisioning)
      "scim.user_created",
      "scim.user_updated",
      "scim.user_deactivated",
      "scim.user_reactivated",
      "scim.user_deleted",
      "scim.group_created",
      "scim.group_updated",
      "scim.group_deleted",
      // sso-admin-connections/-access/-domains.test.ts (issue 31, ADMIN: SSO connections, setup links, domains)
      "sso_connection.created",
      "sso_connection.updated",
      "sso_connection.deleted",
      "sso_connection.scim_token_rotated",
      "sso_setup_link.created",
      "sso_domain.added",
      "sso_domain.verified",
      "sso_domain.lost",
      "sso_domain.updated",
      "sso_domain.removed",
      // sso-flow-oidc.test.ts, sso-flow-id-token.test.ts (issue 31: the enterprise SSO sign-in)
      "sso.signed_in",
      "sso.sign_in_refused",
    ];
    const missing = EVENT_TYPES.filter((t) => !written.has(t) && !coveredElsewhere.includes(t));
    expect(missing).toEqual([]);
  });
});
