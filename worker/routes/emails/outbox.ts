/**
 * The email outbox (issue 24), as the reference: GET /emails/outbox (cursor paging, status filters),
 * GET /emails/outbox/{id}, PATCH /emails/outbox/{id} (pause, cancel, reschedule, new content).
 * Server or admin access; the contract is sdk/src/shared/wire-email-outbox.ts.
 */

import {
  emailOutboxItemSchema,
  emailOutboxListQuerySchema,
  emailOutboxListSchema,
  emailOutboxUpdateSchema,
} from "@doorman/shared/wire-email-outbox";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { getOutboxEmail, listOutbox, updateOutboxEmail } from "../../services/email/outbox-admin";

const params = z.strictObject({ id: z.string().min(1).max(64) });

const list = defineRoute({
  method: "get",
  path: "/outbox",
  summary: "List the project's outbox, newest first: status or simple_status filters, limit (1-100), cursor (a page's first email id)",
  access: ["server", "admin"],
  query: emailOutboxListQuerySchema,
  response: emailOutboxListSchema,
  errors: ["SCHEMA_ERROR"],
});

const getOne = defineRoute({
  method: "get",
  path: "/outbox/{id}",
  summary: "One outbox email: its status, rendered copy (codes redacted), retries and attempt errors",
  access: ["server", "admin"],
  params,
  response: emailOutboxItemSchema,
});

const patch = defineRoute({
  method: "patch",
  path: "/outbox/{id}",
  summary: "Pause, unpause, cancel, reschedule (retry a failed email) or change what an outbox email renders",
  access: ["server", "admin"],
  params,
  body: emailOutboxUpdateSchema,
  response: emailOutboxItemSchema,
  errors: ["EMAIL_NOT_EDITABLE", "SCHEMA_ERROR"],
});

export const emailsOutboxRoutes = routeGroup();
addRoute(emailsOutboxRoutes, list, async (c, { auth, query }) => {
  const result = unwrap(
    await listOutbox(c.get("deps"), auth.project, {
      status: query.status,
      simpleStatus: query.simple_status,
      limit: query.limit,
      cursor: query.cursor,
    }),
  );
  return c.json({ items: result.items, is_paginated: true as const, pagination: { next_cursor: result.nextCursor } });
});
addRoute(emailsOutboxRoutes, getOne, async (c, { auth, params: p }) => {
  const result = unwrap(await getOutboxEmail(c.get("deps"), auth.project, p.id));
  return c.json(result.item);
});
addRoute(emailsOutboxRoutes, patch, async (c, { auth, params: p, body }) => {
  const result = unwrap(await updateOutboxEmail(c.get("deps"), auth.project, p.id, body));
  return c.json(result.item);
});
