/** The team objects as the React layer sees them (structural; `UserTeam` of the SDK satisfies them). */

export type ReactTeamUser = {
  readonly id: string;
  readonly teamProfile: { readonly displayName: string | null; readonly profileImageUrl: string | null };
};

export type ReactTeamInvitation = {
  readonly id: string;
  readonly recipientEmail: string;
  readonly expiresAt: Date;
  revoke(): Promise<unknown>;
};

export type ReactTeam = {
  readonly id: string;
  readonly displayName: string;
  readonly profileImageUrl: string | null;
  update(update: { displayName?: string }): Promise<unknown>;
  delete(): Promise<unknown>;
  inviteUser(options: { email: string; callbackUrl?: string }): Promise<unknown>;
  listInvitations(): Promise<ReactTeamInvitation[]>;
  listUsers(): Promise<ReactTeamUser[]>;
  removeUser(userId: string): Promise<unknown>;
  // --- api-keys ---
  createApiKey(options: {
    description: string;
    expiresAt: Date | null;
    isPublic?: boolean;
  }): Promise<import("./api-key-types").ReactApiKeyFirstView>;
  listApiKeys(): Promise<import("./api-key-types").ReactApiKey[]>;
};

/** What an invitation code is for (the team-invitation page). */
export type ReactInvitationDetails = { readonly teamId: string; readonly teamDisplayName: string };
