/** /internal/projects: owners create and list projects (internal project); admins manage the current one. */

import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import { KnownError } from "@doorman/shared/known-errors";
import { listSchema, projectAdminSchema, successSchema } from "@doorman/shared/wire";
import { z } from "zod";
import { problemError } from "../../http/problems";
import { requireUser } from "../../http/request";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { StatusError } from "../../lib/errors";
import { aiUsageLast30Days, assistantConfigured } from "../../services/ai/chat";
import { revokeAllSessionsOfProject } from "../../services/auth/sessions";
import { flatProjectConfigUpdateSchema } from "../../services/project-config/flat";
import {
  createProject,
  listOwnedProjects,
  type ProjectFields,
  projectStats,
  removeProject,
  transferProject,
  updateProjectFields,
} from "../../services/projects";
import type { RequestAuth } from "../../services/request-auth";
import { projectAdminView } from "../../views/projects";

const projectFields = {
  display_name: z.string().min(1).max(256).optional(),
  description: z.string().max(4096).nullable().optional(),
  is_production_mode: z.boolean().optional(),
  logo_url: z.url().max(4096).nullable().optional(),
  logo_full_url: z.url().max(4096).nullable().optional(),
  config: flatProjectConfigUpdateSchema.optional(),
};
const updateSchema = z.strictObject(projectFields);
const createSchema = z.strictObject({ ...projectFields, display_name: z.string().min(1).max(256), owner_team_id: z.uuid().optional() });

function toFields(body: z.infer<typeof updateSchema>): ProjectFields {
  return {
    displayName: body.display_name,
    description: body.description === null ? "" : body.description,
    isProductionMode: body.is_production_mode,
    logoUrl: body.logo_url,
    fullLogoUrl: body.logo_full_url,
    config: body.config,
  };
}

/**
 * An owner (a signed-in, non-anonymous user) of the internal project. Checked in the handler,
 * not with `user: true`: a call on another project answers EXPECTED_INTERNAL_PROJECT even without a user.
 */
function requireOwner(auth: RequestAuth) {
  if (auth.project.id !== INTERNAL_PROJECT_ID) throw new KnownError("EXPECTED_INTERNAL_PROJECT");
  // As the reference: these routes are the signed-in owner's (401), not a "me" lookup.
  if (!auth.user) throw new KnownError("USER_AUTHENTICATION_REQUIRED");
  const withUser = requireUser(auth);
  if (withUser.user.user.isAnonymous) throw new KnownError("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
  return withUser;
}

const OWNER_ERRORS = ["EXPECTED_INTERNAL_PROJECT", "USER_AUTHENTICATION_REQUIRED", "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED"] as const;
const CONFIG_ERRORS = ["INVALID_SHARED_OAUTH_PROVIDER_ID", "INVALID_STANDARD_OAUTH_PROVIDER_ID"] as const;

const listOwned = defineRoute({
  method: "get",
  path: "/",
  summary: "The projects the signed-in owner manages (internal project)",
  access: ["client", "server", "admin"],
  response: listSchema(projectAdminSchema),
  errors: OWNER_ERRORS,
});

const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Create a project owned by a team of the signed-in owner (internal project)",
  access: ["client", "server", "admin"],
  body: createSchema,
  response: { status: 201, description: "The new project", schema: projectAdminSchema },
  errors: [...OWNER_ERRORS, ...CONFIG_ERRORS, "TEAM_MEMBERSHIP_NOT_FOUND"],
});

