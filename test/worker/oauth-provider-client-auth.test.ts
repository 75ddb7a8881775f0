/**
 * private_key_jwt at the OpenID provider (RFC 7523; issue 30): assertions signed with the client's
 * registered jwks, or with keys at its jwks_uri served by a real local server (fetched once, then
 * cached; fetched again when the client rotates), the claims rules (iss = sub, aud, a short exp, a
 * single-use jti, atomically even for concurrent requests), and a hanging or huge jwks_uri, which
 * fails the token request in bounded time while /api/v1/health keeps answering.
 */
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { type SignedUp, signUp } from "../helpers/api";
import { withHealthPolls } from "../helpers/health";
import {
  APP_REDIRECT,
  approveForTest,
  authorize,
  codeRequest,
  insertClient,
  issuerOf,
  type ProviderProject,
  pkce,
  postForm,
  providerProject,
  requestIdOf,
  type TestClient,
} from "../helpers/oauth-provider";

const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

type KeyPair = { privateKey: CryptoKey; jwk: JWK };

async function keyPair(kid: string, alg: "ES256" | "RS256" = "ES256"): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

let p: ProviderProject;
let user: SignedUp;

beforeAll(async () => {
  p = await providerProject();
  user = await signUp(p.client);
});

const tokenEndpoint = () => `${issuerOf(p.projectId)}/oauth/token`;

function assertion(
  key: KeyPair,
  clientId: string,
  o: { aud?: string; expiresIn?: number; jti?: string; iss?: string; alg?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: o.alg ?? (key.jwk.alg as string), kid: key.jwk.kid as string })
    .setIssuer(o.iss ?? clientId)
    .setSubject(clientId)
    .setAudience(o.aud ?? tokenEndpoint())
    .setIssuedAt(now)
    .setExpirationTime(now + (o.expiresIn ?? 120))
    .setJti(o.jti ?? crypto.randomUUID())
    .sign(key.privateKey);
}

/** A code of `client` for the test user, with its verifier. */
async function approvedCode(client: TestClient) {
  const { verifier, challenge } = await pkce();
  const requestId = requestIdOf(await authorize(p.projectId, codeRequest(client.clientId, challenge)));
  return { code: (await approveForTest(requestId, { userId: user.userId })) as string, verifier };
}

async function redeemWith(client: TestClient, signed: string, extra: Record<string, string> = {}, nowMs?: number) {
  const { code, verifier } = await approvedCode(client);
  return postForm(
    p.projectId,
    "token",
    {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: APP_REDIRECT,
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: signed,
      ...extra,
    },
    { nowMs },
  );
}

describe("private_key_jwt with a registered jwks", () => {
  it("accepts a good assertion (aud = token endpoint or issuer), once", async () => {
    const key = await keyPair("k1");
    const client = await insertClient(p.projectId, { method: "private_key_jwt", jwks: { keys: [key.jwk as Record<string, unknown>] } });
    const signed = await assertion(key, client.clientId);
    const ok = await redeemWith(client, signed);
    expect(ok.status, ok.text).toBe(200);
    // The same assertion again: its jti is spent.
    const replay = await redeemWith(client, signed);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ error: "invalid_client" });
    expect(String((replay.body as { error_description: string }).error_description)).toMatch(/jti/);
    expect((await redeemWith(client, await assertion(key, client.clientId, { aud: issuerOf(p.projectId) }))).status).toBe(200);
    // RS256 keys work too.
    const rsa = await keyPair("r1", "RS256");
    const rsaClient = await insertClient(p.projectId, { method: "private_key_jwt", jwks: { keys: [rsa.jwk as Record<string, unknown>] } });
    expect((await redeemWith(rsaClient, await assertion(rsa, rsaClient.clientId))).status).toBe(200);
  });

  it("refuses a long-lived assertion, another audience, iss ≠ sub, another key, the wrong type, and another method", async () => {
    const key = await keyPair("k1");
    const stranger = await keyPair("k1");
    const client = await insertClient(p.projectId, { method: "private_key_jwt", jwks: { keys: [key.jwk as Record<string, unknown>] } });
    const refused = async (signed: string) => {
      const res = await redeemWith(client, signed);
      expect(res.status, res.text).toBe(401);
      expect(res.body).toMatchObject({ error: "invalid_client" });
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
    };
    await refused(await assertion(key, client.clientId, { expiresIn: 600 }));
    await refused(await assertion(key, client.clientId, { aud: "https://elsewhere.example/token" }));
    await refused(await assertion(key, client.clientId, { iss: "someone-else" }));
    await refused(await assertion(stranger, client.clientId));
    await refused(await assertion(key, client.clientId, { expiresIn: -120 }));
    await refused("not.a.jwt");
    const wrongType = await redeemWith(client, await assertion(key, client.clientId), { client_assertion_type: "urn:example:other" });
    expect(wrongType.body).toMatchObject({ error: "invalid_request" });
    // A client registered for client_secret_basic cannot switch to an assertion (nor the other way round).
    const basicClient = await insertClient(p.projectId);
    const switched = await redeemWith(basicClient, await assertion(key, basicClient.clientId));
    expect(switched.body).toMatchObject({ error: "invalid_client" });
    const { code, verifier } = await approvedCode(client);
    const withBasic = await postForm(
      p.projectId,
      "token",
      { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: APP_REDIRECT },
      { basic: { clientId: client.clientId, secret: "x" } },
    );
    expect(withBasic.body).toMatchObject({ error: "invalid_client" });
  });

  it("of two concurrent requests with one assertion exactly one passes (the jti insert decides)", async () => {
    const key = await keyPair("k1");
    const client = await insertClient(p.projectId, { method: "private_key_jwt", jwks: { keys: [key.jwk as Record<string, unknown>] } });
    const signed = await assertion(key, client.clientId, { aud: issuerOf(p.projectId) });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        postForm(p.projectId, "introspect", { token: "x", client_assertion_type: ASSERTION_TYPE, client_assertion: signed }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
  });
});

