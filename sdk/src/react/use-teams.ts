/**
 * `useTeams` / `useTeam`: the signed-in user's teams, kept up to date. Like `useUser`, they
 * suspend during the first load; they re-read when the SDK's cached team list changes (after
 * any team mutation) and when the current user changes (sign-in, sign-out, selection).
 */
import { useSyncExternalStore } from "react";
import type { ReactStackApp } from "./app-types";
import { useStackApp } from "./provider";
import type { ReactTeam } from "./team-types";
import { getUserStore } from "./user-store";

type TeamsSnapshot = { status: "loading" } | { status: "ready"; teams: ReactTeam[] };
type Subscribable = { _subscribeTeams?: (callback: () => void) => () => void };

const LOADING: TeamsSnapshot = { status: "loading" };

class TeamsStore {
  private snapshot: TeamsSnapshot = LOADING;
  private pending: Promise<void> | null = null;
  private readonly listeners = new Set<() => void>();
  private unsubscribe: (() => void)[] = [];

  constructor(private readonly app: ReactStackApp) {}

  getSnapshot = (): TeamsSnapshot => this.snapshot;

  load(): Promise<void> {
    if (this.snapshot.status === "ready") return Promise.resolve();
    return this.pending ?? this.refresh();
  }

  refresh(): Promise<void> {
    const run = this.app
      .getUser()
      .then(async (user) => this.set({ status: "ready", teams: user ? await user.listTeams() : [] }))
      .catch((error: unknown) => {
        // Show no teams rather than a page suspended forever.
        console.warn("[doorman] could not load teams", error);
        this.set({ status: "ready", teams: [] });
      })
      .finally(() => {
        if (this.pending === run) this.pending = null;
      });
    this.pending = run;
    return run;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      const reload = () => void this.refresh();
      const sub = (this.app as ReactStackApp & Subscribable)._subscribeTeams;
      if (typeof sub === "function") this.unsubscribe.push(sub.call(this.app, reload));
      this.unsubscribe.push(getUserStore(this.app).subscribe(reload));
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        for (const stop of this.unsubscribe) stop();
        this.unsubscribe = [];
      }
    };
  };

  private set(next: TeamsSnapshot): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

const stores = new WeakMap<ReactStackApp, TeamsStore>();

function getTeamsStore(app: ReactStackApp): TeamsStore {
  let store = stores.get(app);
  if (!store) {
    store = new TeamsStore(app);
    stores.set(app, store);
  }
  return store;
}

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
  return snapshot.teams;
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
