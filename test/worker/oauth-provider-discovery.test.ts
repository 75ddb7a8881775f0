/**
 * The OpenID provider's discovery (issue 30): the metadata document under the issuer at both
 * well-known names and at the origin's RFC 8414 path-insertion forms, the registration and CIMD flags,
 * the JWKS it points at (and the existing JWKS routes beside it), CORS for browsers, unknown projects.
 */
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { issuerOf, providerProject } from "../helpers/oauth-provider";
import { workerFetch } from "../helpers/worker-fetch";

const get = (url: string, headers: Record<string, string> = {}) => workerFetch(url, { headers });

describe("OpenID provider discovery", () => {
  it("serves one document at both well-known names and at both path-insertion forms", async () => {
    const p = await providerProject({ scopes: { "read:notes": { description: "Read your notes" } } });
    const issuer = issuerOf(p.projectId);
    const urls = [
      `${issuer}/.well-known/openid-configuration`,
      `${issuer}/.well-known/oauth-authorization-server`,
      `http://localhost/.well-known/oauth-authorization-server/api/v1/projects/${p.projectId}`,
      `http://localhost/.well-known/openid-configuration/api/v1/projects/${p.projectId}`,
    ];
    const docs = [];
    for (const url of urls) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      docs.push(await res.json());
    }
    for (const doc of docs.slice(1)) expect(doc).toEqual(docs[0]);
    const doc = docs[0] as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      userinfo_endpoint: `${issuer}/oauth/userinfo`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["ES256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
      code_challenge_methods_supported: ["S256"],
      prompt_values_supported: ["none", "login", "consent", "select_account"],
      authorization_response_iss_parameter_supported: true,
      request_parameter_supported: false,
    });
    expect(doc.scopes_supported).toEqual(["openid", "profile", "email", "offline_access", "team", "read:notes"]);
    expect(doc.claims_supported).toEqual(
      expect.arrayContaining(["sub", "email", "email_verified", "name", "picture", "amr", "acr", "team_id"]),
    );
    expect(doc.token_endpoint_auth_signing_alg_values_supported).toContain("ES256");
    expect(doc.introspection_endpoint_auth_methods_supported).not.toContain("none");
    // Registration and CIMD are off by default: not announced.
    expect(doc).not.toHaveProperty("registration_endpoint");
    expect(doc).not.toHaveProperty("client_id_metadata_document_supported");

    // The JWKS it names is the project's existing one, and the anonymous alias still redirects.
    const jwks = await get(doc.jwks_uri as string);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    const alias = await get(`http://localhost/api/v1/projects-anonymous-users/${p.projectId}/.well-known/jwks.json`);
    expect(alias.status).toBe(307);
    expect(alias.headers.get("location")).toContain(`/projects/${p.projectId}/.well-known/jwks.json?include_anonymous=true`);
  });

  it("announces registration and client ID metadata documents only when the owner turns them on", async () => {
    const p = await providerProject({ dynamicRegistration: true, clientIdMetadataDocuments: true });
    const doc = (await (await get(`${issuerOf(p.projectId)}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(doc.registration_endpoint).toBe(`${issuerOf(p.projectId)}/oauth/register`);
    expect(doc.client_id_metadata_document_supported).toBe(true);
  });

  it("answers browsers from any origin without credentials, and 404 for an unknown project", async () => {
    const p = await providerProject();
    const res = await get(`${issuerOf(p.projectId)}/.well-known/openid-configuration`, { origin: "https://mcp-client.example" });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    const preflight = await workerFetch(`${issuerOf(p.projectId)}/oauth/token`, {
      method: "OPTIONS",
      headers: {
        origin: "https://spa.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization");
    expect(preflight.headers.get("access-control-expose-headers")).toContain("www-authenticate");

    const missing = crypto.randomUUID();
    expect((await get(`${issuerOf(missing)}/.well-known/openid-configuration`)).status).toBe(404);
    expect((await get(`http://localhost/.well-known/oauth-authorization-server/api/v1/projects/${missing}`)).status).toBe(404);
  });

  it("is in the OpenAPI document, declared as a public OAuth-wire route", async () => {
    const doc = await call("/openapi.json");
    const op = doc.body.paths["/projects/{projectId}/.well-known/openid-configuration"]?.get;
    expect(op?.["x-doorman-access"]).toEqual(["public"]);
    expect(op?.["x-doorman-error-format"]).toBe("oauth");
    for (const path of [
      "/projects/{projectId}/oauth/authorize",
      "/projects/{projectId}/oauth/token",
      "/projects/{projectId}/oauth/userinfo",
    ])
      expect(doc.body.paths[path], path).toBeDefined();
  });
});