describe("private_key_jwt with a jwks_uri", () => {
  const hostUrl = (path: string) => `http://127.0.0.1:${inject("documentServerPort")}${path}`;
  const publish = async (name: string, keys: JWK[]) => {
    const res = await fetch(hostUrl(`/control/${name}`), { method: "PUT", body: JSON.stringify({ body: { keys } }) });
    expect(res.status).toBe(200);
  };
  const fetches = async (name: string) => ((await (await fetch(hostUrl(`/control/${name}`))).json()) as { requests: number }).requests;

  it("fetches the client's keys once, uses the cache, and fetches again when the client rotates", async () => {
    const name = `jwks-${crypto.randomUUID()}`;
    const first = await keyPair("first");
    await publish(name, [first.jwk]);
    const client = await insertClient(p.projectId, { method: "private_key_jwt", jwksUri: hostUrl(`/docs/${name}`) });
    expect((await redeemWith(client, await assertion(first, client.clientId))).status).toBe(200);
    expect((await redeemWith(client, await assertion(first, client.clientId))).status).toBe(200);
    expect(await fetches(name)).toBe(1);
    // The client rotates: a new kid is unknown to the cached set, which is fetched again (after the 30 s cooldown).
    const second = await keyPair("second");
    await publish(name, [second.jwk]);
    const res = await redeemWith(client, await assertion(second, client.clientId), {}, Date.now() + 31_000);
    expect(res.status, res.text).toBe(200);
    expect(await fetches(name)).toBe(2);
  });

  it("a hanging jwks_uri fails the token request in bounded time while /api/v1/health answers", async () => {
    const key = await keyPair("k1");
    const hanging = `http://127.0.0.1:${inject("hostilePort")}/hang.jwks${crypto.randomUUID().slice(0, 8)}`;
    const client = await insertClient(p.projectId, { method: "private_key_jwt", jwksUri: hanging });
    const signed = await assertion(key, client.clientId);
    const started = Date.now();
    const { result, polls, failures } = await withHealthPolls(() => redeemWith(client, signed));
    const elapsed = Date.now() - started;
    console.log(`[oauth-provider] hanging jwks_uri: refused after ${elapsed} ms; /health polled ${polls}×`);
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ error: "invalid_client" });
    expect(String((result.body as { error_description: string }).error_description)).toMatch(/jwks_uri/);
    expect(elapsed).toBeLessThan(15_000);
    expect(polls).toBeGreaterThan(0);
    expect(failures).toBe(0);
  }, 30_000);

  it("a huge or missing key set is refused too", async () => {
    const key = await keyPair("k1");
    const huge = await insertClient(p.projectId, {
      method: "private_key_jwt",
      jwksUri: `http://127.0.0.1:${inject("hostilePort")}/big.jwks${crypto.randomUUID().slice(0, 8)}`,
    });
    expect((await redeemWith(huge, await assertion(key, huge.clientId))).body).toMatchObject({ error: "invalid_client" });
    const missing = await insertClient(p.projectId, { method: "private_key_jwt", jwksUri: hostUrl(`/docs/none-${crypto.randomUUID()}`) });
    expect((await redeemWith(missing, await assertion(key, missing.clientId))).body).toMatchObject({ error: "invalid_client" });
  });
});
