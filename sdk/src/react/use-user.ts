/**
 * `useUser`: the signed-in user from the nearest `StackProvider`, kept up to date.
 * It suspends during the first load (the provider's Suspense boundary shows a loader),
 * re-renders when the user changes, and can redirect to sign-in when nobody is signed in.
 */
import { useCallback, useSyncExternalStore } from "react";
import type { ReactUser } from "./app-types";
import { useStackApp } from "./provider";
import { getUserStore } from "./user-store";

export type UseUserOptions = {
  /** "redirect": go to sign-in (replacing history) when signed out; default: return null. */
  or?: "redirect" | "return-null";
};

/** A promise that never settles: keeps a redirecting page suspended. */
const forever = new Promise<never>(() => {});
/** Apps already redirecting to sign-in (so a re-render does not redirect twice). */
const redirecting = new WeakSet<object>();

/**
 * The current user, or null when signed out (anonymous users count as signed out).
 *
 * @example
 * const user = useUser({ or: "redirect" }); // never null: redirects instead
 * return <p>Hello {user.displayName ?? user.primaryEmail}</p>;
 */
export function useUser(options: UseUserOptions & { or: "redirect" }): ReactUser;
export function useUser(options?: UseUserOptions): ReactUser | null;
export function useUser(options: UseUserOptions = {}): ReactUser | null {
  const app = useStackApp();
  const store = getUserStore(app);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  if (snapshot.status === "loading") throw store.load();
  const user = snapshot.value;
  if (!user && options.or === "redirect") {
    // As the reference SDK does: start the redirect, then stay suspended until the page leaves.
    if (!redirecting.has(app)) {
      redirecting.add(app);
      app.redirectToSignIn({ replace: true }).catch((error: unknown) => {
        redirecting.delete(app);
        console.error("[doorman] redirect to sign-in failed", error);
      });
    }
    throw forever;
  }
  return user;
}

/**
 * A function that re-reads the current user (call it after a mutation).
 *
 * @example
 * const refreshUser = useRefreshUser();
 * await user.update({ displayName }); await refreshUser();
 */
export function useRefreshUser(): () => Promise<void> {
  const app = useStackApp();
  return useCallback(() => getUserStore(app).refresh(), [app]);
}
