/** /internal/hosted-pages: the project's hosted pages URL and its custom domain (admin: read, map, remove). */
import { customDomainBodySchema, hostedPagesAdminSchema } from "@doorman/shared/wire-hosted-pages";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import {
  type HostedPagesSettings,
  readHostedPagesSettings,
  removeCustomDomain,
  setCustomDomain,
} from "../../services/hosted-pages/custom-domain";

const view = (s: HostedPagesSettings) => ({ hosted_url: s.hostedUrl, custom_domain: s.customDomain });

const read = defineRoute({
  method: "get",
  path: "/",
  summary: "The project's hosted pages: their URL and custom domain",
  access: ["admin"],
  response: hostedPagesAdminSchema,
});
const set = defineRoute({
  method: "put",
  path: "/custom-domain",
  summary: "Map a custom domain (e.g. auth.example.com) to the project's hosted pages",
  description:
    "Replaces the project's previous custom domain. A hostname belongs to one project: another project's is CUSTOM_DOMAIN_TAKEN.",
  access: ["admin"],
  body: customDomainBodySchema,
  response: hostedPagesAdminSchema,
  errors: ["CUSTOM_DOMAIN_INVALID", "CUSTOM_DOMAIN_TAKEN"],
});
const remove = defineRoute({
  method: "delete",
  path: "/custom-domain",
  summary: "Remove the project's custom domain",
  access: ["admin"],
  response: hostedPagesAdminSchema,
});

export const internalHostedPagesRoutes = routeGroup();
addRoute(internalHostedPagesRoutes, read, async (c, { auth }) => c.json(view(await readHostedPagesSettings(c.get("deps"), auth.project))));
addRoute(internalHostedPagesRoutes, set, async (c, { auth, body }) =>
  c.json(view(unwrap(await setCustomDomain(c.get("deps"), auth.project, body.hostname)).settings)),
);
addRoute(internalHostedPagesRoutes, remove, async (c, { auth }) => c.json(view(await removeCustomDomain(c.get("deps"), auth.project))));
