/**
 * The SDK's side of the OpenID provider's consent (issue 30), against the real worker: the client
 * app reads a pending authorization request as camelCase, approves it with a team or denies it, and
 * the current user lists and revokes authorized apps; the activity list names the apps.
 */
import { describe, expect, it } from "vitest";
import { StackClientApp } from "../../sdk/src";
import { activityLabel, isWarning } from "../../sdk/src/react/components/activity-labels";
import { handlerPageTitleKey } from "../../sdk/src/react/components/handler";
import { requestIdFromSearch } from "../../sdk/src/react/components/oauth-consent";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { consentRow, insertClient, insertPendingRequest, requestRow } from "../helpers/oauth-provider-consent";
import { workerFetch } from "../helpers/worker-fetch";

async function setUp() {
  const p = await createProjectWithKeys({ client_team_creation_enabled: true });
  const app = new StackClientApp({
    baseUrl: "http://localhost",
    fetch: (input, init) => workerFetch(input, init),
    redirectMethod: "none",
    projectId: p.projectId,
    publishableClientKey: p.client.publishableClientKey,
    tokenStore: "memory",
  });
  const signedUp = await app.signUpWithCredential({ email: uniqueEmail("sdk-consent"), password: "consent password 1", noRedirect: true });
  expect(signedUp.status).toBe("ok");
  const user = await app.getUser({ or: "throw" });
  if (!user) throw new Error("not signed in");
  return { p, app, user };
}

describe("SDK consent", () => {
  it("reads a request in camelCase, approves it for a team, and the app's redirect carries the code", async () => {
    const { p, app, user } = await setUp();
    const team = await user.createTeam({ displayName: "Crew" });
    const client = await insertClient(p.projectId, { name: "Planner", clientUri: "https://planner.example" });
    const id = await insertPendingRequest(p.projectId, client, {
      scope: "openid team",
      teamRequested: true,
      resource: "https://api.planner.example",
    });

    const read = await app.getOAuthAuthorizationRequest(id);
    if (read.status !== "ok") throw read.error;
    expect(read.data).toMatchObject({
      id,
      client: { clientId: client.clientId, name: "Planner", clientUri: "https://planner.example", logoUri: null, source: "console" },
      scopes: [
        { name: "openid", description: null },
        { name: "team", description: null },
      ],
      resource: "https://api.planner.example",
      redirectUri: client.redirectUri,
      teamRequested: true,
      teams: [{ id: team.id, displayName: "Crew" }],
      consentRequired: true,
      reauthenticationRequired: false,
    });
    expect(read.data.expiresAt).toBeInstanceOf(Date);

    const missing = await app.approveOAuthAuthorizationRequest(id);
    expect(missing.status === "error" && missing.error.code).toBe("OAUTH_TEAM_REQUIRED");
    const approved = await app.approveOAuthAuthorizationRequest(id, { teamId: team.id });
    if (approved.status !== "ok") throw approved.error;
    expect(new URL(approved.data.redirectUrl).searchParams.get("code")).toMatch(/^[0-9a-z]{43}$/);
    expect((await requestRow(id)).team_id).toBe(team.id);

    const gone = await app.getOAuthAuthorizationRequest(id);
    expect(gone.status === "error" && gone.error.code).toBe("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND");
  });

  it("denies with an error of the app's choosing", async () => {
    const { p, app } = await setUp();
    const client = await insertClient(p.projectId);
    const id = await insertPendingRequest(p.projectId, client, { prompt: "none" });
    const denied = await app.denyOAuthAuthorizationRequest(id, { error: "consent_required" });
    if (denied.status !== "ok") throw denied.error;
    expect(new URL(denied.data.redirectUrl).searchParams.get("error")).toBe("consent_required");
  });

  it("lists the user's authorized apps with dates, and revokes one", async () => {
    const { p, app, user } = await setUp();
    const client = await insertClient(p.projectId, { name: "Reader" });
    const id = await insertPendingRequest(p.projectId, client, { scope: "openid email" });
    expect((await app.approveOAuthAuthorizationRequest(id)).status).toBe("ok");

    const apps = await user.listAuthorizedApps();
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({
      client: { clientId: client.clientId, name: "Reader" },
      scopes: ["email", "openid"],
      teamId: null,
      lastUsedAt: null,
    });
    expect(apps[0]?.authorizedAt).toBeInstanceOf(Date);

    await user.revokeAuthorizedApp(client.clientId);
    expect(await user.listAuthorizedApps()).toEqual([]);
    expect(await consentRow(p.projectId, user.id, client.clientId)).toBeNull();
    await expect(user.revokeAuthorizedApp(client.clientId)).rejects.toMatchObject({ code: "OAUTH_AUTHORIZED_APP_NOT_FOUND" });

    const activity = await user.listActivity();
    const types = activity.items.map((a) => a.type);
    expect(types).toContain("oauth_app.authorized");
    expect(types).toContain("oauth_app.revoked");
    const authorized = activity.items.find((a) => a.type === "oauth_app.authorized");
    expect(authorized && activityLabel(authorized)).toBe("Allowed Reader");
  });

  it("the handler serves the oauth-consent page, which reads request_id", () => {
    expect(handlerPageTitleKey("oauth-consent")).toBe("page.oauth-consent");
    expect(requestIdFromSearch("?request_id=req_Abc-123")).toBe("req_Abc-123");
    expect(requestIdFromSearch("?request_id=a%20b")).toBeNull();
    expect(requestIdFromSearch("?other=1")).toBeNull();
  });

  it("words the apps' activity, and warns about a reused token", async () => {
    expect(activityLabel({ type: "oauth_app.revoked", data: { client_id: "dmc_1", client_name: null } })).toBe("Revoked dmc_1");
    expect(activityLabel({ type: "oauth_token.revoked", data: { client_id: "dmc_1", reason: "client" } })).toBe(
      "An app gave up its access",
    );
    expect(activityLabel({ type: "oauth_token.revoked", data: { client_id: "dmc_1", reason: "reuse" } })).toBe(
      "App access ended: a token was reused",
    );
    expect(isWarning("oauth_token.revoked", { reason: "code_reuse" })).toBe(true);
    expect(isWarning("oauth_token.revoked", { reason: "client" })).toBe(false);
    expect(isWarning("oauth_app.authorized", null)).toBe(false);
  });
});
