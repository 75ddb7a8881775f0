/**
 * A local issuer for the resource-server tests: an ES256 key, its JWKS served by a counting fetch,
 * and `mint` for tokens of any shape (an RFC 9068 access token as oauth-design.md describes
 * Doorman's by default; a session-shaped or ID-token-shaped one on demand).
 */
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";

export const ISSUER = "https://auth.example.test/api/v1/projects/proj_rs";
export const RESOURCE_A = "https://mcp.example.test/mcp";
export const RESOURCE_B = "https://api.example.test";

export type LocalIssuer = {
  issuer: string;
  jwksUrl: string;
  /** A fetch that serves the JWKS at jwksUrl (404 elsewhere) and records every URL it was asked. */
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  fetched: string[];
  /** Signs `claims` over the defaults (header typ at+jwt, ES256, this issuer's kid). */
  mint: (claims?: JWTPayload & Record<string, unknown>, header?: Record<string, unknown>) => Promise<string>;
  /** Signs with another key under the same kid (a forgery). */
  mintForged: (claims?: JWTPayload & Record<string, unknown>) => Promise<string>;
};

export async function localIssuer(issuer = ISSUER): Promise<LocalIssuer> {
  const kid = "kid-rs-1";
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const other = await generateKeyPair("ES256");
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" }] };
  const jwksUrl = `${issuer}/.well-known/jwks.json`;
  const fetched: string[] = [];
  const fetch = async (input: string) => {
    fetched.push(input);
    if (input !== jwksUrl) return new Response("not found", { status: 404 });
    return new Response(JSON.stringify(jwks), { headers: { "content-type": "application/json" } });
  };
  const defaults = (): JWTPayload & Record<string, unknown> => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: issuer,
      sub: "user_1",
      aud: RESOURCE_A,
      client_id: "dmc_abcdefghijklmnopqrstuvwx",
      scope: "openid profile mcp:tools",
      iat: now,
      exp: now + 3600,
      jti: crypto.randomUUID(),
      auth_time: now - 60,
      grant_id: "grant_1",
    };
  };
  const sign = (key: CryptoKey, claims: JWTPayload & Record<string, unknown>, header: Record<string, unknown>) =>
    new SignJWT({ ...defaults(), ...claims }).setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt", ...header }).sign(key);
  return {
    issuer,
    jwksUrl,
    fetch,
    fetched,
    mint: (claims = {}, header = {}) => sign(privateKey, claims, header),
    mintForged: (claims = {}) => sign(other.privateKey, claims, {}),
  };
}
