#!/usr/bin/env node
/**
 * An MCP server protected by Doorman (docs/oauth-provider.md, "An MCP server"): a Streamable HTTP
 * endpoint at /mcp that takes only access tokens a Doorman project issued for it (aud = its resource
 * URL), and the RFC 9728 metadata that tells an MCP client where to sign in (the project's issuer).
 *
 *   node sdk/build.mjs      # once: the example imports the SDK's built entry @doorman/sdk/resource-server/express
 *   DOORMAN_API_URL=http://localhost:8788 DOORMAN_PROJECT_ID=<project id> PORT=3001 node sdk/examples/mcp-server/server.mjs
 *
 * Env: DOORMAN_API_URL (the Doorman API origin, as in the tokens' iss), DOORMAN_PROJECT_ID, PORT (3001),
 * HOST (127.0.0.1), MCP_RESOURCE_URL (default http://localhost:PORT/mcp; set it to the public URL when deployed),
 * MCP_SCOPES (space-separated scopes to advertise; default "openid profile email offline_access").
 * Tests start it in-process with `startMcpServer({ … })`.
 */
import { createServer } from "node:http";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { protectedResourceMetadataUrl } from "@doorman/sdk/resource-server";
import { protectedResourceMetadataHandler, requireDoormanToken } from "@doorman/sdk/resource-server/express";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpServer } from "./tools.mjs";

export const DEFAULT_SCOPES = ["openid", "profile", "email", "offline_access"];

/**
 * @typedef {object} McpServerOptions
 * @property {string} doormanApiUrl  Doorman's API origin (the tokens' iss is `{doormanApiUrl}/api/v1/projects/{projectId}`).
 * @property {string} projectId
 * @property {number} [port]  0 = any free port (tests).
 * @property {string} [host]
 * @property {string} [resourceUrl]  This server's resource identifier; default `http://localhost:{port}/mcp`.
 * @property {string[]} [scopes]  The scopes its metadata advertises (an MCP client asks for all of them).
 * @property {string} [resourceName]
 *
 * @typedef {object} RunningMcpServer
 * @property {string} url  The MCP endpoint (= the resource identifier).
 * @property {string} issuer
 * @property {string} resourceMetadataUrl
 * @property {() => Promise<void>} close
 */

/**
 * Starts the example server and answers where it listens.
 * @param {McpServerOptions} options
 * @returns {Promise<RunningMcpServer>}
 */
export async function startMcpServer(options) {
  const host = options.host ?? "127.0.0.1";
  const http = createServer();
  await new Promise((done, fail) => {
    http.once("error", fail);
    http.listen(options.port ?? 3001, host, () => done(undefined));
  });
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const resource = options.resourceUrl ?? `http://localhost:${port}/mcp`;
  const issuer = `${options.doormanApiUrl.replace(/\/+$/, "")}/api/v1/projects/${options.projectId}`;
  const path = new URL(resource).pathname;

  // Express with JSON bodies and, on loopback, the MCP SDK's DNS-rebinding protection (Host must be local);
  // deployed, only the resource URL's host is accepted.
  const loopback = ["127.0.0.1", "localhost", "::1"].includes(host);
  const app = createMcpExpressApp(loopback ? { host } : { host, allowedHosts: [new URL(resource).hostname] });
  // RFC 9728: where an MCP client that got a 401 learns which authorization server to use.
  const metadata = protectedResourceMetadataHandler({
    resource,
    authorizationServers: [issuer],
    scopesSupported: options.scopes ?? DEFAULT_SCOPES,
    resourceName: options.resourceName ?? "Doorman example MCP server",
  });
  app.use(metadata);
  // Only tokens for this server (aud = resource): a token the same project issued for another API is refused.
  const guard = requireDoormanToken({ issuer, audience: resource });
  /**
   * @param {import("node:http").IncomingMessage & { body?: unknown, auth?: import("@doorman/sdk/resource-server/express").AuthInfo }} req
   * @param {import("node:http").ServerResponse} res
   */
  const handleMcp = async (req, res) => {
    if (req.method !== "POST") {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      res.writeHead(405, { allow: "POST", "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }));
      return;
    }
    const server = createMcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The transport reads req.auth (set by the guard) and hands it to the tools as extra.authInfo.
    await transport.handleRequest(req, res, req.body);
  };
  app.all(path, guard, handleMcp);
  http.on("request", app);

  return {
    url: resource,
    issuer,
    resourceMetadataUrl: protectedResourceMetadataUrl(resource),
    close: () =>
      new Promise((done) => {
        http.closeAllConnections();
        http.close(() => done(undefined));
      }),
  };
}

// Run as a program: read the environment.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const doormanApiUrl = process.env.DOORMAN_API_URL;
  const projectId = process.env.DOORMAN_PROJECT_ID;
  if (!doormanApiUrl || !projectId) {
    console.error("Set DOORMAN_API_URL (e.g. http://localhost:8788) and DOORMAN_PROJECT_ID.");
    process.exit(2);
  }
  const running = await startMcpServer({
    doormanApiUrl,
    projectId,
    port: Number(process.env.PORT ?? 3001),
    host: process.env.HOST,
    resourceUrl: process.env.MCP_RESOURCE_URL,
    scopes: process.env.MCP_SCOPES?.split(" ").filter(Boolean),
  });
  console.log(`MCP server at ${running.url} (tokens from ${running.issuer}); metadata at ${running.resourceMetadataUrl}`);
}
