/** Projects: create for an owner team, update with config rules, delete, transfer, list owned. */

import { INTERNAL_PROJECT_ID } from "../../sdk/src/shared/constants";
import type { ProjectRow } from "../db/queries/projects";
import {
  deleteProject,
  findProjectById,
  insertProjectStatement,
  isProjectOwnedByUser,
  listProjectsOwnedByUser,
  setProjectOwnerTeam,
  updateProject,
} from "../db/queries/projects";
import { isTeamMember } from "../db/queries/teams";
import type { Deps } from "../lib/context";
import { invalidProviderId } from "../oauth/providers";
import { sealConfigSecrets } from "./config-secrets";
import { defaultDefinitionStatements } from "./permissions";
import {
  defaultProjectConfig,
  domainErrors,
  mergeProjectConfig,
  type ProjectConfigUpdate,
  productionModeErrors,
  readProjectConfig,
} from "./project-config";
import { fail, type Problem } from "./result";

export type ProjectFields = {
  displayName?: string;
  description?: string;
  isProductionMode?: boolean;
  logoUrl?: string | null;
  fullLogoUrl?: string | null;
  config?: ProjectConfigUpdate;
};

export type ProjectProblem = Problem<"invalid_config" | "not_team_member" | "invalid_oauth_provider_id">;

function configProblem(config: ReturnType<typeof readProjectConfig>, productionMode: boolean): ProjectProblem | null {
  // An unknown provider id could never sign anyone in: refuse it when the config is saved.
  const badProvider = invalidProviderId(config);
  if (badProvider) return fail("invalid_oauth_provider_id", { providerId: badProvider.id, providerType: badProvider.type });
  const errors = productionMode ? productionModeErrors(config) : domainErrors(config);
  return errors.length ? fail("invalid_config", { message: errors[0]! }) : null;
}

export async function createProject(
  deps: Deps,
  ownerUserId: string,
  ownerTeamId: string,
  fields: ProjectFields & { displayName: string },
): Promise<{ ok: true; project: ProjectRow } | ProjectProblem> {
  // Only members of the owner team may create a project for it: ownership grants admin access.
  if (!(await isTeamMember(deps.db, ownerTeamId, ownerUserId))) return fail("not_team_member");
  const config = mergeProjectConfig(defaultProjectConfig(), await sealConfigSecrets(deps, fields.config, null));
  const problem = configProblem(config, fields.isProductionMode ?? false);
  if (problem) return problem;
  const id = deps.random.uuid();
  // The project and its default permission definitions land together (one batch).
  await deps.db.batch([
    insertProjectStatement(deps.db, {
      id,
      displayName: fields.displayName,
      description: fields.description ?? "",
      createdAt: deps.now(),
      isProductionMode: fields.isProductionMode ?? false,
      logoUrl: fields.logoUrl ?? null,
      fullLogoUrl: fields.fullLogoUrl ?? null,
      ownerTeamId,
      config,
    }),
    ...defaultDefinitionStatements(deps, id),
  ]);
  const project = await findProjectById(deps.db, id);
  if (!project) throw new Error("project vanished right after creation");
  return { ok: true, project };
}

export async function updateProjectFields(
  deps: Deps,
  project: ProjectRow,
  fields: ProjectFields,
): Promise<{ ok: true; project: ProjectRow } | ProjectProblem> {
  const current = readProjectConfig(project.config);
  const config = mergeProjectConfig(current, await sealConfigSecrets(deps, fields.config, current));
  const problem = configProblem(config, fields.isProductionMode ?? project.isProductionMode);
  if (problem) return problem;
  const patch: Partial<ProjectRow> = { config };
  if (fields.displayName !== undefined) patch.displayName = fields.displayName;
  if (fields.description !== undefined) patch.description = fields.description;
  if (fields.isProductionMode !== undefined) patch.isProductionMode = fields.isProductionMode;
  if (fields.logoUrl !== undefined) patch.logoUrl = fields.logoUrl;
  if (fields.fullLogoUrl !== undefined) patch.fullLogoUrl = fields.fullLogoUrl;
  const updated = await updateProject(deps.db, project.id, patch);
  if (!updated) throw new Error("project vanished during update");
  return { ok: true, project: updated };
}

export async function removeProject(deps: Deps, project: ProjectRow): Promise<{ ok: true } | Problem<"internal_project">> {
  // The internal project is the dashboard itself; deleting it would lock every owner out.
  if (project.id === INTERNAL_PROJECT_ID) return fail("internal_project");
  await deleteProject(deps.db, project.id);
  return { ok: true };
}

export function listOwnedProjects(deps: Deps, ownerUserId: string): Promise<ProjectRow[]> {
  return listProjectsOwnedByUser(deps.db, ownerUserId);
}

export async function transferProject(
  deps: Deps,
  ownerUserId: string,
  projectId: string,
  newTeamId: string,
): Promise<{ ok: true } | Problem<"project_not_found" | "not_team_member">> {
  if (!(await isProjectOwnedByUser(deps.db, projectId, ownerUserId))) return fail("project_not_found");
  if (!(await isTeamMember(deps.db, newTeamId, ownerUserId))) return fail("not_team_member");
  await setProjectOwnerTeam(deps.db, projectId, newTeamId);
  return { ok: true };
}
