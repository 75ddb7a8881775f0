/**
 * The example MCP server's tools. Each runs with the caller's verified Doorman token
 * (`extra.authInfo`, set by the middleware as `req.auth`): who the user is, which app calls, what it
 * may do, and for B2B servers the team the user bound the token to on the consent page.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod/v4";

/** A team's notes, in memory: what `team_notes` reads and writes, keyed by the token's team. */
const notesByTeam = new Map();

/** @param {import("@modelcontextprotocol/sdk/server/auth/types.js").AuthInfo | undefined} auth */
function identity(auth) {
  const extra = auth?.extra ?? {};
  return {
    user_id: typeof extra.userId === "string" ? extra.userId : null,
    client_id: auth?.clientId ?? null,
    scopes: auth?.scopes ?? [],
    team_id: typeof extra.teamId === "string" ? extra.teamId : null,
    resource: auth?.resource?.href ?? null,
    expires_at: auth?.expiresAt ?? null,
  };
}

/** @param {unknown} value */
const text = (value) => ({ content: [{ type: /** @type {const} */ ("text"), text: JSON.stringify(value) }] });

/** A new MCP server with the example's tools (stateless: one per request). */
export function createMcpServer() {
  const server = new McpServer({ name: "doorman-example-mcp", version: "1.0.0" });

  server.registerTool(
    "whoami",
    { description: "Who is calling: the Doorman user id, the app (OAuth client id) and the scopes of the access token." },
    async (extra) => text(identity(extra.authInfo)),
  );

  server.registerTool(
    "team_notes",
    {
      description:
        "The notes of the team the access token is bound to (the user chose it on Doorman's consent page; scope `team`). Pass `add` to add one.",
      inputSchema: { add: z.string().min(1).max(500).optional() },
    },
    async ({ add }, extra) => {
      const who = identity(extra.authInfo);
      // Organization scoping: a token carries at most one team, and only that team's data is reachable.
      if (!who.team_id) {
        return {
          ...text({ error: "This token is not bound to a team: connect again with the scope `team` and choose one." }),
          isError: true,
        };
      }
      const notes = notesByTeam.get(who.team_id) ?? [];
      if (add) notes.push({ text: add, by: who.user_id, at: new Date().toISOString() });
      notesByTeam.set(who.team_id, notes);
      return text({ team_id: who.team_id, notes });
    },
  );

  return server;
}
