/** /users: the current user (client/server views) and user management (server). */

import { KnownError } from "@doorman/shared/known-errors";
import { listSchema, successSchema, userClientSchema, userServerSchema } from "@doorman/shared/wire";
import { z } from "zod";
import { findUserRecord } from "../db/queries/users";
import { problemError, unwrap } from "../http/problems";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { jsonValue, queryBool, userIdOrMe } from "../http/validate";
import { StatusError } from "../lib/errors";
import { degradedMe } from "../services/outage/degraded";
import { readProjectConfig } from "../services/project-config/flat";
import type { RequestAuth } from "../services/request-auth";
import { fail } from "../services/result";
import { userClientView, userServerView } from "../services/user-view";
import {
  createUserWithOAuthProviders,
  flagSetWithoutEmail,
  listUsers,
  type NewUserInput,
  removeUser,
  type UserUpdate,
  updateUser,
} from "../services/users";

const meta = jsonValue.nullable().optional();
const str = (max: number) => z.string().max(max).nullable().optional();
/** A base64 image as data URL (or bare base64), the only profile image a client may set (as the wire). */
const INLINE_IMAGE = /^data:image\/(png|jpg|jpeg|gif|bmp|webp);base64,[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9+/]+={0,2}$/;
function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
/** A profile image URL: any absolute URL (data: included); an empty string is a SCHEMA_ERROR. */
const imageUrl = z.string().max(500_000).refine(isUrl, "is not a valid URL").nullable().optional();

/** A TOTP secret: base64 of 10 to 64 random bytes (RFC 4226 asks for at least 128 bits; 160 is usual). */
const totpSecret = z
  .string()
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, "must be base64")
  .refine((v) => {
    const bytes = Math.floor((v.replace(/=+$/, "").length * 3) / 4);
    return bytes >= 10 && bytes <= 64;
  }, "must encode 10 to 64 bytes")
  .nullable()
  .optional();

const clientUpdateSchema = z.strictObject({
  display_name: str(256),
  profile_image_url: imageUrl,
  client_metadata: meta,
  selected_team_id: z.uuid().nullable().optional(),
  otp_auth_enabled: z.boolean().optional(),
  passkey_auth_enabled: z.boolean().optional(),
  primary_email: z.email().max(320).nullable().optional(),
  totp_secret_base64: totpSecret,
});

const serverFields = {
  client_read_only_metadata: meta,
  server_metadata: meta,
  primary_email_verified: z.boolean().optional(),
  primary_email_auth_enabled: z.boolean().optional(),
  // The service checks the password rules (PASSWORD_TOO_SHORT/LONG, PASSWORD_REQUIREMENTS_NOT_MET, PASSWORD_BREACHED); this only bounds the input.
  password: z.string().max(4096).nullable().optional(),
  password_hash: z.string().max(256).nullable().optional(),
  restricted_by_admin: z.boolean().optional(),
  restricted_by_admin_reason: str(1024),
  restricted_by_admin_private_details: str(4096),
  country_code: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable()
    .optional(),
  risk_scores: z
    .strictObject({
      sign_up: z.strictObject({ bot: z.number().int().min(0).max(100), free_trial_abuse: z.number().int().min(0).max(100) }),
    })
    .optional(),
};

const serverUpdateSchema = clientUpdateSchema.extend({ ...serverFields, is_anonymous: z.literal(false).optional() });
const serverCreateSchema = clientUpdateSchema.omit({ selected_team_id: true }).extend({
  ...serverFields,
  is_anonymous: z.boolean().optional(),
  oauth_providers: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(64),
        account_id: z.string().min(1).max(512),
        email: z.email().max(320).nullable().optional(),
      }),
    )
    .max(64)
    .optional(),
});

type UpdateBody = z.infer<typeof serverUpdateSchema>;

