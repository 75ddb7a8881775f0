/**
 * Saving one OpenID provider settings form: its override written at the environment level; a refused
 * key is put on its field (the caller marks it), anything else thrown for the form's alert.
 */
import type { useProject } from "../../lib/project-context";
import { configErrorMessage } from "../config/api-error";
import { placeProviderError, type ScopeRow } from "./provider-settings";

type Project = ReturnType<typeof useProject>["project"];

export async function saveProviderOverride(
  project: Project,
  override: Parameters<Project["updateConfig"]>[0],
  fallback: string,
  onField: (field: string, message: string) => void,
  rows?: ScopeRow[],
): Promise<void> {
  try {
    await project.updateConfig(override, "environment");
  } catch (e) {
    const placed = placeProviderError(configErrorMessage(e, fallback), rows);
    if (placed.field) onField(placed.field, placed.message);
    // An empty message: the error is on the field, the alert stays quiet.
    throw new Error(placed.field ? "" : placed.message);
  }
}
