/**
 * Enterprise SSO sign-in test helpers (issue 31, FLOW): a project with a team, OIDC connections and
 * verified domains written straight to D1 through drizzle (until the management API exists), the SSO
 * authorize URL, and the whole flow driven by hand: authorize → the bundled OpenID provider's login
 * (scripts/oidc-dev-server.mjs, client DOORMAN-SSO) → our OIDC callback → the app's redirect with a code.
 * A fake IdP for the refusals is published on the document server (test/document-server.mjs).
 */
import { env } from "cloudflare:test";
import { expect, inject } from "vitest";
import { readConfig } from "../../worker/config";
import { encryptAtRest } from "../../worker/crypto/at-rest";
import { createDb } from "../../worker/db/client";
import { ssoConnections, ssoDomains } from "../../worker/db/schema";
import type { OidcConnectionConfig } from "../../worker/services/sso/connection-config";
import { call, createProjectWithKeys } from "./api";
import { APP_CALLBACK, type ClientCreds, fetchWorker, loginAtProvider } from "./oauth";

/** The dev IdP's SSO client (scripts/oidc-dev-server.mjs SSO_CLIENT_ID/SECRET; that module is Node-only, so not imported into workerd). */
export const SSO_CLIENT_ID = "DOORMAN-SSO";
const SSO_CLIENT_SECRET = "doorman-sso-dev-client-secret";

export type SsoProject = Awaited<ReturnType<typeof createProjectWithKeys>> & { teamId: string };

/** A project whose new team members get `$read_members` by default (JIT joins are checked against it), and one team. */
export async function ssoProject(config: Record<string, unknown> = {}): Promise<SsoProject> {
  const p = await createProjectWithKeys({ team_member_default_permissions: [{ id: "$read_members" }], ...config });
  const team = await call("/teams", { ...p.server, body: { display_name: "Acme" } });
  expect(team.status, team.text).toBe(201);
  return { ...p, teamId: team.body.id as string };
}

/** A fresh domain name for one test (the verified-domain index is per project, but names stay readable). */
export function uniqueDomain(tag = "acme"): string {
  return `${tag}-${crypto.randomUUID().slice(0, 8)}.example`;
}

let sealedSecret: Promise<string> | undefined;
/** The dev IdP's SSO client secret, sealed as the management API stores it. */
function devClientSecretSealed(): Promise<string> {
  sealedSecret ??= encryptAtRest(readConfig(env).serverSecret, SSO_CLIENT_SECRET);
  return sealedSecret;
}

/** Writes an OIDC connection of the team (default: the dev IdP's confidential DOORMAN-SSO client). */
export async function insertOidcConnection(
  p: SsoProject,
  o: Partial<OidcConnectionConfig> & { clientSecret?: string | null; enabled?: boolean; teamId?: string; displayName?: string } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  const now = Date.now();
  const clientSecretSealed =
    o.clientSecret === undefined
      ? await devClientSecretSealed()
      : o.clientSecret === null
        ? null
        : await encryptAtRest(readConfig(env).serverSecret, o.clientSecret);
  const config: OidcConnectionConfig = {
    issuer: o.issuer ?? env.OAUTH_MOCK_ISSUER!,
    clientId: o.clientId ?? SSO_CLIENT_ID,
    clientSecretSealed,
    scopes: o.scopes ?? [],
    attributeMapping: o.attributeMapping ?? { email: null, name: null, groups: null },
  };
  await createDb(env.DB)
    .insert(ssoConnections)
    .values({
      id,
      projectId: p.projectId,
      teamId: o.teamId ?? p.teamId,
      protocol: "oidc",
      displayName: o.displayName ?? "Acme IdP",
      enabled: o.enabled ?? true,
      config,
      createdAt: now,
      updatedAt: now,
    });
  return id;
}

/** Writes a claim of `domain` by the team (verified unless said otherwise). */
export async function insertDomain(
  p: SsoProject,
  domain: string,
  o: {
    status?: "pending" | "verified" | "lost";
    enforceSso?: boolean;
    autoJoin?: boolean;
    connectionId?: string | null;
    teamId?: string;
  } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  const status = o.status ?? "verified";
  await createDb(env.DB)
    .insert(ssoDomains)
    .values({
      id,
      projectId: p.projectId,
      teamId: o.teamId ?? p.teamId,
      connectionId: o.connectionId ?? null,
      domain,
      verificationToken: crypto.randomUUID(),
      status,
      verifiedAt: status === "verified" ? Date.now() : null,
      enforceSso: o.enforceSso ?? false,
      autoJoin: o.autoJoin ?? false,
      createdAt: Date.now(),
    });
  return id;
}

