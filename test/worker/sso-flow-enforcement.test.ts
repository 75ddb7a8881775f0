/**
 * SSO enforcement (issue 31, FLOW): a VERIFIED domain with enforce_sso refuses every other sign-in
 * method for its emails (password sign-in and sign-up, OTP send and sign-in, passkey, OAuth) with
 * SSO_REQUIRED (403, details.connection_id), whether the email is the one typed or the user's primary
 * one; SSO itself, a back end's session, a pending claim and other domains are untouched.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import { ssoDomains } from "../../worker/db/schema";
import { call, signUp } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";
import { exchangeCode, oauthFlow, randomVerifier, s256 } from "../helpers/oauth";
import { insertDomain, insertOidcConnection, redirectedError, ssoFlow, ssoProject, uniqueDomain } from "../helpers/sso-flow";
import { SoftAuthenticator } from "../helpers/webauthn";

const CALLBACK = "http://localhost:3000/handler/magic-link-callback";
const ORIGIN = "http://localhost:3000";

/** A project with every method on, a connection, and an enforced verified domain (plus its row id to flip). */
async function enforcedProject() {
  const p = await ssoProject({
    magic_link_enabled: true,
    passkey_enabled: true,
    email_config: sinkEmailConfig(),
    oauth_providers: [{ id: "github", type: "shared" }],
  });
  const connectionId = await insertOidcConnection(p);
  const domain = uniqueDomain("enforced");
  const domainId = await insertDomain(p, domain, { enforceSso: false });
  const enforce = (on: boolean) => createDb(env.DB).update(ssoDomains).set({ enforceSso: on }).where(eq(ssoDomains.id, domainId));
  return { p, connectionId, domain, enforce };
}

function expectSsoRequired(res: { status: number; body: any; text: string }, connectionId: string | null) {
  expect(res.status, res.text).toBe(403);
  expect(res.body).toMatchObject({ code: "SSO_REQUIRED", details: { connection_id: connectionId } });
  expect(res.body.error).toMatch(/single sign-on/i);
}

