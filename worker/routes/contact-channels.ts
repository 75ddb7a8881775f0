/** /contact-channels: a user's emails, their verification, and the legacy primary-email route. */

import { contactChannelSchema, listSchema, successSchema } from "@doorman/shared/wire";
import { codeCheckSchema } from "@doorman/shared/wire-misc";
import { z } from "zod";
import { unwrap } from "../http/problems";
import { ownUserId } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { userIdOrMe } from "../http/validate";
import {
  createChannel,
  listChannels,
  removeChannel,
  sendChannelVerification,
  sendPrimaryEmailVerification,
  updateChannel,
} from "../services/contact-channels";
import { verifyEmailCode } from "../services/email/verification";
import { contactChannelView } from "../views/contact-channels";

const emailValue = z.email().max(320);
const codeBody = z.strictObject({ code: z.string().length(45) });
const channelParams = z.strictObject({ userId: z.string(), channelId: z.string() });

const createFields = {
  user_id: userIdOrMe,
  value: emailValue,
  type: z.literal("email"),
  used_for_auth: z.boolean(),
  is_primary: z.boolean().optional(),
};
const updateFields = {
  value: emailValue.optional(),
  type: z.literal("email").optional(),
  used_for_auth: z.boolean().optional(),
  is_primary: z.boolean().optional(),
};
// Only a back end may declare an address verified; a client proves it by code.
const serverOnly = { is_verified: z.boolean().optional() };

const OWN_USER_ERRORS = ["CANNOT_GET_OWN_USER_WITHOUT_USER"] as const;
const CODE_ERRORS = [
  "VERIFICATION_CODE_NOT_FOUND",
  "VERIFICATION_CODE_EXPIRED",
  "VERIFICATION_CODE_ALREADY_USED",
  "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
] as const;

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "A user's contact channels (clients: their own)",
  access: ["client", "server", "admin"],
  query: z.strictObject({ user_id: userIdOrMe }),
  response: listSchema(contactChannelSchema),
  errors: OWN_USER_ERRORS,
});

const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Add an email to a user (only back ends may mark it verified)",
  access: ["client", "server", "admin"],
  body: z.strictObject({ ...createFields, ...serverOnly }),
  clientBody: z.strictObject(createFields),
  response: [
    { status: 201, description: "The new contact channel", schema: contactChannelSchema },
    { status: 400, description: "This user already has this contact channel (plain text)." },
  ],
  errors: [...OWN_USER_ERRORS, "USER_NOT_FOUND", "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE"],
});

const sendPrimaryCode = defineRoute({
  method: "post",
  path: "/send-verification-code",
  summary: "Send a verification email to the signed-in user's primary email (legacy route)",
  access: ["client", "server", "admin"],
  user: true,
  missingUser: "SCHEMA_ERROR",
  body: z.strictObject({ email: emailValue, callback_url: z.url().max(4096) }),
  response: successSchema,
  errors: ["USER_NOT_FOUND", "EMAIL_IS_NOT_PRIMARY_EMAIL", "EMAIL_ALREADY_VERIFIED", "REDIRECT_URL_NOT_WHITELISTED"],
  rateLimit: { ip: "OTP_SEND_PER_IP", email: "OTP_SEND_PER_EMAIL" },
});

const verify = defineRoute({
  method: "post",
  path: "/verify",
  summary: "Verify an email with the code from the verification email",
  access: ["client", "server", "admin"],
  body: codeBody,
  response: successSchema,
  errors: CODE_ERRORS,
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

const checkCode = defineRoute({
  method: "post",
  path: "/verify/check-code",
  summary: "Check a verification code without using it",
  access: ["client", "server", "admin"],
  body: codeBody,
  response: codeCheckSchema,
  errors: CODE_ERRORS,
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

const update = defineRoute({
  method: "patch",
  path: "/{userId}/{channelId}",
  summary: "Update a contact channel (only back ends may mark it verified)",
  access: ["client", "server", "admin"],
  params: channelParams,
  body: z.strictObject({ ...updateFields, ...serverOnly }),
  clientBody: z.strictObject(updateFields),
  response: [contactChannelSchema, { status: 400, description: "Contact channel not found, or this user already has it (plain text)." }],
  errors: [...OWN_USER_ERRORS, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE"],
});

const remove = defineRoute({
  method: "delete",
  path: "/{userId}/{channelId}",
  summary: "Remove a contact channel",
  access: ["client", "server", "admin"],
  params: channelParams,
  response: [successSchema, { status: 400, description: "Contact channel not found (plain text)." }],
  errors: OWN_USER_ERRORS,
});

const sendChannelCode = defineRoute({
  method: "post",
  path: "/{userId}/{channelId}/send-verification-code",
  summary: "Send a verification email to a contact channel",
  access: ["client", "server", "admin"],
  params: channelParams,
  body: z.strictObject({ callback_url: z.url().max(4096) }),
  response: [successSchema, { status: 404, description: "Contact channel not found (plain text)." }],
  errors: [...OWN_USER_ERRORS, "EMAIL_ALREADY_VERIFIED", "REDIRECT_URL_NOT_WHITELISTED"],
  rateLimit: { ip: "OTP_SEND_PER_IP" },
});

export const contactChannelsRoutes = routeGroup();
addRoute(contactChannelsRoutes, list, async (c, { auth, query }) => {
  const rows = await listChannels(c.get("deps"), auth.project.id, ownUserId(auth, query.user_id));
  return c.json({ items: rows.map(contactChannelView), is_paginated: false });
});
addRoute(contactChannelsRoutes, create, async (c, { auth, body }) => {
  const userId = ownUserId(auth, body.user_id);
  const result = unwrap(
    await createChannel(c.get("deps"), auth.project, userId, {
      value: body.value,
      usedForAuth: body.used_for_auth,
      isPrimary: body.is_primary,
      isVerified: body.is_verified,
    }),
  );
  return c.json(contactChannelView(result.channel), 201);
});
addRoute(contactChannelsRoutes, sendPrimaryCode, async (c, { auth, body }) => {
  unwrap(await sendPrimaryEmailVerification(c.get("deps"), auth.project, auth.user.user.id, body.email, body.callback_url));
  return c.json({ success: true });
});
addRoute(contactChannelsRoutes, verify, async (c, { auth, body }) => {
  unwrap(await verifyEmailCode(c.get("deps"), auth.project, body.code, true));
  return c.json({ success: true });
});
addRoute(contactChannelsRoutes, checkCode, async (c, { auth, body }) => {
  unwrap(await verifyEmailCode(c.get("deps"), auth.project, body.code, false));
  return c.json({ is_code_valid: true });
});
addRoute(contactChannelsRoutes, update, async (c, { auth, params, body }) => {
  const userId = ownUserId(auth, params.userId);
  const result = unwrap(
    await updateChannel(c.get("deps"), auth.project, userId, params.channelId, {
      value: body.value,
      usedForAuth: body.used_for_auth,
      isPrimary: body.is_primary,
      isVerified: body.is_verified,
    }),
  );
  return c.json(contactChannelView(result.channel));
});
addRoute(contactChannelsRoutes, remove, async (c, { auth, params }) => {
  unwrap(await removeChannel(c.get("deps"), auth.project, ownUserId(auth, params.userId), params.channelId));
  return c.json({ success: true });
});
addRoute(contactChannelsRoutes, sendChannelCode, async (c, { auth, params, body }) => {
  const userId = ownUserId(auth, params.userId);
  unwrap(await sendChannelVerification(c.get("deps"), auth.project, userId, params.channelId, body.callback_url));
  return c.json({ success: true });
});