const transfer = defineRoute({
  method: "post",
  path: "/transfer",
  summary: "Move a project to another team of the signed-in owner (internal project)",
  access: ["client", "server", "admin"],
  body: z.strictObject({ project_id: z.string().min(1).max(64), new_team_id: z.uuid() }),
  response: successSchema,
  errors: [...OWNER_ERRORS, "PROJECT_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "TEAM_MEMBERSHIP_NOT_FOUND"],
});

const getCurrent = defineRoute({
  method: "get",
  path: "/current",
  summary: "The current project (admin view)",
  access: ["admin"],
  response: projectAdminSchema,
});

const updateCurrent = defineRoute({
  method: "patch",
  path: "/current",
  summary: "Update the current project's fields and configuration",
  access: ["admin"],
  body: updateSchema,
  response: projectAdminSchema,
  errors: CONFIG_ERRORS,
});

const statsSchema = z.object({
  user_count: z.number().int(),
  anonymous_user_count: z.number().int(),
  team_count: z.number().int(),
  sign_ups_today: z.number().int(),
  active_session_count: z.number().int(),
  /** The console assistant's model use in the last 30 UTC days (today included). */
  ai_usage: z.object({ requests: z.number().int(), prompt_tokens: z.number().int(), completion_tokens: z.number().int() }),
  /** Whether the assistant has a model (the project's doorman.ai or the deployment's default): the console says so before a question. */
  ai_configured: z.boolean(),
});

const currentStats = defineRoute({
  method: "get",
  path: "/current/stats",
  summary:
    "Counts for the console's overview: users (and anonymous ones), teams, sign-ups since 00:00 UTC, active sessions, the assistant's token use and whether it has a model",
  access: ["admin"],
  response: statsSchema,
});

const deleteCurrent = defineRoute({
  method: "delete",
  path: "/current",
  summary: "Delete the current project (never the internal one)",
  access: ["admin"],
  response: successSchema,
});

const endAllSessions = defineRoute({
  method: "delete",
  path: "/current/sessions",
  summary:
    "Sign out all users: end every session of every user of the current project, their access tokens with them (never the internal project's)",
  access: ["admin"],
  response: z.object({ success: z.literal(true), ended_session_count: z.number().int() }),
});

export const internalProjectsRoutes = routeGroup();
addRoute(internalProjectsRoutes, listOwned, async (c, { auth }) => {
  const owner = requireOwner(auth);
  const projects = await listOwnedProjects(c.get("deps"), owner.user.user.id);
  return c.json({ items: projects.map(projectAdminView), is_paginated: false });
});
addRoute(internalProjectsRoutes, create, async (c, { auth, body }) => {
  const owner = requireOwner(auth);
  const ownerTeamId = body.owner_team_id ?? owner.user.user.selectedTeamId;
  if (!ownerTeamId) throw new KnownError("SCHEMA_ERROR", { message: "owner_team_id is required: the user has no selected team." });
  const result = await createProject(c.get("deps"), owner.user.user.id, ownerTeamId, { ...toFields(body), displayName: body.display_name });
  if (!result.ok) throw problemError(result);
  return c.json(projectAdminView(result.project), 201);
});
addRoute(internalProjectsRoutes, transfer, async (c, { auth, body }) => {
  const owner = requireOwner(auth);
  const result = await transferProject(c.get("deps"), owner.user.user.id, body.project_id, body.new_team_id);
  if (!result.ok) throw problemError(result);
  return c.json({ success: true });
});
addRoute(internalProjectsRoutes, getCurrent, (c, { auth }) => c.json(projectAdminView(auth.project)));
addRoute(internalProjectsRoutes, updateCurrent, async (c, { auth, body }) => {
  const result = await updateProjectFields(c.get("deps"), auth.project, toFields(body));
  if (!result.ok) throw problemError(result);
  return c.json(projectAdminView(result.project));
});
addRoute(internalProjectsRoutes, currentStats, async (c, { auth }) => {
  const deps = c.get("deps");
  const [stats, ai] = await Promise.all([projectStats(deps, auth.project.id), aiUsageLast30Days(deps, auth.project.id)]);
  return c.json({
    user_count: stats.users,
    anonymous_user_count: stats.anonymousUsers,
    team_count: stats.teams,
    sign_ups_today: stats.signUpsSince,
    active_session_count: stats.activeSessions,
    ai_usage: { requests: ai.requests, prompt_tokens: ai.promptTokens, completion_tokens: ai.completionTokens },
    ai_configured: assistantConfigured(deps, auth.project),
  });
});
addRoute(internalProjectsRoutes, deleteCurrent, async (c, { auth }) => {
  const result = await removeProject(c.get("deps"), auth.project);
  if (!result.ok) throw new StatusError(400, "The internal project cannot be deleted.");
  return c.json({ success: true });
});
addRoute(internalProjectsRoutes, endAllSessions, async (c, { auth }) => {
  const result = await revokeAllSessionsOfProject(c.get("deps"), auth.project.id);
  // The internal project's sessions are the console's owners' (of every team): never all at once.
  if (!result.ok) throw new StatusError(400, "The internal project's sessions cannot be ended all at once.");
  return c.json({ success: true, ended_session_count: result.ended });
});
