/**
 * The admin app's OAuth client registry (issue 30), as the console's OAuth apps page uses it:
 * camelCase clients, the secret only in the create and rotate answers, a refused field as a
 * KnownError naming it, and the provider settings written as config.
 */
import { describe, expect, it } from "vitest";
import { KnownError, type StackAdminApp } from "../../sdk/src";
import { uniqueEmail } from "../helpers/api";
import { internalMemoryApp } from "../helpers/sdk-apps";

async function ownedProject(): Promise<StackAdminApp> {
  const owner = internalMemoryApp();
  await owner.signUpWithCredential({ email: uniqueEmail("apps-owner"), password: "owner password 1", noRedirect: true });
  const project = await (await owner.getUser({ or: "throw" }))!.createProject({ displayName: "SDK OAuth apps" });
  return project.app;
}

describe("OAuth clients through the admin app", () => {
  it("creates, lists, reads, changes, rotates and deletes, in camelCase", async () => {
    const admin = await ownedProject();
    const project = await admin.getProject();
    await project.updateConfig({ "doorman.oauthProvider.scopes": { "notes:read": { description: "Read your notes" } } });
    const { client, clientSecret } = await admin.createOAuthClient({
      name: "Notes sync",
      clientType: "confidential",
      redirectUris: ["https://notes.example/callback"],
      allowedScopes: ["openid", "notes:read"],
    });
    expect(clientSecret).toMatch(/^dmcs_/);
    expect(client).toMatchObject({
      name: "Notes sync",
      source: "console",
      clientType: "confidential",
      tokenEndpointAuthMethod: "client_secret_basic",
      allowedScopes: ["openid", "notes:read"],
      secretPrefix: clientSecret!.slice(0, 9),
      hasJwks: false,
    });
    expect(client.createdAt).toBeInstanceOf(Date);
    expect((await admin.listOAuthClients()).map((c) => c.clientId)).toEqual([client.clientId]);
    expect(await admin.getOAuthClient(client.clientId)).toEqual(client);

    const changed = await admin.updateOAuthClient(client.clientId, { name: "Notes sync 2", policyUri: "https://notes.example/privacy" });
    expect(changed).toMatchObject({ name: "Notes sync 2", policyUri: "https://notes.example/privacy", redirectUris: client.redirectUris });
    const rotated = await admin.rotateOAuthClientSecret(client.clientId);
    expect(rotated.clientSecret).toMatch(/^dmcs_/);
    expect(rotated.clientSecret).not.toBe(clientSecret);
    expect(rotated.client.secretPrefix).toBe(rotated.clientSecret!.slice(0, 9));

    await admin.deleteOAuthClient(client.clientId);
    expect(await admin.listOAuthClients()).toEqual([]);
    await expect(admin.getOAuthClient(client.clientId)).rejects.toMatchObject({ code: "OAUTH_CLIENT_NOT_FOUND" });
  });

  it("a refused field comes back as OAUTH_CLIENT_INVALID with the field and the rule", async () => {
    const admin = await ownedProject();
    const error = await admin
      .createOAuthClient({ name: "Bad", clientType: "public", redirectUris: ["http://app.example.com/cb"] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KnownError);
    expect(error).toMatchObject({
      code: "OAUTH_CLIENT_INVALID",
      details: { field: "redirect_uris", message: expect.stringMatching(/loopback/) },
    });
  });
});
