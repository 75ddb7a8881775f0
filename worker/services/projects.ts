/** Projects: create for an owner team, update with config rules, delete, transfer, list owned. */

import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import type { ProductionCheck } from "@doorman/shared/domain-rules";
import { countProjectStats, type ProjectStats } from "../db/queries/project-stats";
import type { ProjectRow } from "../db/queries/projects";
import {
  deleteProject,
  findProjectById,
  insertProjectStatement,
  isProjectOwnedByUser,
  listProjectsOwnedByUser,
  setProjectOwnerTeam,
  updateProjectAtConfigVersion,
} from "../db/queries/projects";
import { isTeamMember } from "../db/queries/teams";
import type { Deps } from "./deps";
import { DEFAULT_EMAIL_THEMES, LEGACY_THEME_NAMES } from "./email/defaults";
import { eventFor } from "./events";
import { invalidProviderId } from "./oauth/providers";
import { forgetLastKnownAuth } from "./outage/last-known-auth";
import { defaultDefinitionStatements, hasTeamPermission } from "./permissions";
import { leftoversOf, projectLeftovers } from "./production-checks";
import { NEW_PROJECT_APPS } from "./project-config/apps";
import {
  domainErrors,
  type FlatProjectConfig,
  type FlatProjectConfigUpdate,
  productionModeErrors,
  readProjectConfig,
} from "./project-config/flat";
import { overrideLevelProblem } from "./project-config/levels";
import { migrateOverrideNames } from "./project-config/migrate";
import {
  type ConfigOverride,
  type ConfigOverrides,
  flatUpdateToOverride,
  mergeOverride,
  type OverrideLevel,
  removeOverrideKeys,
  renderConfig,
} from "./project-config/overrides";
import { toFlatProjectConfig } from "./project-config/rendered";
import { dropSecretPaths, mapSecrets, movedSecretPaths, sealConfigSecrets, sealConfigValue } from "./project-config/secrets";
import type { ConfigSource } from "./project-config/source";
import { NEW_PROJECT_PROTECTION_OVERRIDE } from "./protection/config";
import { fail, type Problem } from "./result";

export type ProjectFields = {
  displayName?: string;
  description?: string;
  isProductionMode?: boolean;
  logoUrl?: string | null;
  fullLogoUrl?: string | null;
  config?: FlatProjectConfigUpdate;
};

export type ProjectProblem = Problem<"invalid_config" | "invalid_config_override" | "not_owner_team_member" | "invalid_oauth_provider_id">;

function configProblem(config: FlatProjectConfig, productionMode: boolean): ProjectProblem | null {
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
  if (!(await isTeamMember(deps.db, ownerTeamId, ownerUserId))) return fail("not_owner_team_member");
  const sealed = await sealConfigSecrets(deps, fields.config, null);
  const { project: projectLevel, rest } = splitProjectKeys(sealed ? flatUpdateToOverride(sealed) : {});
  // As in the reference, a new project starts with the authentication and emails apps installed; and (issue 29,
  // Clerk's Device Trust on for new apps) with new-device verification on, unless the deployment says otherwise
  // (NEW_PROJECT_DEVICE_VERIFICATION=false). Existing and seeded projects stay off.
  const protection = deps.config.newProjectDeviceVerification ? NEW_PROJECT_PROTECTION_OVERRIDE : {};
  const environment: Record<string, unknown> = { ...NEW_PROJECT_APPS, ...protection, ...rest };
  // A project born in production mode takes real payments only: its test mode starts off.
  if (fields.isProductionMode) environment["payments.testMode"] = false;
  const configOverrides: ConfigOverrides = Object.keys(projectLevel).length ? { project: projectLevel, environment } : { environment };
  const rendered = renderConfig(configOverrides);
  if (!rendered.ok) return fail("invalid_config_override", { message: rendered.message });
  const config = toFlatProjectConfig(rendered.config);
  const leftover = fields.isProductionMode ? leftoversOf(config, rendered.config.payments.testMode)[0] : undefined;
  const problem =
    configProblem(config, fields.isProductionMode ?? false) ?? (leftover ? fail("invalid_config", { message: leftover.message }) : null);
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
      configOverrides,
    }),
    ...defaultDefinitionStatements(deps, id),
  ]);
  const project = await findProjectById(deps.db, id);
  if (!project) throw new Error("project vanished right after creation");
  return { ok: true, project };
}

/** A project's stored overrides; a project from before overrides has its whole config as its environment override. */
export function storedOverrides(project: ProjectRow): ConfigOverrides {
  return (project.configOverrides as ConfigOverrides | null) ?? { environment: flatUpdateToOverride(readProjectConfig(project.config)) };
}

