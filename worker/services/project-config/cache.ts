/**
 * A project's rendered config (its override levels over Doorman's defaults), kept per isolate for
 * the project's config version: every override write bumps the version, so a change is seen at once.
 * Rendering validates the whole config (email templates included), and the payments hot path
 * (item reads, quantity changes) and the assistant read it on every call.
 */
import type { ProjectRow } from "../../db/queries/projects";
import { storedOverrides } from "../projects";
import { readProjectConfig } from "./flat";
import { renderConfig } from "./overrides";
import { type RenderedConfig, toRenderedConfig } from "./rendered";

const rendered = new Map<string, RenderedConfig>();
// A rendered config holds the email templates' sources (tens of KiB): a small bound per isolate.
const MAX_CACHED = 64;

export function renderedConfigOf(project: ProjectRow): RenderedConfig {
  const key = `${project.id}:${project.configVersion}`;
  let config = rendered.get(key);
  if (!config) {
    const result = renderConfig(storedOverrides(project));
    // Every write validated its result, so this renders; the stored flat config is the fallback.
    config = result.ok ? result.config : toRenderedConfig(readProjectConfig(project.config));
    if (rendered.size >= MAX_CACHED) rendered.clear();
    rendered.set(key, config);
  }
  return config;
}
