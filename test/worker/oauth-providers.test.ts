/** /oauth-providers: a user's linked provider accounts, as server and as client, and the sign-in identity rules. */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp } from "../helpers/api";

const PROVIDERS = [
  { id: "github", type: "standard", client_id: "gh-client", client_secret: "gh-secret" },
  { id: "spotify", type: "standard", client_id: "sp-client", client_secret: "sp-secret" },
];

async function projectWithUsers() {
  const p = await createProjectWithKeys({ oauth_providers: PROVIDERS });
  const alice = await signUp(p.client);
  const bob = await signUp(p.client);
  return { p, alice, bob, asAlice: { ...p.client, accessToken: alice.accessToken }, asBob: { ...p.client, accessToken: bob.accessToken } };
}

type Server = Awaited<ReturnType<typeof createProjectWithKeys>>["server"];

function link(server: Server, body: Record<string, unknown>) {
  return call("/oauth-providers", { ...server, body: { allow_sign_in: true, allow_connected_accounts: true, ...body } });
}

describe("oauth providers CRUD", () => {
  it("a link stays listed, readable and removable after the project turns its provider off", async () => {
    const { p, alice } = await projectWithUsers();
    const created = await link(p.server, { user_id: alice.userId, provider_config_id: "spotify", account_id: "sp-off" });
    expect(created.status, created.text).toBe(201);
    await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config: { oauth_providers: [] } } });

    const listed = await call(`/oauth-providers?user_id=${alice.userId}`, p.server);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: created.body.id, provider_config_id: "spotify", type: "spotify" })]);
    const read = await call(`/oauth-providers/${alice.userId}/${created.body.id}`, p.server);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ account_id: "sp-off", type: "spotify" });
    // Turned off, it hands out nothing.
    const token = await call(`/connected-accounts/${alice.userId}/spotify/access-token`, { ...p.server, body: {} });
    expect(token.body.code).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    expect((await call(`/oauth-providers/${alice.userId}/${created.body.id}`, { ...p.server, method: "DELETE" })).status).toBe(200);
    expect((await call(`/oauth-providers?user_id=${alice.userId}`, p.server)).body.items).toEqual([]);
  });

  it("server creates; the user reads, updates and unlinks their own; views stay in sync", async () => {
    const { p, alice, asAlice } = await projectWithUsers();
    const created = await link(p.server, {
      user_id: alice.userId,
      provider_config_id: "github",
      account_id: "gh-1",
      email: "a@gh.example",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      user_id: alice.userId,
      id: expect.any(String),
      email: "a@gh.example",
      provider_config_id: "github",
      type: "github",
      allow_sign_in: true,
      allow_connected_accounts: true,
      account_id: "gh-1",
    });
    const id: string = created.body.id;

    // Clients see which providers are linked, never the provider's account id.
    const clientView = { ...created.body };
    delete clientView.account_id;
    expect((await call("/oauth-providers?user_id=me", asAlice)).body).toEqual({ items: [clientView], is_paginated: false });
    expect((await call(`/oauth-providers/me/${id}`, asAlice)).body).toEqual(clientView);
    expect((await call(`/oauth-providers/${alice.userId}/${id}`, asAlice)).body).toEqual(clientView);

    // The user views list the link as {id: provider config id, account_id, email}.
    expect((await call(`/users/${alice.userId}`, p.server)).body.oauth_providers).toEqual([
      { id: "github", account_id: "gh-1", email: "a@gh.example" },
    ]);
    expect((await call("/users/me", asAlice)).body.oauth_providers).toEqual([{ id: "github" }]);
    const listed = await call("/users?limit=10", p.server);
    expect(listed.body.items.find((u: { id: string }) => u.id === alice.userId).oauth_providers).toEqual([
      { id: "github", account_id: "gh-1", email: "a@gh.example" },
    ]);

    const patched = await call(`/oauth-providers/me/${id}`, { ...asAlice, method: "PATCH", body: { allow_sign_in: false } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ allow_sign_in: false, allow_connected_accounts: true });
    expect(patched.body.account_id).toBeUndefined();
    // Clients may only toggle; the email and account id are the server's.
    const clientEmail = await call(`/oauth-providers/me/${id}`, { ...asAlice, method: "PATCH", body: { email: "x@y.example" } });
    expect(clientEmail.body.code).toBe("SCHEMA_ERROR");
    const serverPatch = await call(`/oauth-providers/${alice.userId}/${id}`, {
      ...p.server,
      method: "PATCH",
      body: { email: null, account_id: "gh-1b" },
    });
    expect(serverPatch.body).toEqual({ ...created.body, allow_sign_in: false, account_id: "gh-1b", email: undefined });
    expect("email" in serverPatch.body).toBe(false);

    expect((await call(`/oauth-providers/me/${id}`, { ...asAlice, method: "DELETE" })).body).toEqual({ success: true });
    const gone = await call(`/oauth-providers/me/${id}`, asAlice);
    expect(gone.status).toBe(404);
    expect((await call(`/oauth-providers/me/${id}`, { ...asAlice, method: "DELETE" })).status).toBe(404);
    expect((await call("/oauth-providers?user_id=me", asAlice)).body.items).toEqual([]);
    expect((await call(`/users/${alice.userId}`, p.server)).body.oauth_providers).toEqual([]);
  });

  it("clients act on their own links only; creating is for back ends", async () => {
    const { p, alice, bob, asAlice, asBob } = await projectWithUsers();
    const aliceLink = await link(p.server, { user_id: alice.userId, provider_config_id: "github", account_id: "gh-own" });
    const id: string = aliceLink.body.id;

    for (const method of ["GET", "PATCH", "DELETE"]) {
      const res = await call(`/oauth-providers/${alice.userId}/${id}`, { ...asBob, method, body: method === "PATCH" ? {} : undefined });
      expect(res.status, method).toBe(403);
    }
    // Bob naming Alice's link as his own finds nothing.
    expect((await call(`/oauth-providers/me/${id}`, asBob)).status).toBe(404);
    expect((await call(`/oauth-providers/me/${id}`, { ...asBob, method: "DELETE" })).status).toBe(404);
    expect((await call(`/oauth-providers?user_id=${alice.userId}`, asBob)).status).toBe(403);
    expect((await call("/oauth-providers", asBob)).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    const clientCreate = await call("/oauth-providers", {
      ...asBob,
      body: { user_id: "me", provider_config_id: "github", account_id: "gh-bob", allow_sign_in: true, allow_connected_accounts: true },
    });
    expect(clientCreate.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    // Still there, untouched.
    expect((await call(`/oauth-providers/me/${id}`, asAlice)).body.allow_sign_in).toBe(true);

    // The server lists the whole project, or one user.
    await link(p.server, { user_id: bob.userId, provider_config_id: "spotify", account_id: "sp-bob" });
    const all = await call("/oauth-providers", p.server);
    expect(all.body.items.map((i: { account_id: string }) => i.account_id).sort()).toEqual(["gh-own", "sp-bob"]);
    expect((await call(`/oauth-providers?user_id=${bob.userId}`, p.server)).body.items).toHaveLength(1);
  });

  it("bad input: unknown provider, unknown user, malformed body", async () => {
    const { p, alice } = await projectWithUsers();
    const disabled = await link(p.server, { user_id: alice.userId, provider_config_id: "gitlab", account_id: "gl-1" });
    // The wire's plain 404 for a provider the project does not configure.
    expect(disabled.status).toBe(404);
    expect(disabled.text).toBe("OAuth provider gitlab not found or not configured");
    const noUser = await link(p.server, { user_id: crypto.randomUUID(), provider_config_id: "github", account_id: "gh-x" });
    expect(noUser.body.code).toBe("USER_NOT_FOUND");
    const missing = await call("/oauth-providers", { ...p.server, body: { user_id: alice.userId, provider_config_id: "github" } });
    expect(missing.body.code).toBe("SCHEMA_ERROR");
    expect((await call(`/oauth-providers/${crypto.randomUUID()}/${crypto.randomUUID()}`, p.server)).body.code).toBe("USER_NOT_FOUND");
    expect((await call(`/oauth-providers?user_id=not-a-uuid`, p.server)).body.code).toBe("SCHEMA_ERROR");
  });
});

