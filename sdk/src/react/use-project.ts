/**
 * The project's public config for components that show or hide themselves by a project flag
 * (magic link, passkeys, OAuth providers, API keys, team creation). One request serves every
 * component that asks within a few seconds, instead of one `GET /projects/current` each.
 */
import { useEffect, useState } from "react";
import { useStackApp } from "./provider";

type ProjectConfig = Record<string, unknown>;

/** How long one answer is shared: enough for one page's components, short enough to stay fresh. */
const SHARE_MS = 5_000;
const shared = new WeakMap<object, { at: number; config: Promise<ProjectConfig> }>();

function projectConfigOf(app: { getProject(): Promise<{ config: ProjectConfig }> }): Promise<ProjectConfig> {
  const entry = shared.get(app);
  if (entry && Date.now() - entry.at < SHARE_MS) return entry.config;
  const config = app.getProject().then((p) => p.config);
  shared.set(app, { at: Date.now(), config });
  // A failed fetch is not shared: the next component asks again.
  config.catch(() => shared.delete(app));
  return config;
}

/**
 * The project's client config, or null while loading (and after a failed load).
 *
 * @example
 * const config = useProjectConfig();
 * if (config?.passkey_enabled === true) return <PasskeySignInButton />;
 */
export function useProjectConfig(): ProjectConfig | null {
  const app = useStackApp();
  const [config, setConfig] = useState<ProjectConfig | null>(null);
  useEffect(() => {
    let live = true;
    projectConfigOf(app).then(
      (value) => live && setConfig(value),
      () => live && setConfig(null),
    );
    return () => {
      live = false;
    };
  }, [app]);
  return config;
}

/**
 * Whether a boolean project flag is on: null while loading, then true or false.
 *
 * @example
 * const canCreateTeams = useProjectFlag("client_team_creation_enabled");
 */
export function useProjectFlag(flag: string): boolean | null {
  const config = useProjectConfig();
  return config === null ? null : config[flag] === true;
}