describe("SSO enforcement", () => {
  it("password sign-in is refused before the password is checked (right or wrong), and sign-up too", async () => {
    const { p, connectionId, domain, enforce } = await enforcedProject();
    const user = await signUp(p.client, `pat@${domain}`);
    await enforce(true);
    expectSsoRequired(
      await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } }),
      connectionId,
    );
    expectSsoRequired(
      await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: "wrong password!" } }),
      connectionId,
    );
    expectSsoRequired(
      await call("/auth/password/sign-in", { ...p.client, body: { email: `NOBODY@${domain.toUpperCase()}`, password: "whatever1234" } }),
      connectionId,
    );
    expectSsoRequired(
      await call("/auth/password/sign-up", { ...p.client, body: { email: `new@${domain}`, password: "correct horse battery" } }),
      connectionId,
    );
    // The same user signs in with SSO.
    const flow = await ssoFlow(p.client, user.email, { email: user.email });
    expect(flow.callback.status).toBe(303);
  });

  it("a user whose PRIMARY email is at the domain is refused though another address signed in", async () => {
    const { p, connectionId, domain, enforce } = await enforcedProject();
    // Primary email at the domain (not a sign-in address); another verified address signs in with a password.
    const created = await call("/users", {
      ...p.server,
      body: { primary_email: `moved@${domain}`, primary_email_verified: true, password: "correct horse battery" },
    });
    expect(created.status, created.text).toBe(201);
    const user = { email: `other-${crypto.randomUUID().slice(0, 8)}@elsewhere.example`, password: "correct horse battery" };
    const other = await call("/contact-channels", {
      ...p.server,
      body: { user_id: created.body.id, type: "email", value: user.email, is_verified: true, used_for_auth: true },
    });
    expect(other.status, other.text).toBe(201);
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } })).status).toBe(200);
    await enforce(true);
    expectSsoRequired(
      await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } }),
      connectionId,
    );
  });

  it("OTP: no code is sent, and a code sent before enforcement no longer signs in", async () => {
    const { p, connectionId, domain, enforce } = await enforcedProject();
    const email = `otp@${domain}`;
    const sent = await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } });
    expect(sent.status, sent.text).toBe(200);
    const [mail] = await waitForMail(email);
    await enforce(true);
    expectSsoRequired(await call("/auth/otp/sign-in", { ...p.client, body: { code: codeFrom(mail!) } }), connectionId);
    expectSsoRequired(await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK } }), connectionId);
  });

  it("a passkey of a user at the domain no longer signs in", async () => {
    const { p, connectionId, domain, enforce } = await enforcedProject();
    const user = await signUp(p.client, `key@${domain}`);
    const authenticator = await SoftAuthenticator.create();
    const reg = await call("/auth/passkey/initiate-passkey-registration", { ...p.client, accessToken: user.accessToken, body: {} });
    const credential = await authenticator.register(reg.body.options_json, { origin: ORIGIN });
    const registered = await call("/auth/passkey/register", {
      ...p.client,
      accessToken: user.accessToken,
      body: { credential, code: reg.body.code },
    });
    expect(registered.status, registered.text).toBe(200);
    await enforce(true);
    const auth = await call("/auth/passkey/initiate-passkey-authentication", { ...p.client, body: {} });
    const authentication_response = await authenticator.authenticate(auth.body.options_json, { origin: ORIGIN });
    expectSsoRequired(
      await call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response, code: auth.body.code } }),
      connectionId,
    );
  });

  it("OAuth: a provider email at the domain, or a linked user whose primary email is there, goes to the error URL with SSO_REQUIRED", async () => {
    const { p, connectionId, domain, enforce } = await enforcedProject();
    // Linked before enforcement: an OAuth identity whose user's primary email is at the domain.
    const email = `oauth@${domain}`;
    const verifier = randomVerifier();
    const before = await oauthFlow(p.client, email, { method: "S256", challenge: await s256(verifier) });
    expect(before.callback.status).toBe(303);
    expect((await exchangeCode(p.client, before.code, verifier)).status).toBe(200);
    await enforce(true);
    const again = await oauthFlow(p.client, email);
    expect(again.callback.status).toBe(307);
    expect(redirectedError(again.location)).toEqual({ code: "SSO_REQUIRED", details: { connection_id: connectionId } });
    const fresh = await oauthFlow(p.client, `fresh@${domain}`);
    expect(redirectedError(fresh.location).code).toBe("SSO_REQUIRED");
    // Nobody was created for the refused sign-up.
    const users = await call(`/users?query=${encodeURIComponent(`fresh@${domain}`)}`, p.server);
    expect(users.body.items).toHaveLength(0);
  });

  it("an enforced domain whose team has no enabled connection still refuses, naming no connection", async () => {
    const p = await ssoProject();
    const domain = uniqueDomain("noconn");
    await insertDomain(p, domain, { enforceSso: true });
    expectSsoRequired(
      await call("/auth/password/sign-up", { ...p.client, body: { email: `a@${domain}`, password: "correct horse battery" } }),
      null,
    );
  });

  it("leaves alone: a pending claim, other domains, a back end's session, and SSO itself", async () => {
    const p = await ssoProject();
    await insertOidcConnection(p);
    const pending = uniqueDomain("pending");
    await insertDomain(p, pending, { status: "pending", enforceSso: true });
    expect(
      (await call("/auth/password/sign-up", { ...p.client, body: { email: `a@${pending}`, password: "correct horse battery" } })).status,
    ).toBe(200);
    const enforced = uniqueDomain("enforced");
    await insertDomain(p, enforced, { enforceSso: true });
    const user = await call("/users", { ...p.server, body: { primary_email: `srv@${enforced}`, primary_email_verified: true } });
    expect(user.status, user.text).toBe(201);
    const session = await call("/auth/sessions", { ...p.server, body: { user_id: user.body.id } });
    expect(session.status, session.text).toBe(200);
    const flow = await ssoFlow(p.client, `sso@${enforced}`, { email: `sso@${enforced}` });
    expect(flow.callback.status).toBe(303);
  });
});