describe("one sign-in identity per provider account", () => {
  it("a provider account signs in to one user only; a connected-only link is fine", async () => {
    const { p, alice, bob } = await projectWithUsers();
    expect((await link(p.server, { user_id: alice.userId, provider_config_id: "github", account_id: "gh-shared" })).status).toBe(201);

    const taken = await link(p.server, { user_id: bob.userId, provider_config_id: "github", account_id: "gh-shared" });
    expect(taken.status).toBe(400);
    expect(taken.body.code).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");

    const connectedOnly = await link(p.server, {
      user_id: bob.userId,
      provider_config_id: "github",
      account_id: "gh-shared",
      allow_sign_in: false,
    });
    expect(connectedOnly.status).toBe(201);
    // Turning sign-in on for it would make a second sign-in identity.
    const enable = await call(`/oauth-providers/${bob.userId}/${connectedOnly.body.id}`, {
      ...p.server,
      method: "PATCH",
      body: { allow_sign_in: true },
    });
    expect(enable.body.code).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");
    // The same account id at another provider is another identity.
    expect((await link(p.server, { user_id: bob.userId, provider_config_id: "spotify", account_id: "gh-shared" })).status).toBe(201);

    // One user: the same link twice, and two sign-in accounts of one provider, are refused (400, not 500).
    const twice = await link(p.server, {
      user_id: alice.userId,
      provider_config_id: "github",
      account_id: "gh-shared",
      allow_sign_in: false,
    });
    expect(twice.status).toBe(400);
    const second = await link(p.server, { user_id: alice.userId, provider_config_id: "github", account_id: "gh-other" });
    expect(second.status).toBe(400);
    expect(second.text).toContain("sign-in enabled already exists");
  });

  it("two concurrent creates of one sign-in identity: exactly one wins", async () => {
    const p = await createProjectWithKeys({ oauth_providers: PROVIDERS });
    const users = await Promise.all([1, 2, 3, 4].map(() => signUp(p.client)));
    const results = await Promise.all(
      users.map((u) => link(p.server, { user_id: u.userId, provider_config_id: "spotify", account_id: "sp-contested" })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.code).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");
    const all = await call("/oauth-providers", p.server);
    expect(all.body.items.filter((i: { account_id: string }) => i.account_id === "sp-contested")).toHaveLength(1);
  });

  it("POST /users takes oauth_providers, under the same rules", async () => {
    const p = await createProjectWithKeys({ oauth_providers: PROVIDERS });
    const created = await call("/users", {
      ...p.server,
      body: { oauth_providers: [{ id: "github", account_id: "gh-new", email: "n@gh.example" }] },
    });
    expect(created.status).toBe(201);
    expect(created.body.oauth_providers).toEqual([{ id: "github", account_id: "gh-new", email: "n@gh.example" }]);
    const links = await call(`/oauth-providers?user_id=${created.body.id}`, p.server);
    expect(links.body.items).toEqual([
      expect.objectContaining({ provider_config_id: "github", allow_sign_in: true, allow_connected_accounts: true }),
    ]);

    const again = await call("/users", { ...p.server, body: { oauth_providers: [{ id: "github", account_id: "gh-new" }] } });
    expect(again.body.code).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");
    const unknown = await call("/users", { ...p.server, body: { oauth_providers: [{ id: "gitlab", account_id: "gl" }] } });
    expect(unknown.body.code).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    // Nothing half-created by the refused requests.
    expect((await call("/users?limit=100", p.server)).body.items).toHaveLength(1);
  });
});

describe("project isolation", () => {
  it("another project's keys see none of these links, and its identities are its own", async () => {
    const one = await projectWithUsers();
    const two = await createProjectWithKeys({ oauth_providers: PROVIDERS });
    const id = (await link(one.p.server, { user_id: one.alice.userId, provider_config_id: "github", account_id: "gh-iso" })).body.id;

    expect((await call(`/oauth-providers?user_id=${one.alice.userId}`, two.server)).body.code).toBe("USER_NOT_FOUND");
    expect((await call(`/oauth-providers/${one.alice.userId}/${id}`, two.server)).body.code).toBe("USER_NOT_FOUND");
    expect((await call("/oauth-providers", two.server)).body.items).toEqual([]);
    // A token of project one is not valid on project two.
    expect((await call("/oauth-providers?user_id=me", { ...two.client, accessToken: one.alice.accessToken })).status).toBe(401);

    const carol = await signUp(two.client);
    expect((await link(two.server, { user_id: carol.userId, provider_config_id: "github", account_id: "gh-iso" })).status).toBe(201);
    const carolsLinks = await call(`/oauth-providers?user_id=${carol.userId}`, two.server);
    const carolId: string = carolsLinks.body.items[0].id;
    expect((await call(`/oauth-providers/${one.alice.userId}/${carolId}`, one.p.server)).status).toBe(404);
  });
});
