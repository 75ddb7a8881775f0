/**
 * /internal/dev-inbox (admin, development only): the project's dev inbox, the real messages of the
 * emails it sent to the dev outbox, newest first, with their codes and links; /{emailId} adds the
 * bodies. A production worker answers 404: there the log (/internal/emails) stays redacted.
 */
import { devInboxListSchema, devInboxMessageSchema } from "@doorman/shared/wire-dev-inbox";
import { z } from "zod";
import { unwrap } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import { listDevInbox, readDevInboxMessage } from "../../../services/email/dev-inbox";
import { devInboxEntryView, devInboxMessageView } from "../../../views/dev-inbox";

const notInProduction = { status: 404, description: "Not in development, or no such message (kept one hour, the latest 50)." } as const;

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "Development only: the project's dev inbox, real messages with their codes and links, newest first (Doorman extension)",
  description:
    "The emails a project sent to the dev outbox (a shared email server with no platform sender), unredacted, so a local owner can read a verification code or link. Kept one hour, the latest 50 per project. A production worker answers 404; its email log stays redacted.",
  access: ["admin"],
  query: z.strictObject({ to: z.string().max(256).optional() }),
  response: [devInboxListSchema, notInProduction],
});

const getOne = defineRoute({
  method: "get",
  path: "/{emailId}",
  summary: "Development only: one message of the dev inbox with its bodies (Doorman extension)",
  access: ["admin"],
  params: z.strictObject({ emailId: z.string().max(64) }),
  response: [devInboxMessageSchema, notInProduction],
});

export const internalDevInboxRoutes = routeGroup();
addRoute(internalDevInboxRoutes, list, async (c, { auth, query }) => {
  const { messages } = unwrap(await listDevInbox(c.get("deps"), auth.project.id, { to: query.to }));
  return c.json({ items: messages.map(devInboxEntryView), is_paginated: false as const });
});
addRoute(internalDevInboxRoutes, getOne, async (c, { auth, params }) => {
  const { message } = unwrap(await readDevInboxMessage(c.get("deps"), auth.project.id, params.emailId));
  return c.json(devInboxMessageView(message));
});
