/**
 * Concurrency at the OpenID provider's token endpoint (issue 30): one code redeemed by many requests
 * at once gives exactly one set of tokens (one compare-and-set, one grant), and the others are
 * answered as the replays they are; one refresh token spent by many at once succeeds at most once.
 * Never a 5xx.
 */
import { env } from "cloudflare:test";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "../helpers/api";
import {
  APP_REDIRECT,
  approveForTest,
  authorize,
  codeFlow,
  codeRequest,
  insertClient,
  type ProviderProject,
  pkce,
  postForm,
  providerProject,
  requestIdOf,
  type TestClient,
} from "../helpers/oauth-provider";

const RACERS = 10;

let p: ProviderProject;
let client: TestClient;
let user: SignedUp;

beforeAll(async () => {
  p = await providerProject();
  client = await insertClient(p.projectId);
  user = await signUp(p.client);
});

describe("the provider's token endpoint under concurrent requests", () => {
  it(`${RACERS} simultaneous redemptions of one code: exactly one succeeds, with one grant`, async () => {
    const { verifier, challenge } = await pkce();
    const requestId = requestIdOf(await authorize(p.projectId, codeRequest(client.clientId, challenge)));
    const code = (await approveForTest(requestId, { userId: user.userId })) as string;
    const form = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: APP_REDIRECT };
    const results = await Promise.all(Array.from({ length: RACERS }, () => postForm(p.projectId, "token", form, { basic: client })));
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s >= 500),
      JSON.stringify(statuses),
    ).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) expect(loser.body).toMatchObject({ error: "invalid_grant" });
    const winner = results.find((r) => r.status === 200)?.body as { access_token: string };
    const grantId = decodeJwt(winner.access_token).grant_id as string;
    const request = await env.DB.prepare("SELECT status, grant_id FROM oauth_authorization_requests WHERE id = ?").bind(requestId).first();
    expect(request).toEqual({ status: "redeemed", grant_id: grantId });
    const grants = await env.DB.prepare("SELECT id, revoked_reason FROM oauth_grants WHERE project_id = ? AND user_id = ?")
      .bind(p.projectId, user.userId)
      .all<{ id: string; revoked_reason: string | null }>();
    // One grant, and the replays revoked it (a code seen twice means someone else has it).
    expect(grants.results).toEqual([{ id: grantId, revoked_reason: "code_reuse" }]);
  });

  it(`${RACERS} simultaneous refreshes with one refresh token: at most one succeeds`, async () => {
    const { res } = await codeFlow(p, client, { userId: user.userId });
    const refreshToken = (res.body as { refresh_token: string }).refresh_token;
    const results = await Promise.all(
      Array.from({ length: RACERS }, () =>
        postForm(p.projectId, "token", { grant_type: "refresh_token", refresh_token: refreshToken }, { basic: client }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s >= 500),
      JSON.stringify(statuses),
    ).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(1);
    for (const loser of results.filter((r) => r.status !== 200)) expect(loser.body).toMatchObject({ error: "invalid_grant" });
    const grantId = decodeJwt((res.body as { access_token: string }).access_token).grant_id as string;
    // At most one successor token was minted, and the replays revoked the grant.
    const tokens = await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_refresh_tokens WHERE grant_id = ?")
      .bind(grantId)
      .first<{ n: number }>();
    expect(tokens?.n).toBeLessThanOrEqual(2);
    const grant = await env.DB.prepare("SELECT revoked_reason FROM oauth_grants WHERE id = ?").bind(grantId).first();
    expect(grant).toEqual({ revoked_reason: "reuse" });
  });
});
