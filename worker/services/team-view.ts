/** Wire views of teams (wire-protocol.md §2). */
import type { TeamClientJson, TeamServerJson } from "@doorman/shared/wire";
import type { TeamRow } from "../db/queries/users";

export function teamClientView(team: TeamRow): TeamClientJson {
  return {
    id: team.id,
    display_name: team.displayName,
    profile_image_url: team.profileImageUrl ?? null,
    client_metadata: team.clientMetadata ?? null,
    client_read_only_metadata: team.clientReadOnlyMetadata ?? null,
  };
}

export function teamServerView(team: TeamRow): TeamServerJson {
  return { ...teamClientView(team), created_at_millis: team.createdAt, server_metadata: team.serverMetadata ?? null };
}