/**
 * The most a project's config and overrides may take together. Why: both are one D1 row, and D1
 * refuses a row (or one string in it) over 2,000,000 bytes with SQLITE_TOOBIG; this leaves room for
 * the row's other columns, so a big write is a SCHEMA_ERROR before it reaches D1 and nothing is lost.
 */
export const MAX_PROJECT_CONFIG_BYTES = 1_900_000;

function configSizeProblem(config: FlatProjectConfig, overrides: ConfigOverrides): ProjectProblem | null {
  const encoder = new TextEncoder();
  const bytes = encoder.encode(JSON.stringify(config)).length + encoder.encode(JSON.stringify(overrides)).length;
  if (bytes <= MAX_PROJECT_CONFIG_BYTES) return null;
  const mb = (n: number) => (n / 1_000_000).toFixed(2);
  return fail("invalid_config_override", {
    message: `The project's config would be too large: ${mb(bytes)} MB, over the ${mb(MAX_PROJECT_CONFIG_BYTES)} MB a project can store. Remove unused email templates or themes first.`,
  });
}

/**
 * The development-leftover checks (production-checks.ts): all of them, webhook endpoints included,
 * when the write sets production mode on; while it stays on, only a leftover this write adds (one
 * from before the checks existed does not block unrelated writes; turning production mode on again does).
 */
async function leftoverProblem(
  deps: Deps,
  row: ProjectRow,
  setProduction: boolean | undefined,
  config: FlatProjectConfig,
  testMode: boolean,
): Promise<ProjectProblem | null> {
  if (setProduction === false || (setProduction === undefined && !row.isProductionMode)) return null;
  let found: ProductionCheck[];
  if (setProduction) found = await projectLeftovers(deps, row.id, config, testMode);
  else {
    const before = renderConfig(storedOverrides(row));
    const was = new Set(
      leftoversOf(readProjectConfig(row.config), before.ok ? before.config.payments.testMode : true).map((c) => c.message),
    );
    found = leftoversOf(config, testMode).filter((c) => !was.has(c.message));
  }
  return found[0] ? fail("invalid_config", { message: found[0].message }) : null;
}

type ConfigChange = (overrides: ConfigOverrides, current: FlatProjectConfig) => Promise<ConfigOverrides>;
type SaveResult = { ok: true; project: ProjectRow } | ProjectProblem | Problem<"config_conflict">;

/**
 * Saves the project's fields and, through `change`, its overrides; the rendered config is rebuilt
 * from the overrides in the same UPDATE. A concurrent config write makes it re-read and redo the
 * change (optimistic, on config_version), so no write is lost.
 */
async function saveProject(
  deps: Deps,
  project: ProjectRow,
  fields: Omit<ProjectFields, "config"> & { configSource?: ConfigSource },
  change: ConfigChange,
): Promise<SaveResult> {
  let row = project;
  for (let attempt = 0; attempt < 5; attempt++) {
    const stored = storedOverrides(row);
    let overrides = await change(stored, readProjectConfig(row.config));
    const asWritten = renderConfig(overrides, { asWritten: true });
    if (!asWritten.ok) return fail("invalid_config_override", { message: asWritten.message });
    let rendered = renderConfig(overrides);
    if (!rendered.ok) return fail("invalid_config_override", { message: rendered.message });
    // Why: a stored secret is bound to its destination; a write that moves it without the secret drops it.
    const before = renderConfig(stored);
    const moved = before.ok ? movedSecretPaths(before.config, rendered.config) : [];
    if (moved.length > 0) {
      overrides = dropSecretPaths(overrides, moved);
      rendered = renderConfig(overrides);
      if (!rendered.ok) return fail("invalid_config_override", { message: rendered.message });
    }
    const config = toFlatProjectConfig(rendered.config);
    const tooLarge = configSizeProblem(config, overrides);
    if (tooLarge) return tooLarge;
    const problem =
      configProblem(config, fields.isProductionMode ?? row.isProductionMode) ??
      (await leftoverProblem(deps, row, fields.isProductionMode, config, rendered.config.payments.testMode));
    if (problem) return problem;
    const patch: Partial<ProjectRow> = { config, configOverrides: overrides };
    if (fields.displayName !== undefined) patch.displayName = fields.displayName;
    if (fields.description !== undefined) patch.description = fields.description;
    if (fields.isProductionMode !== undefined) patch.isProductionMode = fields.isProductionMode;
    if (fields.logoUrl !== undefined) patch.logoUrl = fields.logoUrl;
    if (fields.fullLogoUrl !== undefined) patch.fullLogoUrl = fields.fullLogoUrl;
    if (fields.configSource !== undefined) patch.configSource = fields.configSource;
    // Names only: a config value may be a (sealed) secret, and the log is for who changed what.
    const keys = changedKeys(row, patch);
    const event = eventFor(deps, row.id, "project.config_changed", {}, { keys });
    const updated = await updateProjectAtConfigVersion(deps.db, row.id, row.configVersion, patch, event);
    if (updated) return { ok: true, project: updated };
    const fresh = await findProjectById(deps.db, row.id);
    if (!fresh) throw new Error("project vanished during update");
    row = fresh;
  }
  return fail("config_conflict");
}

