/**
 * A project's rendered config (its override levels over Doorman's defaults), kept per isolate for
 * the project's config version: every override write bumps the version, so a change is seen at once.
 * Rendering validates the whole config (email templates included), and the payments hot path
 * (item reads, quantity changes) and the assistant read it on every call.
 */
import type { ProjectRow } from "../../db/queries/projects";
import { IsolateCache } from "../../lib/isolate-cache";
import { storedOverrides } from "../projects";
import { readProjectConfig } from "./flat";
import { renderConfig } from "./overrides";
import { type RenderedConfig, toRenderedConfig } from "./rendered";

// A rendered config holds the email templates' sources (tens of KiB): a small bound per isolate.
// No TTL: the key carries the config version, so a changed config is a new key.
const rendered = new IsolateCache<RenderedConfig>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 64 });

export function renderedConfigOf(project: ProjectRow): RenderedConfig {
  const key = `${project.id}:${project.configVersion}`;
  // Time plays no part (no TTL), so no clock is asked for.
  let config = rendered.get(key, 0);
  if (!config) {
    const result = renderConfig(storedOverrides(project));
    // Every write validated its result, so this renders; the stored flat config is the fallback.
    config = result.ok ? result.config : toRenderedConfig(readProjectConfig(project.config));
    rendered.set(key, config, 0);
  }
  return config;
}