function toUpdate(body: Partial<UpdateBody>): UserUpdate {
  // As the reference: a body naming both is ambiguous, so it is refused rather than one silently winning.
  if (body.password !== undefined && body.password_hash !== undefined) {
    throw new StatusError(400, "Cannot set both password and password_hash at the same time.");
  }
  // As the reference: an unrestricted user has no restriction reason or details, so lifting one clears them.
  const unrestricting = body.restricted_by_admin === false;
  if (unrestricting && (body.restricted_by_admin_reason != null || body.restricted_by_admin_private_details != null)) {
    throw new KnownError("SCHEMA_ERROR", {
      message: "restricted_by_admin_reason and restricted_by_admin_private_details must be null when restricted_by_admin is false.",
    });
  }
  return {
    displayName: body.display_name,
    profileImageUrl: body.profile_image_url,
    clientMetadata: body.client_metadata,
    clientReadOnlyMetadata: body.client_read_only_metadata,
    serverMetadata: body.server_metadata,
    selectedTeamId: body.selected_team_id,
    otpAuthEnabled: body.otp_auth_enabled,
    passkeyAuthEnabled: body.passkey_auth_enabled,
    primaryEmail: body.primary_email,
    totpSecretBase64: body.totp_secret_base64,
    primaryEmailVerified: body.primary_email_verified,
    primaryEmailAuthEnabled: body.primary_email_auth_enabled,
    password: body.password,
    passwordHash: body.password_hash,
    restrictedByAdmin: body.restricted_by_admin,
    restrictedByAdminReason: unrestricting ? null : body.restricted_by_admin_reason,
    restrictedByAdminPrivateDetails: unrestricting ? null : body.restricted_by_admin_private_details,
    countryCode: body.country_code,
    riskScores: body.risk_scores,
    isAnonymous: body.is_anonymous,
  };
}

function view(auth: RequestAuth, record: Parameters<typeof userServerView>[0]) {
  const config = readProjectConfig(auth.project.config);
  return auth.type === "client" ? userClientView(record, config) : userServerView(record, config);
}

const listQuerySchema = z.strictObject({
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  desc: queryBool.optional(),
  order_by: z.enum(["signed_up_at", "display_name", "primary_email"]).optional(),
  query: z.string().max(256).optional(),
  team_id: z.uuid().optional(),
  include_anonymous: queryBool.optional(),
  only_anonymous: queryBool.optional(),
  include_restricted: queryBool.optional(),
});

const userView = userClientSchema.or(userServerSchema);
const userIdParams = z.strictObject({ userId: z.string().min(1).max(64) });
const USER_WRITE_ERRORS = [
  "USER_EMAIL_ALREADY_EXISTS",
  "PASSWORD_TOO_SHORT",
  "PASSWORD_TOO_LONG",
  "PASSWORD_REQUIREMENTS_NOT_MET",
  "PASSWORD_BREACHED",
] as const;

const getMe = defineRoute({
  method: "get",
  path: "/me",
  summary: "The signed-in user",
  access: ["client", "server", "admin"],
  user: true,
  // While D1 is away, from the access token's claims where the project allows it (services/outage/degraded.ts).
  answersDegraded: true,
  response: userView,
  errors: ["DATABASE_TEMPORARILY_UNAVAILABLE"],
});

const updateMe = defineRoute({
  method: "patch",
  path: "/me",
  summary: "Update the signed-in user (clients: profile fields only)",
  access: ["client", "server", "admin"],
  user: true,
  body: serverUpdateSchema,
  clientBody: clientUpdateSchema,
  response: userView,
  errors: [...USER_WRITE_ERRORS, "TEAM_MEMBERSHIP_NOT_FOUND"],
});

const deleteMe = defineRoute({
  method: "delete",
  path: "/me",
  summary: "Delete the signed-in user (clients only where the project allows it)",
  access: ["client", "server", "admin"],
  user: true,
  response: successSchema,
});

const listAll = defineRoute({
  method: "get",
  path: "/",
  summary: "List the project's users, by sign-up date, display name or primary email",
  description:
    "Anonymous users are listed with include_anonymous (which also lists restricted users) or only_anonymous; restricted users with include_restricted. `query` matches the user id exactly, or the display name or an email in part. `order_by` is signed_up_at (the default) or, as Doorman extensions, display_name (ignoring case) or primary_email; users without one come last in either direction, and ties go by id. `cursor` is the id of the first user of the next page, for the same order and filters.",
  access: ["server", "admin"],
  query: listQuerySchema,
  response: listSchema(userServerSchema),
});

const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Create a user",
  access: ["server", "admin"],
  body: serverCreateSchema,
  response: { status: 201, description: "The new user", schema: userServerSchema },
  errors: [...USER_WRITE_ERRORS, "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED"],
});

const getOne = defineRoute({
  method: "get",
  path: "/{userId}",
  summary: "A user by id",
  access: ["server", "admin"],
  params: userIdParams,
  response: userServerSchema,
  errors: ["USER_NOT_FOUND"],
});