/** The project fields and flat config keys a save changes. */
function changedKeys(row: ProjectRow, patch: Partial<ProjectRow>): string[] {
  const before = readProjectConfig(row.config) as Record<string, unknown>;
  const after = (patch.config ?? {}) as Record<string, unknown>;
  const configKeys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  const fieldKeys = (["displayName", "description", "isProductionMode", "logoUrl", "fullLogoUrl"] as const).filter(
    (k) => patch[k] !== undefined && patch[k] !== row[k],
  );
  // Overrides that leave the typed config alone (email themes and templates): their top-level keys.
  const overrideKeys = new Set<string>();
  const was = storedOverrides(row) as Record<string, Record<string, unknown> | undefined>;
  const now = (patch.configOverrides ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const level of new Set([...Object.keys(was), ...Object.keys(now)])) {
    const a = was[level] ?? {};
    const b = now[level] ?? {};
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) overrideKeys.add(`override.${key.split(".")[0]}`);
  }
  const configNames = configKeys.map((k) => `config.${k}`);
  const extra = configNames.length > 0 ? [] : [...overrideKeys];
  return [...fieldKeys, ...configNames, ...extra].sort();
}

function hasEmailTheme(project: ProjectRow, id: string): boolean {
  const rendered = renderConfig(storedOverrides(project));
  const themes = rendered.ok ? rendered.config.emails.themes : DEFAULT_EMAIL_THEMES;
  return Object.hasOwn(themes, LEGACY_THEME_NAMES[id] ?? id);
}

/** The `project.*` keys of an override (the project level's) apart from the rest. */
function splitProjectKeys(override: ConfigOverride): { project: ConfigOverride; rest: ConfigOverride } {
  const entries = Object.entries(override);
  const isProjectKey = (k: string) => k === "project" || k.startsWith("project.");
  return {
    project: Object.fromEntries(entries.filter(([k]) => isProjectKey(k))),
    rest: Object.fromEntries(entries.filter(([k]) => !isProjectKey(k))),
  };
}

/**
 * `patch` merged into the project level. The later levels lose any `project.*` keys: they cannot
 * take them any more, and one written there before (by the typed PATCH) would hide the new value.
 */
function withProjectLevel(overrides: ConfigOverrides, patch: ConfigOverride, mode: "merge" | "replace"): ConfigOverrides {
  const out: ConfigOverrides = { ...overrides, project: mode === "merge" ? mergeOverride(overrides.project ?? {}, patch) : patch };
  for (const later of ["branch", "environment"] as const) {
    if (overrides[later]) out[later] = removeOverrideKeys(overrides[later], ["project"]);
  }
  return out;
}

/**
 * PATCH /internal/projects/current: the typed fields; a config update is written through the
 * environment override, its `project.*` keys through the project override.
 */
export function updateProjectFields(deps: Deps, project: ProjectRow, fields: ProjectFields): Promise<SaveResult> {
  // As the reference: the typed PATCH selects only a theme the project has (a built-in's older name included).
  const theme = fields.config?.email_theme;
  if (theme !== undefined && !hasEmailTheme(project, theme))
    return Promise.resolve(fail("invalid_config", { message: "Invalid email theme" }));
  return saveProject(deps, project, fields, async (overrides, current) => {
    if (!fields.config) return overrides;
    const sealed = (await sealConfigSecrets(deps, fields.config, current)) ?? {};
    const { project: projectKeys, rest } = splitProjectKeys(flatUpdateToOverride(sealed));
    const next = { ...overrides, environment: mergeOverride(overrides.environment ?? {}, rest) };
    return Object.keys(projectKeys).length ? withProjectLevel(next, projectKeys, "merge") : next;
  });
}

/**
 * PATCH (merge) or PUT (replace) one level's override. Secrets in it are sealed before they are
 * stored; the rendered result must be valid or nothing is written.
 */
