/**
 * What a keys panel hands the Connect page when it links there right after a key set is created:
 * the publishable client key (public, shown once), carried in the history entry's state, never in
 * the URL, so it is not logged or shared with a link. Without it the page leaves the key to paste.
 */

export type ConnectState = { publishableClientKey: string; keySetDescription: string };

/** The Connect page of a project. */
export const connectPath = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/connect`;

/** The state to link with, when the new key set has a publishable key. */
export function connectState(keys: { publishableClientKey?: string; description?: string }): ConnectState | undefined {
  return keys.publishableClientKey
    ? { publishableClientKey: keys.publishableClientKey, keySetDescription: keys.description ?? "the new key set" }
    : undefined;
}

/** The state of a history entry, if it is a ConnectState (anything else is ignored). */
export function readConnectState(state: unknown): ConnectState | null {
  if (typeof state !== "object" || state === null) return null;
  const { publishableClientKey, keySetDescription } = state as Record<string, unknown>;
  if (typeof publishableClientKey !== "string" || !publishableClientKey || publishableClientKey.length > 512) return null;
  return { publishableClientKey, keySetDescription: typeof keySetDescription === "string" ? keySetDescription : "the new key set" };
}
