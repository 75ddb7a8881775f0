/** The team objects as the React layer sees them: slices of the SDK's team types (`UserTeam` and its parts). */
import type { StackClientApp, TeamInvitation, TeamUser, UserTeam } from "../index";

export type ReactTeamUser = Pick<TeamUser, "id" | "teamProfile">;

export type ReactTeamInvitation = Pick<TeamInvitation, "id" | "recipientEmail" | "expiresAt" | "revoke">;

export type ReactTeam = Pick<
  UserTeam,
  | "id"
  | "displayName"
  | "profileImageUrl"
  | "update"
  | "delete"
  | "inviteUser"
  | "listInvitations"
  | "listUsers"
  | "removeUser"
  // --- api-keys ---
  | "createApiKey"
  | "listApiKeys"
  // --- payments ---
  | "getItem"
  | "useItem"
  | "createCheckoutUrl"
  | "listProducts"
  | "listPurchases"
  // --- enterprise SSO (issue 31) ---
  | "getSso"
>;

/** What an invitation code is for (the team-invitation page): the data of `getTeamInvitationDetails`. */
export type ReactInvitationDetails = Extract<Awaited<ReturnType<StackClientApp["getTeamInvitationDetails"]>>, { status: "ok" }>["data"];
