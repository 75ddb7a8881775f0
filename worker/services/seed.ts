/**
 * Seeds the internal project (id "internal", the dashboard's own project), its owner team and
 * its key set. Runs lazily the first time the project is looked up and missing: in development
 * with the public dev keys, in production only with keys from wrangler secrets.
 */

import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import type { BatchItem } from "drizzle-orm/batch";
import { sha256Hex } from "../crypto/hash";
import { authRowEpoch, cachedProjectRow, rememberProjectRow } from "../db/auth-row-cache";
import { insertKeySetStatement } from "../db/queries/key-sets";
import { findProjectById, type ProjectRow } from "../db/queries/projects";
import { projects, teams } from "../db/schema";
import { INTERNAL_DEV_KEY_SET_ID, INTERNAL_OWNER_TEAM_ID, INTERNAL_PROJECT_DISPLAY_NAME } from "../internal-seed";
import type { Deps } from "./deps";
import { defaultDefinitionStatements } from "./permissions";
import { defaultProjectConfig, type FlatProjectConfig } from "./project-config/flat";

export function internalProjectConfig(): FlatProjectConfig {
  return {
    ...defaultProjectConfig(),
    allow_localhost: true,
    create_team_on_sign_up: true,
    client_team_creation_enabled: true,
    magic_link_enabled: true,
    credential_enabled: true,
    oauth_providers: ["github", "spotify", "google", "microsoft"].map((id) => ({ id, type: "shared" as const })),
  };
}

/** Creates the internal project if keys are configured; returns it (or null when not seedable). */
export async function seedInternalProject(deps: Deps): Promise<ProjectRow | null> {
  // Dev keys only in development; production needs INTERNAL_* secrets (worker/config.ts refuses the dev ones).
  const keys = deps.config.internalKeys;
  if (!keys) return null;
  const now = deps.now();
  const statements: BatchItem<"sqlite">[] = [
    deps.db
      .insert(projects)
      .values({
        id: INTERNAL_PROJECT_ID,
        displayName: INTERNAL_PROJECT_DISPLAY_NAME,
        description: "The Doorman dashboard's own project: project owners are its users.",
        createdAt: now,
        ownerTeamId: INTERNAL_OWNER_TEAM_ID,
        config: internalProjectConfig(),
      })
      .onConflictDoNothing(),
    deps.db
      .insert(teams)
      .values({ id: INTERNAL_OWNER_TEAM_ID, projectId: INTERNAL_PROJECT_ID, displayName: "Doorman Owners", createdAt: now })
      .onConflictDoNothing(),
    insertKeySetStatement(deps.db, {
      id: INTERNAL_DEV_KEY_SET_ID,
      projectId: INTERNAL_PROJECT_ID,
      description: "Internal project keys (seeded)",
      publishableKeyHash: await sha256Hex(keys.publishable),
      secretKeyHash: await sha256Hex(keys.secret),
      adminKeyHash: await sha256Hex(keys.admin),
      publishableLastFour: keys.publishable.slice(-4),
      secretLastFour: keys.secret.slice(-4),
      adminLastFour: keys.admin.slice(-4),
      createdAt: now,
      expiresAt: Date.UTC(2099, 11, 31),
    }),
    // Insert-if-absent: the seed may run after migration 0002 already created them.
    ...defaultDefinitionStatements(deps, INTERNAL_PROJECT_ID),
  ];
  await deps.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return findProjectById(deps.db, INTERNAL_PROJECT_ID);
}

/** Looks a project up, seeding the internal project on first use. */
/**
 * loadProject through the isolate's short memory of project rows (db/auth-row-cache.ts), for the
 * public endpoints that read a project on every request without the auth middleware (the OpenID
 * provider's): the same 5-second staleness the authenticated path accepts, one D1 read saved per request.
 */
export async function loadProjectCached(deps: Deps, projectId: string): Promise<ProjectRow | null> {
  const now = deps.now();
  const known = cachedProjectRow(projectId, now);
  if (known) return known;
  const readAt = authRowEpoch();
  const project = await loadProject(deps, projectId);
  if (project) rememberProjectRow(project, now, readAt);
  return project;
}

export async function loadProject(deps: Deps, projectId: string): Promise<ProjectRow | null> {
  const project = await findProjectById(deps.db, projectId);
  if (project || projectId !== INTERNAL_PROJECT_ID) return project;
  return seedInternalProject(deps);
}
