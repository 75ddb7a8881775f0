/**
 * The token from POST /webhooks/svix-token is bound to the credential that minted it (issue 25,
 * finding 6): revoking that key set, or ending that owner session, refuses the token at once.
 */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, internalClient } from "../helpers/api";

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe("svix token binding", () => {
  it("a token minted with a key set is refused as soon as the key set is revoked", async () => {
    const p = await createProjectWithKeys();
    const minted = await call("/webhooks/svix-token", { ...p.adminKey, body: {} });
    expect(minted.status, minted.text).toBe(200);
    const token: string = minted.body.token;
    expect((await call("/internal/webhooks/endpoints", bearer(token))).status).toBe(200);

    const revoked = await call(`/internal/api-keys/${p.keyId}`, { ...p.admin, method: "PATCH", body: { revoked: true } });
    expect(revoked.status, revoked.text).toBe(200);
    const refused = await call("/internal/webhooks/endpoints", bearer(token));
    expect(refused.status).toBe(401);
  });

  it("a token minted with the owner's session is refused once that session ends", async () => {
    const p = await createProjectWithKeys();
    const token: string = (await call("/webhooks/svix-token", { ...p.admin, body: {} })).body.token;
    expect((await call("/internal/webhooks/endpoints", bearer(token))).status).toBe(200);

    const out = await call("/auth/sessions/current", {
      ...internalClient,
      accessToken: p.owner.accessToken,
      refreshToken: p.owner.refreshToken,
      method: "DELETE",
      body: {},
    });
    expect(out.status, out.text).toBe(200);
    expect((await call("/internal/webhooks/endpoints", bearer(token))).status).toBe(401);
  });

  it("another key set's revocation leaves the token working", async () => {
    const p = await createProjectWithKeys();
    const token: string = (await call("/webhooks/svix-token", { ...p.adminKey, body: {} })).body.token;
    const other = await call("/internal/api-keys", {
      ...p.admin,
      body: {
        description: "other",
        expires_at_millis: Date.now() + 3600_000,
        has_publishable_client_key: false,
        has_secret_server_key: false,
        has_super_secret_admin_key: true,
      },
    });
    expect(other.status, other.text).toBe(200);
    await call(`/internal/api-keys/${other.body.id}`, { ...p.admin, method: "PATCH", body: { revoked: true } });
    expect((await call("/internal/webhooks/endpoints", bearer(token))).status).toBe(200);
  });
});
