/**
 * /sso/domains (issue 31, ADMIN): a team's email domains: claim (pending, with the TXT record to
 * publish), list, verify now through DNS-over-HTTPS, change routing, enforcement and auto-join,
 * remove. Access as the connections'.
 */

import { successSchema } from "@doorman/shared/wire";
import { ssoDomainCreateSchema, ssoDomainSchema, ssoDomainUpdateSchema } from "@doorman/shared/wire-sso";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { verifySsoDomain } from "../../services/sso/domain-verification";
import { claimSsoDomain, listSsoDomains, removeSsoDomain, updateSsoDomain } from "../../services/sso/domains";
import { ssoDomainView } from "../../views/sso";
import { SSO_ACCESS_ERRORS, ssoManager } from "./manager";

const ACCESS = ["client", "server", "admin"] as const;
const domainParams = z.strictObject({ domainId: z.string().min(1).max(64) });
const NOT_FOUND = [...SSO_ACCESS_ERRORS, "SSO_DOMAIN_NOT_FOUND"] as const;

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "A team's claimed email domains, with their TXT records and status",
  access: ACCESS,
  query: z.strictObject({ team_id: z.string().min(1).max(64) }),
  response: z.object({ items: z.array(ssoDomainSchema), is_paginated: z.literal(false) }),
  errors: SSO_ACCESS_ERRORS,
});
const claim = defineRoute({
  method: "post",
  path: "/",
  summary: "Claim an email domain for a team: pending until its TXT record is found",
  access: ACCESS,
  body: ssoDomainCreateSchema,
  response: { status: 201, description: "The claim, with the TXT record to publish", schema: ssoDomainSchema },
  errors: [...SSO_ACCESS_ERRORS, "SSO_DOMAIN_INVALID", "SSO_DOMAIN_ALREADY_CLAIMED", "SCHEMA_ERROR"],
});
const update = defineRoute({
  method: "patch",
  path: "/{domainId}",
  summary: "Change a domain's connection (one of the team's; null: the first enabled one), SSO enforcement and auto-join",
  access: ACCESS,
  params: domainParams,
  body: ssoDomainUpdateSchema,
  response: ssoDomainSchema,
  errors: [...NOT_FOUND, "SSO_CONNECTION_NOT_FOUND", "SCHEMA_ERROR"],
});
const remove = defineRoute({
  method: "delete",
  path: "/{domainId}",
  summary: "Remove a domain claim: its emails stop routing, enforcing and auto-joining at once",
  access: ACCESS,
  params: domainParams,
  response: successSchema,
  errors: NOT_FOUND,
});
const verify = defineRoute({
  method: "post",
  path: "/{domainId}/verify",
  summary: "Look the domain's TXT record up now (DNS-over-HTTPS): verified when found",
  description:
    "At most SSO_DOMAIN_CHECK_PER_TEAM checks per team (429 with Retry-After beyond). A verified domain whose record is gone becomes lost.",
  access: ACCESS,
  params: domainParams,
  body: z.strictObject({}).optional(),
  response: ssoDomainSchema,
  errors: [...NOT_FOUND, "SSO_DOMAIN_ALREADY_VERIFIED", "SSO_DOMAIN_VERIFICATION_FAILED"],
});

export const ssoDomainsRoutes = routeGroup();
addRoute(ssoDomainsRoutes, list, async (c, { auth, query }) => {
  const rows = unwrap(await listSsoDomains(c.get("deps"), auth.project.id, query.team_id, await ssoManager(c, auth))).value;
  return c.json({ items: rows.map(ssoDomainView), is_paginated: false as const });
});
addRoute(ssoDomainsRoutes, claim, async (c, { auth, body }) => {
  const row = unwrap(await claimSsoDomain(c.get("deps"), auth.project.id, body.team_id, body.domain, await ssoManager(c, auth))).value;
  return c.json(ssoDomainView(row), 201);
});
addRoute(ssoDomainsRoutes, update, async (c, { auth, params, body }) => {
  const row = unwrap(await updateSsoDomain(c.get("deps"), auth.project.id, params.domainId, await ssoManager(c, auth), body)).value;
  return c.json(ssoDomainView(row));
});
addRoute(ssoDomainsRoutes, remove, async (c, { auth, params }) => {
  unwrap(await removeSsoDomain(c.get("deps"), auth.project.id, params.domainId, await ssoManager(c, auth)));
  return c.json({ success: true as const });
});
addRoute(ssoDomainsRoutes, verify, async (c, { auth, params }) => {
  const row = unwrap(await verifySsoDomain(c.get("deps"), auth.project, params.domainId, await ssoManager(c, auth))).value;
  return c.json(ssoDomainView(row));
});
