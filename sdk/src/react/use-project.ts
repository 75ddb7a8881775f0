/**
 * The project's public view for components that show or hide themselves by a project flag
 * (magic link, passkeys, OAuth providers, API keys, team creation) or name the project. One
 * request serves every component that asks within a few seconds, instead of one
 * `GET /projects/current` each; a project given to the `StackProvider` (e.g. loaded by the
 * server) is used as is, with no request.
 */
import { useContext, useEffect, useState } from "react";
import { InitialProjectContext, type StackProjectView, useStackApp } from "./provider";

type ProjectConfig = Record<string, unknown>;

/** How long one answer is shared: enough for one page's components, short enough to stay fresh. */
const SHARE_MS = 5_000;
const shared = new WeakMap<object, { at: number; project: Promise<StackProjectView> }>();

function projectOf(app: { getProject(): Promise<StackProjectView> }): Promise<StackProjectView> {
  const entry = shared.get(app);
  if (entry && Date.now() - entry.at < SHARE_MS) return entry.project;
  const project = app.getProject();
  shared.set(app, { at: Date.now(), project });
  // A failed fetch is not shared: the next component asks again.
  project.catch(() => shared.delete(app));
  return project;
}

/**
 * The project's client view, or null while loading (and after a failed load).
 *
 * @example
 * const project = useProject();
 * return <h1>Sign in to {project?.displayName}</h1>;
 */
export function useProject(): StackProjectView | null {
  const app = useStackApp();
  const initial = useContext(InitialProjectContext);
  const [project, setProject] = useState<StackProjectView | null>(initial);
  useEffect(() => {
    if (initial) return;
    let live = true;
    projectOf(app).then(
      (value) => live && setProject(value),
      () => live && setProject(null),
    );
    return () => {
      live = false;
    };
  }, [app, initial]);
  return initial ?? project;
}

/**
 * The project's client config, or null while loading (and after a failed load).
 *
 * @example
 * const config = useProjectConfig();
 * if (config?.passkey_enabled === true) return <PasskeySignInButton />;
 */
export function useProjectConfig(): ProjectConfig | null {
  return useProject()?.config ?? null;
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
