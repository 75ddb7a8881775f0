/**
 * A fake Sign in with Apple for the worker tests: Apple's token endpoint and key set are answered on
 * the global fetch (the worker runs in the test's isolate) at the catalogue's URLs, with a local key
 * pair. `fakeApple()` installs it in beforeEach/afterEach and returns its state, which tests steer.
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, beforeEach, vi } from "vitest";
import { APPLE } from "../../worker/services/oauth/catalogue";
import { forgetKeySets } from "../../worker/services/oauth/id-token";

export type Claims = Record<string, unknown>;

export const APPLE_KID = "apple-test-key";
export const appleKeys = await generateKeyPair("RS256", { extractable: true });
export const impostorKeys = await generateKeyPair("RS256", { extractable: true });
export const rotatedInKeys = await generateKeyPair("RS256", { extractable: true });
export const jwk = async (key: CryptoKey, kid: string) => ({ ...(await exportJWK(key)), kid, alg: "RS256", use: "sig" });
export const applePublicJwk = await jwk(appleKeys.publicKey, APPLE_KID);

/** An ID token as Apple makes them, for `audience` unless `claims.aud` says otherwise; `key` signs. */
export async function appleIdToken(audience: string, claims: Claims, o: { key?: CryptoKey; kid?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email_verified: "true", ...claims })
    .setProtectedHeader({ alg: "RS256", kid: o.kid ?? APPLE_KID })
    .setIssuer((claims.iss as string | undefined) ?? APPLE.issuer)
    .setAudience((claims.aud as string | undefined) ?? audience)
    .setSubject(String(claims.sub))
    .setIssuedAt((claims.iat as number | undefined) ?? now)
    .setExpirationTime((claims.exp as number | undefined) ?? now + 600)
    .sign(o.key ?? appleKeys.privateKey);
}

export type FakeApple = {
  /** What the token endpoint answers as `id_token`. */
  nextIdToken: string;
  keySetFetches: number;
  publishedKeys: Claims[];
  /** How the key set answers: normally, never (until the caller gives up), or with 50 MB. */
  keySetMode: "ok" | "hang" | "huge";
};

/** Installs the fake Apple for every test of the calling file. */
export function fakeApple(): FakeApple {
  const state: FakeApple = { nextIdToken: "", keySetFetches: 0, publishedKeys: [], keySetMode: "ok" };
  beforeEach(() => {
    forgetKeySets();
    Object.assign(state, { nextIdToken: "", keySetFetches: 0, publishedKeys: [applePublicJwk], keySetMode: "ok" });
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input as RequestInfo, init);
      if (request.url === APPLE.token)
        return Response.json({
          access_token: "apple-access-token",
          token_type: "bearer",
          expires_in: 3600,
          refresh_token: "apple-refresh-token",
          id_token: state.nextIdToken,
        });
      if (request.url === APPLE.keys) {
        state.keySetFetches += 1;
        if (state.keySetMode === "hang")
          return new Promise<Response>((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason)));
        if (state.keySetMode === "huge") return hugeResponse();
        return Response.json({ keys: state.publishedKeys });
      }
      return realFetch(input as RequestInfo, init);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return state;
}

/** 50 MB of spaces, streamed. */
function hugeResponse(): Response {
  const chunk = new Uint8Array(1024 * 1024).fill(32);
  let sent = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (sent++ >= 50) return controller.close();
      controller.enqueue(chunk);
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}
