/**
 * The OIDC connection's token exchange (issue 31, FLOW; Core §3.1.3.1): the IdP's code with our PKCE
 * verifier, authenticated with the sealed client secret as the issuer announces (client_secret_basic,
 * preferred, or client_secret_post), or as a public client (client_id only). Bounded (bounds.ts).
 */
import { boundedFetch } from "../../../lib/outbound-fetch";
import type { Deps } from "../../deps";
import { oidcBounds, parseJsonObject } from "./bounds";
import type { OidcDiscovery } from "./discovery";

export type TokenExchange = { ok: true; idToken: string } | { ok: false; kind: "unavailable" | "refused"; message: string };

/** RFC 6749 §2.3.1: the id and secret are form-urlencoded before they are joined for Basic. */
const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");

export async function exchangeOidcCode(
  deps: Deps,
  discovery: OidcDiscovery,
  client: { clientId: string; clientSecret: string | null; redirectUri: string },
  input: { code: string; verifier: string },
): Promise<TokenExchange> {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: input.code,
    redirect_uri: client.redirectUri,
    code_verifier: input.verifier,
  });
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
    "user-agent": "doorman",
  };
  const methods = discovery.tokenAuthMethods;
  if (client.clientSecret && (methods.includes("client_secret_basic") || !methods.includes("client_secret_post"))) {
    headers.authorization = `Basic ${btoa(`${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`)}`;
  } else {
    body.set("client_id", client.clientId);
    if (client.clientSecret) body.set("client_secret", client.clientSecret);
  }
  const res = await boundedFetch(discovery.tokenEndpoint, { method: "POST", headers, body: body.toString() }, oidcBounds(deps));
  if (!res.ok) return { ok: false, kind: "unavailable", message: `token endpoint: ${res.message}` };
  const doc = parseJsonObject(res.body);
  if (res.status >= 500) return { ok: false, kind: "unavailable", message: `token endpoint answered ${res.status}` };
  if (res.status !== 200 || !doc)
    return { ok: false, kind: "refused", message: `token endpoint refused the code (${res.status} ${String(doc?.error ?? "")})` };
  if (typeof doc.id_token !== "string") return { ok: false, kind: "refused", message: "the token answer has no id_token" };
  return { ok: true, idToken: doc.id_token };
}
