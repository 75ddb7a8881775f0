/**
 * GET /emails/dev-inbox (development only, a Doorman extension): the signed-in user's own dev inbox,
 * the real messages this project sent to their primary email, newest first with the bodies. It is
 * how a brand-new local owner reads the console's own sign-up verification mail (the internal
 * project's) before they own any project, and how an end user of a hosted page can, with no SMTP relay.
 */
import { devInboxMessageSchema } from "@doorman/shared/wire-dev-inbox";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { requireUser } from "../../http/request";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { listDevInbox } from "../../services/email/dev-inbox";
import { devInboxMessageView } from "../../views/dev-inbox";

const own = defineRoute({
  method: "get",
  path: "/dev-inbox",
  summary: "Development only: the signed-in user's own messages in the dev inbox, newest first (Doorman extension)",
  description:
    "The real messages this project sent to the signed-in user's primary email through the dev outbox, with their codes and links and bodies (kept one hour). A production worker answers 404.",
  access: ["client", "server", "admin"],
  user: true,
  response: [
    z.object({ items: z.array(devInboxMessageSchema), is_paginated: z.literal(false) }),
    { status: 404, description: "Not in development." },
  ],
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"],
});

export const emailsDevInboxRoutes = routeGroup();
addRoute(emailsDevInboxRoutes, own, async (c, { auth }) => {
  const { user } = requireUser(auth);
  const address = user.primaryEmail?.value;
  // Only mail to the user's own primary address: a user never reads what the project sent anyone else.
  const { messages } = unwrap(await listDevInbox(c.get("deps"), auth.project.id, { to: address ?? undefined }));
  return c.json({ items: address ? messages.map(devInboxMessageView) : [], is_paginated: false as const });
});