const updateOne = defineRoute({
  method: "patch",
  path: "/{userId}",
  summary: "Update a user",
  access: ["server", "admin"],
  params: userIdParams,
  body: serverUpdateSchema,
  response: userServerSchema,
  errors: [...USER_WRITE_ERRORS, "USER_NOT_FOUND", "TEAM_MEMBERSHIP_NOT_FOUND"],
});

const deleteOne = defineRoute({
  method: "delete",
  path: "/{userId}",
  summary: "Delete a user",
  access: ["server", "admin"],
  // As the reference: an id that is not a UUID is a SCHEMA_ERROR (400), one that names nobody USER_NOT_FOUND.
  params: z.strictObject({ userId: userIdOrMe }),
  response: successSchema,
  errors: ["USER_NOT_FOUND"],
});

export const usersRoutes = routeGroup();
addRoute(usersRoutes, getMe, (c, { auth }) => {
  if (auth.user) return c.json(view(auth, auth.user));
  const degraded = degradedMe(auth);
  return c.json(degraded.body, 200, degraded.headers);
});
addRoute(usersRoutes, updateMe, async (c, { auth, body }) => {
  // An end user may set an inline image only, not a URL the browsers of others would fetch.
  if (auth.type === "client" && body.profile_image_url && !INLINE_IMAGE.test(body.profile_image_url)) {
    throw new StatusError(400, "Invalid profile image URL");
  }
  // A password set by the back end ends every session of the user, this one included (as the wire).
  const result = unwrap(await updateUser(c.get("deps"), auth.project, auth.user.user.id, toUpdate(body)));
  return c.json(view(auth, result.record));
});
addRoute(usersRoutes, deleteMe, async (c, { auth }) => {
  if (auth.type === "client" && !readProjectConfig(auth.project.config).client_user_deletion_enabled) {
    throw new StatusError(400, "Client user deletion is not enabled for this project");
  }
  await removeUser(c.get("deps"), auth.project.id, auth.user.user.id);
  return c.json({ success: true });
});
addRoute(usersRoutes, listAll, async (c, { auth, query: q }) => {
  if (q.only_anonymous && !q.include_anonymous) throw new StatusError(400, "only_anonymous=true requires include_anonymous=true");
  const page = await listUsers(c.get("deps"), {
    projectId: auth.project.id,
    limit: q.limit ?? 100,
    cursor: q.cursor,
    orderBy: q.order_by,
    desc: q.desc ?? false,
    query: q.query,
    teamId: q.team_id,
    includeAnonymous: q.include_anonymous ?? false,
    onlyAnonymous: q.only_anonymous ?? false,
    includeRestricted: q.include_restricted ?? false,
    requireEmailVerification: readProjectConfig(auth.project.config).require_email_verification,
  });
  if ("cursorNotFound" in page) throw new KnownError("SCHEMA_ERROR", { message: "The cursor does not name a user of this project." });
  return c.json({ items: page.items.map((r) => view(auth, r)), is_paginated: true, pagination: { next_cursor: page.nextCursor } });
});
addRoute(usersRoutes, create, async (c, { auth, body }) => {
  const input: NewUserInput = { ...toUpdate({ ...body, is_anonymous: undefined }), isAnonymous: body.is_anonymous ?? false };
  const flag = !input.primaryEmail && flagSetWithoutEmail(input);
  if (flag) throw problemError(fail("primary_email_missing", { field: flag }));
  const links = (body.oauth_providers ?? []).map((p) => ({ providerConfigId: p.id, accountId: p.account_id, email: p.email ?? null }));
  const result = unwrap(await createUserWithOAuthProviders(c.get("deps"), auth.project, input, links));
  return c.json(view(auth, result.record), 201);
});
addRoute(usersRoutes, getOne, async (c, { auth, params }) => {
  const record = await findUserRecord(c.get("deps").db, auth.project.id, params.userId);
  if (!record) throw new KnownError("USER_NOT_FOUND");
  return c.json(view(auth, record));
});
addRoute(usersRoutes, updateOne, async (c, { auth, params, body }) => {
  const result = await updateUser(c.get("deps"), auth.project, params.userId, toUpdate(body));
  if (!result.ok) throw problemError(result);
  return c.json(view(auth, result.record));
});
addRoute(usersRoutes, deleteOne, async (c, { auth, params }) => {
  if (!(await removeUser(c.get("deps"), auth.project.id, params.userId))) throw new KnownError("USER_NOT_FOUND");
  return c.json({ success: true });
});
