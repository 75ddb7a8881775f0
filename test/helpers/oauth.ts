/**
 * OAuth test helpers: drive the real flow by hand (authorize → bundled OpenID provider's login
 * form → callback → code grant), following each redirect with fetch and a tiny cookie jar.
 */

import { expect } from "vitest";
import { call } from "./api";
import { workerFetch } from "./worker-fetch";

export const APP_CALLBACK = "http://localhost:3000/handler/oauth-callback";

export type ClientCreds = { projectId: string; publishableClientKey?: string };

/** Cookie jar keyed by name (paths ignored: the flows here never reuse names across paths). */
export class CookieJar {
  private cookies = new Map<string, string>();
  store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const i = pair!.indexOf("=");
      const value = pair!.slice(i + 1);
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(pair!.slice(0, i));
      else this.cookies.set(pair!.slice(0, i), value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  names(): string[] {
    return [...this.cookies.keys()];
  }
}

export async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export function randomVerifier(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export type AuthorizeOptions = {
  provider?: string;
  redirectUri?: string;
  state?: string;
  challenge?: string;
  method?: "S256" | "plain";
  type?: "authenticate" | "link";
  token?: string;
  responseMode?: "json" | "redirect";
  extra?: Record<string, string>;
  nowMs?: number;
};

export function authorizeUrl(client: ClientCreds, o: AuthorizeOptions = {}): string {
  const q = new URLSearchParams({
    client_id: client.projectId,
    client_secret: client.publishableClientKey ?? "__stack_public_client__",
    redirect_uri: o.redirectUri ?? APP_CALLBACK,
    scope: "legacy",
    state: o.state ?? "outer-state-123",
    grant_type: "authorization_code",
    code_challenge: o.challenge ?? "some-code-challenge",
    code_challenge_method: o.method ?? "plain",
    response_type: "code",
    type: o.type ?? "authenticate",
    error_redirect_url: "http://localhost:3000/handler/error",
    ...(o.token ? { token: o.token } : {}),
    ...(o.responseMode === "json" ? { stack_response_mode: "json" } : {}),
    ...(o.extra ?? {}),
  });
  return `http://localhost/api/v1/auth/oauth/authorize/${o.provider ?? "github"}?${q}`;
}

export function fetchWorker(url: string, init: RequestInit & { nowMs?: number } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.nowMs !== undefined) headers.set("x-doorman-test-now", String(init.nowMs));
  return workerFetch(url, { ...init, headers, redirect: "manual" });
}

/** Signs in at the bundled OpenID provider; returns the provider's redirect to our callback. */
export async function loginAtProvider(providerUrl: string, email: string): Promise<string> {
  const jar = new CookieJar();
  let res = await fetch(providerUrl, { redirect: "manual" });
  jar.store(res);
  expect(res.status).toBe(303);
  const interaction = new URL(res.headers.get("location")!, providerUrl);
  res = await fetch(`${interaction.origin}${interaction.pathname}/login`, {
    method: "POST",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }).toString(),
    redirect: "manual",
  });
  jar.store(res);
  expect(res.status).toBe(303);
  res = await fetch(new URL(res.headers.get("location")!, providerUrl), { headers: { cookie: jar.header() }, redirect: "manual" });
  expect(res.status).toBe(303);
  return res.headers.get("location")!;
}

export type FlowResult = { code: string; state: string; location: URL; callback: Response };

/** authorize (redirect mode) → provider login → our callback; returns the app redirect. */
export async function oauthFlow(client: ClientCreds, email: string, o: AuthorizeOptions = {}): Promise<FlowResult> {
  const jar = new CookieJar();
  const start = await fetchWorker(authorizeUrl(client, o), { nowMs: o.nowMs });
  expect(start.status, await start.clone().text()).toBe(307);
  jar.store(start);
  const providerCallback = await loginAtProvider(start.headers.get("location")!, email);
  const callback = await fetchWorker(providerCallback, { headers: { cookie: jar.header() }, nowMs: o.nowMs });
  const location = new URL(callback.headers.get("location") ?? "http://invalid/");
  return { code: location.searchParams.get("code") ?? "", state: location.searchParams.get("state") ?? "", location, callback };
}

export function exchangeCode(client: ClientCreds, code: string, verifier: string, redirectUri = APP_CALLBACK, nowMs?: number) {
  return call("/auth/oauth/token", {
    contentType: "application/x-www-form-urlencoded",
    rawBody: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: client.projectId,
      client_secret: client.publishableClientKey ?? "__stack_public_client__",
    }).toString(),
    nowMs,
  });
}

/** Full sign-in (plain PKCE): tokens of the code grant. */
export async function signInWithProvider(client: ClientCreds, email: string, o: AuthorizeOptions = {}) {
  const verifier = randomVerifier();
  const flow = await oauthFlow(client, email, { ...o, method: "S256", challenge: await s256(verifier) });
  expect(flow.callback.status, flow.location.toString()).toBe(303);
  expect(flow.code).toHaveLength(45);
  const res = await exchangeCode(client, flow.code, verifier);
  expect(res.status, res.text).toBe(200);
  return res.body as { access_token: string; refresh_token: string; is_new_user: boolean; after_callback_redirect_url: string | null };
}
