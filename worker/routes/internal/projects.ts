/** /internal/projects: owners create and list projects (internal project); admins manage the current one. */
import { Hono } from "hono";
import { z } from "zod";
import { INTERNAL_PROJECT_ID } from "../../../sdk/src/shared/constants";
import { KnownError } from "../../../sdk/src/shared/known-errors";
import { StatusError } from "../../lib/errors";
import type { AppEnv } from "../../lib/hono-env";
import { parseBody } from "../../lib/validate";
import { requireAccess, requireUser } from "../../middleware/require";
import { projectConfigUpdateSchema } from "../../services/project-config";
import {
  createProject,
  listOwnedProjects,
  type ProjectFields,
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
  config: projectConfigUpdateSchema.optional(),
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

/** An owner (a signed-in, non-anonymous user) of the internal project. */
function requireOwner(auth: RequestAuth) {
  if (auth.project.id !== INTERNAL_PROJECT_ID) throw new KnownError("EXPECTED_INTERNAL_PROJECT");
  const withUser = requireUser(auth);
  if (withUser.user.user.isAnonymous) throw new KnownError("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
  return withUser;
}

function configProblem(problem: { reason: string; message?: string; providerId?: string; providerType?: string }): Error {
  if (problem.reason === "invalid_config") return new StatusError(400, problem.message ?? "Invalid project configuration.");
  if (problem.reason === "invalid_oauth_provider_id")
    return new KnownError(problem.providerType === "shared" ? "INVALID_SHARED_OAUTH_PROVIDER_ID" : "INVALID_STANDARD_OAUTH_PROVIDER_ID", {
      provider_id: problem.providerId,
    });
  if (problem.reason === "not_team_member")
    return new KnownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: null, user_id: null }, "You must be a member of the owner team.");
  if (problem.reason === "project_not_found") return new KnownError("PROJECT_NOT_FOUND", { project_id: null });
  return new StatusError(400, problem.reason);
}

export const internalProjectsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const auth = requireOwner(requireAccess(c, "client", "server", "admin"));
    const projects = await listOwnedProjects(c.get("deps"), auth.user.user.id);
    return c.json({ items: projects.map(projectAdminView), is_paginated: false });
  })
  .post("/", async (c) => {
    const auth = requireOwner(requireAccess(c, "client", "server", "admin"));
    const body = await parseBody(c, createSchema);
    const ownerTeamId = body.owner_team_id ?? auth.user.user.selectedTeamId;
    if (!ownerTeamId) throw new KnownError("SCHEMA_ERROR", { message: "owner_team_id is required: the user has no selected team." });
    const result = await createProject(c.get("deps"), auth.user.user.id, ownerTeamId, {
      ...toFields(body),
      displayName: body.display_name,
    });
    if (!result.ok) throw configProblem(result);
    return c.json(projectAdminView(result.project), 201);
  })
  .post("/transfer", async (c) => {
    const auth = requireOwner(requireAccess(c, "client", "server", "admin"));
    const body = await parseBody(c, z.strictObject({ project_id: z.string().min(1).max(64), new_team_id: z.uuid() }));
    const result = await transferProject(c.get("deps"), auth.user.user.id, body.project_id, body.new_team_id);
    if (!result.ok) throw configProblem(result);
    return c.json({ success: true });
  })
  .get("/current", (c) => {
    const auth = requireAccess(c, "admin");
    return c.json(projectAdminView(auth.project));
  })
  .patch("/current", async (c) => {
    const auth = requireAccess(c, "admin");
    const body = await parseBody(c, updateSchema);
    const result = await updateProjectFields(c.get("deps"), auth.project, toFields(body));
    if (!result.ok) throw configProblem(result);
    return c.json(projectAdminView(result.project));
  })
  .delete("/current", async (c) => {
    const auth = requireAccess(c, "admin");
    const result = await removeProject(c.get("deps"), auth.project);
    if (!result.ok) throw new StatusError(400, "The internal project cannot be deleted.");
    return c.json({ success: true });
  });
