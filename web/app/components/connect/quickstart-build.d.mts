/** Types of quickstart-build.mjs (bundles and typechecks a quickstart's files against the SDK). */
export function buildQuickstart(
  files: { path: string; code: string }[],
  entry: string,
): Promise<{ bundleErrors: string[]; bundleBytes: number; typeErrors: string[] }>;