export function writeConfigOverride(
  deps: Deps,
  project: ProjectRow,
  level: OverrideLevel,
  override: ConfigOverride,
  mode: "merge" | "replace",
  source?: ConfigSource,
): Promise<SaveResult> {
  const wrongLevel = overrideLevelProblem(level, override);
  if (wrongLevel) return Promise.resolve(fail("invalid_config_override", { message: wrongLevel }));
  return saveProject(deps, project, source ? { configSource: source } : {}, async (overrides) => {
    const sealed = await mapSecrets(override, (value) => sealConfigValue(deps, value));
    if (level === "project") return withProjectLevel(overrides, sealed, mode);
    // The stored level is brought to the current key names first, so a new name replaces its old one.
    const stored = migrateOverrideNames(overrides[level] ?? {});
    return { ...overrides, [level]: mode === "merge" ? mergeOverride(stored, sealed) : sealed };
  });
}

/**
 * Removes keys, and everything under them, from one level's override (the reference's reset-keys):
 * a dotted key goes whether it was written dotted or nested; an empty object left behind goes too.
 */
export function resetConfigOverrideKeys(deps: Deps, project: ProjectRow, level: OverrideLevel, keys: string[]): Promise<SaveResult> {
  // A key may name an old path (payments.offers.x): it is reset under its current name.
  const current = keys.map((k) => Object.keys(migrateOverrideNames({ [k]: true }))[0] ?? k);
  return saveProject(deps, project, {}, async (overrides) => ({
    ...overrides,
    [level]: removeOverrideKeys(migrateOverrideNames(overrides[level] ?? {}), current),
  }));
}

/** Marks the branch override as no longer pushed from anywhere (editable in the console); its keys stay. */
export function unlinkConfigSource(deps: Deps, project: ProjectRow): Promise<SaveResult> {
  return saveProject(deps, project, { configSource: { type: "unlinked" } }, async (overrides) => overrides);
}

export async function removeProject(deps: Deps, project: ProjectRow): Promise<{ ok: true } | Problem<"internal_project">> {
  // The internal project is the dashboard itself; deleting it would lock every owner out.
  if (project.id === INTERNAL_PROJECT_ID) return fail("internal_project");
  await deleteProject(deps.db, project.id);
  // A deleted project is not authenticated from the outage copy either (services/outage/last-known-auth.ts).
  forgetLastKnownAuth(deps, project.id);
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
): Promise<{ ok: true } | Problem<"project_not_found" | "not_owner_team_member" | "team_permission_required">> {
  // Only a member of the owner team learns that the project exists.
  const project = (await isProjectOwnedByUser(deps.db, projectId, ownerUserId)) ? await findProjectById(deps.db, projectId) : null;
  if (!project?.ownerTeamId) return fail("project_not_found");
  // As the reference: giving a project away is for the owner team's admins, not any member.
  if (!(await hasTeamPermission(deps, INTERNAL_PROJECT_ID, project.ownerTeamId, ownerUserId, "team_admin")))
    return fail("team_permission_required", { teamId: project.ownerTeamId, userId: ownerUserId, permissionId: "team_admin" });
  if (!(await isTeamMember(deps.db, newTeamId, ownerUserId))) return fail("not_owner_team_member");
  await setProjectOwnerTeam(deps.db, projectId, newTeamId);
  return { ok: true };
}

const DAY_MS = 86_400_000;

/** The console overview's counts; "today" starts at 00:00 UTC. */
export function projectStats(deps: Deps, projectId: string): Promise<ProjectStats> {
  const now = deps.now();
  return countProjectStats(deps.db, projectId, now - (now % DAY_MS), now);
}

const DEFAULT_PERMISSION_LISTS = {
  team: ["team_creator_default_permissions", "team_member_default_permissions"],
  project: ["user_default_permissions"],
} as const;

/**
 * A permission definition was renamed or deleted, and the same batch rewrote the rendered default
 * lists (db/queries/permissions.ts). Write those lists through the environment override too, so
 * the next render does not bring the old id back from a level or from the defaults.
 */
export async function pinDefaultPermissions(deps: Deps, projectId: string, scope: "team" | "project"): Promise<void> {
  const project = await findProjectById(deps.db, projectId);
  if (!project) return;
  const result = await saveProject(deps, project, {}, async (overrides, current) => {
    const lists: FlatProjectConfigUpdate = Object.fromEntries(DEFAULT_PERMISSION_LISTS[scope].map((key) => [key, current[key]]));
    return { ...overrides, environment: mergeOverride(overrides.environment ?? {}, flatUpdateToOverride(lists)) };
  });
  if (!result.ok) throw new Error(`default permissions could not be written through the override: ${result.reason}`);
}
