/**
 * The signed-in user's (recursive) permissions in one team, for permission-aware team UI.
 * The server enforces every permission anyway; this only decides what to offer.
 */
import { useEffect, useRef, useState } from "react";
import type { ReactUser } from "../app-types";
import type { ReactTeam } from "../team-types";

type PermissionLister = {
  listPermissions?: (scope: { id: string }, options?: { recursive?: boolean }) => Promise<{ id: string }[]>;
};

export type TeamPermissions = {
  /** False until loaded. */
  readonly ready: boolean;
  can(permissionId: string): boolean;
};

/**
 * @example
 * const permissions = useTeamPermissions(user, team);
 * if (permissions.can("$invite_members")) return <InviteForm team={team} />;
 */
export function useTeamPermissions(user: ReactUser, team: ReactTeam): TeamPermissions {
  const teamId = team.id;
  const [ids, setIds] = useState<Set<string> | "unsupported" | null>(null);
  // The user object changes on every refresh (e.g. after a rename); reload only for another
  // user or team, and keep the old answer meanwhile, so gated forms do not blink away.
  const userRef = useRef(user);
  userRef.current = user;
  // biome-ignore lint/correctness/useExhaustiveDependencies: user.id re-runs it for another user (the object changes on every refresh)
  useEffect(() => {
    const current = userRef.current as ReactUser & PermissionLister;
    if (typeof current.listPermissions !== "function") {
      // An app without permission listing: offer everything and let the server decide.
      setIds("unsupported");
      return;
    }
    let live = true;
    current.listPermissions({ id: teamId }, { recursive: true }).then(
      (items) => live && setIds(new Set(items.map((p) => p.id))),
      () => live && setIds(new Set()),
    );
    return () => {
      live = false;
    };
  }, [user.id, teamId]);
  return {
    ready: ids !== null,
    can: (permissionId) => ids === "unsupported" || ids?.has(permissionId) === true,
  };
}
