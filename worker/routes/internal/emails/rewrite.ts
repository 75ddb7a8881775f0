/**
 * POST /internal/rewrite-template-source (admin, as the reference): a template's TSX turned into a
 * standalone draft's (its preview variables become constants; services/email/template-rewrite.ts).
 */
import { z } from "zod";
import { unwrap } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import { rewriteTemplateSource } from "../../../services/email/template-rewrite";

const rewrite = defineRoute({
  method: "post",
  path: "/",
  summary: "Turn a template's TSX into a standalone draft's: its PreviewVariables become `const variables`, its schema goes",
  access: ["admin"],
  body: z.object({ template_tsx_source: z.string().max(100_000) }),
  response: z.object({ tsx_source: z.string() }),
  errors: ["SCHEMA_ERROR", "TEMPLATE_SOURCE_REWRITE_ERROR"],
});

export const rewriteTemplateSourceRoutes = routeGroup();
addRoute(rewriteTemplateSourceRoutes, rewrite, async (c, { auth, body }) => {
  const result = unwrap(await rewriteTemplateSource(c.get("deps"), auth.project, body.template_tsx_source));
  return c.json({ tsx_source: result.source });
});