export type SsoAuthorizeOptions = {
  email?: string;
  connectionId?: string;
  state?: string;
  challenge?: string;
  redirectUri?: string;
  errorRedirectUrl?: string;
  responseMode?: "json" | "redirect";
  extra?: Record<string, string>;
};

export function ssoAuthorizeUrl(client: ClientCreds, o: SsoAuthorizeOptions): string {
  const q = new URLSearchParams({
    client_id: client.projectId,
    client_secret: client.publishableClientKey ?? "__stack_public_client__",
    redirect_uri: o.redirectUri ?? APP_CALLBACK,
    scope: "legacy",
    state: o.state ?? "outer-state-sso",
    grant_type: "authorization_code",
    code_challenge: o.challenge ?? "sso-code-challenge-plain-0123456789abcdef0123456789",
    code_challenge_method: o.challenge ? "S256" : "plain",
    response_type: "code",
    error_redirect_url: o.errorRedirectUrl ?? "http://localhost:3000/handler/error",
    ...(o.email ? { email: o.email } : {}),
    ...(o.connectionId ? { connection_id: o.connectionId } : {}),
    ...(o.responseMode === "json" ? { stack_response_mode: "json" } : {}),
    ...(o.extra ?? {}),
  });
  return `http://localhost/api/v1/auth/sso/authorize?${q}`;
}

/** GET /auth/sso/authorize (redirect mode): the IdP URL it sends the browser to. */
export async function startSso(client: ClientCreds, o: SsoAuthorizeOptions): Promise<URL> {
  const res = await fetchWorker(ssoAuthorizeUrl(client, o));
  expect(res.status, await res.clone().text()).toBe(302);
  return new URL(res.headers.get("location")!);
}

export type SsoFlow = { idpUrl: URL; idpCallback: string; callback: Response; location: URL; code: string; state: string };

/** authorize → the dev IdP's login as `email` → our callback; the app redirect (a code, or an error). */
export async function ssoFlow(client: ClientCreds, loginEmail: string, o: SsoAuthorizeOptions): Promise<SsoFlow> {
  const idpUrl = await startSso(client, o);
  const idpCallback = await loginAtProvider(idpUrl.toString(), loginEmail);
  const callback = await fetchWorker(idpCallback);
  const location = new URL(callback.headers.get("location") ?? "http://invalid/");
  return {
    idpUrl,
    idpCallback,
    callback,
    location,
    code: location.searchParams.get("code") ?? "",
    state: location.searchParams.get("state") ?? "",
  };
}

/** The known error of an error redirect (errorCode/details query parameters, as the OAuth callback sends them). */
export function redirectedError(location: URL): { code: string | null; details: Record<string, unknown> } {
  return { code: location.searchParams.get("errorCode"), details: JSON.parse(location.searchParams.get("details") ?? "{}") };
}

/* ------------------------------------------------------------------------------------------------
 * A fake IdP on the document server: discovery, key set and token answer are documents a test
 * publishes (any method reads them), so a test chooses exactly what the token endpoint answers.
 * ---------------------------------------------------------------------------------------------- */

const documentOrigin = () => `http://127.0.0.1:${inject("documentServerPort")}`;

export async function publishDocument(name: string, config: { body?: unknown; status?: number; mode?: string }): Promise<void> {
  const res = await fetch(`${documentOrigin()}/control/${encodeURIComponent(name)}`, { method: "PUT", body: JSON.stringify(config) });
  expect(res.status).toBe(200);
}

export type FakeIdp = { issuer: string; name: string; tokenEndpoint: string; jwksUri: string };

/** A fake issuer whose discovery names its token endpoint and key set on the document server. */
export async function fakeIdp(o: { algs?: string[]; authMethods?: string[] } = {}): Promise<FakeIdp> {
  const name = `idp-${crypto.randomUUID().slice(0, 8)}`;
  const issuer = `${documentOrigin()}/docs/${name}`;
  const idp = { issuer, name, tokenEndpoint: `${issuer}/token`, jwksUri: `${issuer}/jwks` };
  await publishDocument(`${name}/.well-known/openid-configuration`, {
    body: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: idp.tokenEndpoint,
      jwks_uri: idp.jwksUri,
      token_endpoint_auth_methods_supported: o.authMethods ?? ["client_secret_basic"],
      id_token_signing_alg_values_supported: o.algs ?? ["RS256", "ES256"],
    },
  });
  return idp;
}
