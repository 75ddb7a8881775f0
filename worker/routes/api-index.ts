/** GET /api/v1: the API's welcome text, naming how the request was authenticated (as the reference). */

import { z } from "zod";
import { addRoute, defineRoute, routeGroup } from "../http/route";

const index = defineRoute({
  method: "get",
  path: "/",
  summary: "The API's welcome text, with who the request authenticated as",
  access: "public",
  query: z.strictObject({}),
  response: { status: 200, description: "Human-readable text", schema: z.string(), contentType: "text/plain" },
});

export const apiIndexRoutes = routeGroup();
addRoute(apiIndexRoutes, index, (c, { auth }) => {
  const lines = ["Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.", ""];
  if (!auth) lines.push("Authentication: None");
  else {
    const user = auth.user ? (auth.user.primaryEmail?.value ?? auth.user.user.id) : "None";
    const type = auth.type[0]!.toUpperCase() + auth.type.slice(1);
    lines.push(`Authentication: ${type}`, `  Project: ${auth.project.id}`, `  User: ${user}`);
  }
  return c.text(lines.join("\n"));
});
