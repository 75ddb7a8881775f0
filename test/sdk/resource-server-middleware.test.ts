/**
 * The resource server's HTTP pieces (issue 30): the RFC 9728 metadata document and where it is
 * served, the RFC 6750 challenge, and the Hono and Express middleware that answer 401 (with
 * resource_metadata, so an MCP client can discover the authorization server), 403
 * insufficient_scope, 400 for a malformed header, 503 when the JWKS is out of reach, and hand the
 * verified token on (c.var for Hono; req.auth in the MCP SDK's AuthInfo shape for Express).
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import {
  protectedResourceMetadata,
  protectedResourceMetadataPaths,
  protectedResourceMetadataUrl,
  wwwAuthenticate,
} from "../../sdk/src/resource-server";
import {
  type AuthInfo,
  type NodeRequest,
  protectedResourceMetadataHandler,
  requireDoormanToken as requireForExpress,
} from "../../sdk/src/resource-server/express";
import {
  type DoormanTokenEnv,
  mcpAuthInfo,
  protectedResourceMetadataRoutes,
  requireDoormanToken,
} from "../../sdk/src/resource-server/hono";
import { localIssuer, RESOURCE_A, RESOURCE_B } from "../helpers/resource-server";

const METADATA_URL = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp";

describe("protected resource metadata and the challenge", () => {
  it("builds the RFC 9728 document, omitting what is not stated", () => {
    const issuer = "https://auth.example.test/api/v1/projects/p1";
    expect(
      protectedResourceMetadata({
        resource: RESOURCE_A,
        authorizationServers: [issuer],
        scopesSupported: ["openid", "mcp:tools"],
        resourceName: "Example MCP",
        resourceDocumentation: "https://mcp.example.test/docs",
      }),
    ).toEqual({
      resource: RESOURCE_A,
      authorization_servers: [issuer],
      scopes_supported: ["openid", "mcp:tools"],
      bearer_methods_supported: ["header"],
      resource_name: "Example MCP",
      resource_documentation: "https://mcp.example.test/docs",
    });
    expect(protectedResourceMetadata({ resource: RESOURCE_B, authorizationServers: [issuer] })).toEqual({
      resource: RESOURCE_B,
      authorization_servers: [issuer],
      bearer_methods_supported: ["header"],
    });
    expect(() => protectedResourceMetadata({ resource: "https://x.test/a#frag", authorizationServers: [issuer] })).toThrow(TypeError);
    expect(() => protectedResourceMetadata({ resource: "mcp-server", authorizationServers: [issuer] })).toThrow(TypeError);
    expect(() => protectedResourceMetadata({ resource: RESOURCE_A, authorizationServers: [] })).toThrow(TypeError);
  });

  it("places the metadata as RFC 9728 §3.1 says: the well-known segment between host and path", () => {
    expect(protectedResourceMetadataUrl(RESOURCE_A)).toBe(METADATA_URL);
    expect(protectedResourceMetadataUrl("https://api.example.test")).toBe("https://api.example.test/.well-known/oauth-protected-resource");
    expect(protectedResourceMetadataUrl("https://api.example.test/")).toBe("https://api.example.test/.well-known/oauth-protected-resource");
    expect(protectedResourceMetadataUrl("http://localhost:3001/v1/mcp?tenant=a")).toBe(
      "http://localhost:3001/.well-known/oauth-protected-resource/v1/mcp?tenant=a",
    );
    expect(protectedResourceMetadataPaths(RESOURCE_A)).toEqual([
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]);
    expect(protectedResourceMetadataPaths(RESOURCE_B)).toEqual(["/.well-known/oauth-protected-resource"]);
  });

  it("writes the WWW-Authenticate value of RFC 6750 §3 with RFC 9728's resource_metadata, and nothing that could break it", () => {
    expect(wwwAuthenticate({ resourceMetadataUrl: METADATA_URL })).toBe(`Bearer resource_metadata="${METADATA_URL}"`);
    expect(
      wwwAuthenticate({
        resourceMetadataUrl: METADATA_URL,
        error: "insufficient_scope",
        errorDescription: "Needs more.",
        scope: ["a", "b:c"],
      }),
    ).toBe(`Bearer error="insufficient_scope", error_description="Needs more.", scope="a b:c", resource_metadata="${METADATA_URL}"`);
    expect(wwwAuthenticate({ realm: "api", error: "invalid_token", errorDescription: 'bad "quoted" \\ one\r\nX-Injected: 1' })).toBe(
      'Bearer realm="api", error="invalid_token", error_description="bad quoted  oneX-Injected: 1"',
    );
    expect(wwwAuthenticate()).toBe("Bearer");
  });
});

describe("Hono middleware", () => {
  async function app(requiredScopes?: string[], fetch?: (input: string, init: RequestInit) => Promise<Response>) {
    const as = await localIssuer();
    const hono = new Hono<DoormanTokenEnv>();
    hono.route(
      "/",
      protectedResourceMetadataRoutes({ resource: RESOURCE_A, authorizationServers: [as.issuer], scopesSupported: ["mcp:tools"] }),
    );
    hono.use("/mcp", requireDoormanToken({ issuer: as.issuer, audience: RESOURCE_A, fetch: fetch ?? as.fetch, requiredScopes }));
    hono.post("/mcp", (c) =>
      c.json({
        user: c.var.doormanToken.userId,
        client: c.var.doormanToken.clientId,
        // What a Web-standard MCP transport would get as authInfo.
        mcp: mcpAuthInfo(c.var.doormanAccessToken, c.var.doormanToken),
      }),
    );
    const post = (headers: Record<string, string> = {}) => hono.request("https://mcp.example.test/mcp", { method: "POST", headers });
    return { as, hono, post };
  }

  it("answers 401 with the challenge pointing at the metadata when there is no token, or another scheme", async () => {
    const { post } = await app();
    for (const headers of [{}, { authorization: "Basic dXNlcjpwYXNz" }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA_URL}"`);
      expect(await res.json()).toEqual({ error_description: "An access token is required." });
    }
    const malformed = await post({ authorization: "Bearer two tokens" });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get("www-authenticate")).toContain('error="invalid_request"');
  });

  it("passes a valid token on in c.var, refuses another resource's token with 401 invalid_token", async () => {
    const { as, post } = await app();
    const ok = await post({ authorization: `Bearer ${await as.mint()}` });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { mcp: { token: string } };
    expect(body).toMatchObject({ user: "user_1", client: "dmc_abcdefghijklmnopqrstuvwx" });
    expect(body.mcp).toMatchObject({
      clientId: "dmc_abcdefghijklmnopqrstuvwx",
      scopes: ["openid", "profile", "mcp:tools"],
      resource: RESOURCE_A,
      extra: { userId: "user_1", teamId: null, grantId: "grant_1" },
    });
    expect(body.mcp.token.split(".")).toHaveLength(3);
    const other = await post({ authorization: `bearer ${await as.mint({ aud: RESOURCE_B })}` });
    expect(other.status).toBe(401);
    expect(other.headers.get("www-authenticate")).toBe(
      `Bearer error="invalid_token", error_description="The access token is not for this resource.", resource_metadata="${METADATA_URL}"`,
    );
    expect(await other.json()).toEqual({ error: "invalid_token", error_description: "The access token is not for this resource." });
  });

  it("answers 403 insufficient_scope naming the scopes, and 503 (no challenge) when the JWKS is out of reach", async () => {
    const { as, post } = await app(["notes:write"]);
    const res = await post({ authorization: `Bearer ${await as.mint({ scope: "mcp:tools" })}` });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks a scope this request needs.", scope="notes:write", resource_metadata="${METADATA_URL}"`,
    );
    expect((await post({ authorization: `Bearer ${await as.mint({ scope: "notes:write" })}` })).status).toBe(200);

    const down = await app(undefined, () => Promise.reject(new TypeError("connection refused")));
    const unavailable = await down.post({ authorization: `Bearer ${await down.as.mint()}` });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("www-authenticate")).toBeNull();
  });

  it("serves the metadata at the path-suffixed and the root well-known path, readable from any origin", async () => {
    const { as, hono } = await app();
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const res = await hono.request(`https://mcp.example.test${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toEqual({
        resource: RESOURCE_A,
        authorization_servers: [as.issuer],
        scopes_supported: ["mcp:tools"],
        bearer_methods_supported: ["header"],
      });
    }
  });
});

describe("Express middleware", () => {
  /** Node's request and response, as far as the middleware reads and writes them. */
  function exchange(req: NodeRequest) {
    const res = { statusCode: 200, headers: {} as Record<string, string>, body: undefined as string | undefined, ended: false };
    const response = {
      get statusCode() {
        return res.statusCode;
      },
      set statusCode(v: number) {
        res.statusCode = v;
      },
      setHeader: (name: string, value: string) => {
        res.headers[name.toLowerCase()] = value;
      },
      end: (chunk?: string) => {
        res.body = chunk;
        res.ended = true;
      },
    };
    return { req, res, response };
  }
  const run = (handler: (req: NodeRequest, res: never, next: (e?: unknown) => void) => void, req: NodeRequest) => {
    const x = exchange(req);
    return new Promise<{ res: typeof x.res; nextCalled: boolean; nextError?: unknown }>((resolve) => {
      handler(x.req, x.response as never, (error) => resolve({ res: x.res, nextCalled: true, nextError: error }));
      const poll = () => (x.res.ended ? resolve({ res: x.res, nextCalled: false }) : setTimeout(poll, 1));
      poll();
    });
  };

  it("sets req.auth as the MCP SDK's AuthInfo and calls next; refuses with 401/403 and the challenge", async () => {
    const as = await localIssuer();
    const guard = requireForExpress({ issuer: as.issuer, audience: RESOURCE_A, fetch: as.fetch });
    const token = await as.mint({ team_id: "team_7" });
    const req: NodeRequest = { headers: { authorization: `Bearer ${token}` }, method: "POST", url: "/mcp" };
    const passed = await run(guard, req);
    expect(passed.nextCalled).toBe(true);
    expect(passed.nextError).toBeUndefined();
    const auth = req.auth as AuthInfo;
    expect(auth).toMatchObject({ token, clientId: "dmc_abcdefghijklmnopqrstuvwx", scopes: ["openid", "profile", "mcp:tools"] });
    expect(auth.expiresAt).toBe(Math.floor(req.doormanToken!.expiresAtMillis / 1000));
    expect(auth.resource?.href).toBe(RESOURCE_A);
    expect(auth.extra).toMatchObject({ userId: "user_1", teamId: "team_7", grantId: "grant_1" });

    const none = await run(guard, { headers: {}, method: "POST", url: "/mcp" });
    expect(none.nextCalled).toBe(false);
    expect(none.res.statusCode).toBe(401);
    expect(none.res.headers["www-authenticate"]).toBe(`Bearer resource_metadata="${METADATA_URL}"`);

    const other = await run(guard, {
      headers: { authorization: `Bearer ${await as.mint({ aud: RESOURCE_B })}` },
      method: "POST",
      url: "/mcp",
    });
    expect(other.res.statusCode).toBe(401);
    expect(other.res.headers["www-authenticate"]).toContain('error="invalid_token"');
    expect(JSON.parse(other.res.body ?? "")).toMatchObject({ error: "invalid_token" });

    const scoped = requireForExpress({ issuer: as.issuer, audience: RESOURCE_A, fetch: as.fetch, requiredScopes: ["admin"] });
    const forbidden = await run(scoped, { headers: { authorization: `Bearer ${token}` }, method: "POST", url: "/mcp" });
    expect(forbidden.res.statusCode).toBe(403);
    expect(forbidden.res.headers["www-authenticate"]).toContain('scope="admin"');
  });

  it("serves the metadata on GET of its paths and passes every other request on", async () => {
    const as = await localIssuer();
    const handler = protectedResourceMetadataHandler({ resource: RESOURCE_A, authorizationServers: [as.issuer] });
    const served = await run(handler, { headers: {}, method: "GET", url: "/.well-known/oauth-protected-resource/mcp" });
    expect(served.res.statusCode).toBe(200);
    expect(served.res.headers["access-control-allow-origin"]).toBe("*");
    expect(JSON.parse(served.res.body ?? "")).toMatchObject({ resource: RESOURCE_A, authorization_servers: [as.issuer] });
    const root = await run(handler, { headers: {}, method: "GET", url: "/.well-known/oauth-protected-resource?x=1" });
    expect(root.res.statusCode).toBe(200);
    expect((await run(handler, { headers: {}, method: "POST", url: "/.well-known/oauth-protected-resource" })).nextCalled).toBe(true);
    expect((await run(handler, { headers: {}, method: "GET", url: "/mcp" })).nextCalled).toBe(true);
  });
});
