/**
 * `useTeams` / `useTeam`: the signed-in user's teams, kept up to date. Like `useUser`, they
 * suspend during the first load; they re-read when the SDK's cached team list changes (after
 * any team mutation) and when the current user changes (sign-in, sign-out, selection).
 */
import { useSyncExternalStore } from "react";
import type { ReactStackApp } from "./app-types";
import { useStackApp } from "./provider";
import { perApp, ReloadingStore } from "./reloading-store";
import type { ReactTeam } from "./team-types";
import { getUserStore } from "./user-store";

type Subscribable = { _subscribeTeams?: (callback: () => void) => () => void };

/** Teams re-read after any team mutation and whenever the current user changes. */
const getTeamsStore = perApp(
  (app: ReactStackApp) =>
    new ReloadingStore<ReactTeam[]>(
      async () => {
        const user = await app.getUser();
        return user ? await user.listTeams() : [];
      },
      [],
      "teams",
      (reload) => {
        const sub = (app as ReactStackApp & Subscribable)._subscribeTeams;
        return [...(typeof sub === "function" ? [sub.call(app, reload)] : []), getUserStore(app).subscribe(reload)];
      },
    ),
);

/**
 * The signed-in user's teams (empty when signed out).
 *
 * @example
 * const teams = useTeams();
 * return <ul>{teams.map((t) => <li key={t.id}>{t.displayName}</li>)}</ul>;
 */
export function useTeams(): ReactTeam[] {
  const store = getTeamsStore(useStackApp());
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  if (snapshot.status === "loading") throw store.load();
  return snapshot.value;
}

/**
 * One of the user's teams by id, or null when the user is not a member.
 *
 * @example
 * const team = useTeam(user.selectedTeam?.id ?? "");
 */
export function useTeam(teamId: string): ReactTeam | null {
  return useTeams().find((t) => t.id === teamId) ?? null;
}

/** Re-reads the teams (after a mutation made outside the SDK's team objects). */
export function refreshTeamsOf(app: ReactStackApp): Promise<void> {
  return getTeamsStore(app).refresh();
}
