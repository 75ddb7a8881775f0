/** /contact-channels: a user's emails, their verification, and the legacy primary-email route. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { parseBody, parseQuery, userIdOrMe } from "../lib/validate";
import { enforceRateLimits } from "../middleware/rate-limit";
import { requireAccess, requireUser, resolveUserId } from "../middleware/require";
import {
  createChannel,
  listChannels,
  removeChannel,
  sendChannelVerification,
  sendPrimaryEmailVerification,
  updateChannel,
} from "../services/contact-channels";
import { verifyEmailCode } from "../services/email-verification";
import { contactChannelView } from "../views/contact-channels";

const emailValue = z.email().max(320);
const codeBody = z.strictObject({ code: z.string().length(45) });
const callbackBody = z.strictObject({ callback_url: z.url().max(4096) });

export const contactChannelsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const q = parseQuery(c, z.strictObject({ user_id: userIdOrMe }));
    const rows = await listChannels(c.get("deps"), auth.project.id, resolveUserId(auth, q.user_id));
    return c.json({ items: rows.map(contactChannelView), is_paginated: false });
  })
  .post("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const base = {
      user_id: userIdOrMe,
      value: emailValue,
      type: z.literal("email"),
      used_for_auth: z.boolean(),
      is_primary: z.boolean().optional(),
    };
    // Only a back end may declare an address verified; a client proves it by code.
    const body =
      auth.type === "client"
        ? await parseBody(c, z.strictObject(base))
        : await parseBody(c, z.strictObject({ ...base, is_verified: z.boolean().optional() }));
    const userId = resolveUserId(auth, body.user_id);
    const result = unwrap(
      await createChannel(c.get("deps"), auth.project, userId, {
        value: body.value,
        usedForAuth: body.used_for_auth,
        isPrimary: body.is_primary,
        isVerified: "is_verified" in body ? (body.is_verified as boolean | undefined) : undefined,
      }),
    );
    return c.json(contactChannelView(result.channel), 201);
  })
  .post("/send-verification-code", async (c) => {
    const auth = requireUser(requireAccess(c, "client", "server", "admin"));
    const body = await parseBody(c, z.strictObject({ email: emailValue, callback_url: z.url().max(4096) }));
    await enforceRateLimits(c, { ip: "OTP_SEND_PER_IP", email: "OTP_SEND_PER_EMAIL" }, body.email);
    unwrap(await sendPrimaryEmailVerification(c.get("deps"), auth.project, auth.user.user.id, body.email, body.callback_url));
    return c.json({ success: true });
  })
  .post("/verify", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, codeBody);
    await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
    unwrap(await verifyEmailCode(c.get("deps"), auth.project, body.code, true));
    return c.json({ success: true });
  })
  .post("/verify/check-code", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, codeBody);
    await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
    unwrap(await verifyEmailCode(c.get("deps"), auth.project, body.code, false));
    return c.json({ is_code_valid: true });
  })
  .patch("/:userId/:channelId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const base = {
      value: emailValue.optional(),
      type: z.literal("email").optional(),
      used_for_auth: z.boolean().optional(),
      is_primary: z.boolean().optional(),
    };
    const body =
      auth.type === "client"
        ? await parseBody(c, z.strictObject(base))
        : await parseBody(c, z.strictObject({ ...base, is_verified: z.boolean().optional() }));
    const userId = resolveUserId(auth, c.req.param("userId"));
    const result = unwrap(
      await updateChannel(c.get("deps"), auth.project, userId, c.req.param("channelId"), {
        value: body.value,
        usedForAuth: body.used_for_auth,
        isPrimary: body.is_primary,
        isVerified: "is_verified" in body ? (body.is_verified as boolean | undefined) : undefined,
      }),
    );
    return c.json(contactChannelView(result.channel));
  })
  .delete("/:userId/:channelId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    unwrap(await removeChannel(c.get("deps"), auth.project, resolveUserId(auth, c.req.param("userId")), c.req.param("channelId")));
    return c.json({ success: true });
  })
  .post("/:userId/:channelId/send-verification-code", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, callbackBody);
    await enforceRateLimits(c, { ip: "OTP_SEND_PER_IP" });
    const userId = resolveUserId(auth, c.req.param("userId"));
    unwrap(await sendChannelVerification(c.get("deps"), auth.project, userId, c.req.param("channelId"), body.callback_url));
    return c.json({ success: true });
  });
