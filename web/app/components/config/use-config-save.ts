/**
 * Saving one control of a config page: PATCHes the project (project.update), reloads it so every
 * page sees the new values, and toasts. Progress and the API's error are kept per control key,
 * so each control shows "Saving…" and its own error next to it.
 */

import type { ProjectUpdate } from "@doorman/sdk";
import { useCallback, useState } from "react";
import { useProject } from "../../lib/project-context";
import { useAction } from "../console-ui";
import { configErrorMessage } from "./api-error";

export type ConfigSave = {
  /** The key of the control being saved, or null. */
  saving: string | null;
  /** The API's error per control key. */
  errors: Record<string, string>;
  /** Saves `update` for control `key`; true when it worked (toasts `success`). */
  save(key: string, update: ProjectUpdate | (() => Promise<void>), success: string): Promise<boolean>;
  clearError(key: string): void;
};

export function useConfigSave(): ConfigSave {
  const { project, reloadProject, toast } = useProject();
  const { running: saving, run } = useAction();
  const [errors, setErrors] = useState<Record<string, string>>({});

  const clearError = useCallback((key: string) => {
    setErrors(({ [key]: _gone, ...rest }) => rest);
  }, []);

  const save = useCallback(
    (key: string, update: ProjectUpdate | (() => Promise<void>), success: string) => {
      clearError(key);
      return run(
        async () => {
          if (typeof update === "function") await update();
          else await project.update(update);
          await reloadProject();
          toast(success);
        },
        {
          name: key,
          fallback: "Could not save. Try again.",
          message: (e, fallback) => {
            setErrors((all) => ({ ...all, [key]: configErrorMessage(e, fallback) }));
            return null;
          },
        },
      );
    },
    [project, reloadProject, toast, clearError, run],
  );

  return { saving, errors, save, clearError };
}
