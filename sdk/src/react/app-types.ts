/**
 * The slice of the client app that the React layer relies on, as a structural type.
 * `StackClientApp` (sdk/src) satisfies it; keeping it structural lets the hooks and
 * components work with any object of the same shape (and keeps them testable).
 */

/** What the components read from and do with the signed-in user. */
export type ReactUser = {
  readonly id: string;
  readonly displayName: string | null;
  readonly primaryEmail: string | null;
  readonly isAnonymous?: boolean;
  readonly hasPassword?: boolean;
  readonly primaryEmailVerified?: boolean;
  readonly isMultiFactorRequired?: boolean;
  update(update: { displayName?: string | null; totpMultiFactorSecret?: Uint8Array | null }): Promise<unknown>;
  updatePassword(options: { oldPassword: string; newPassword: string }): Promise<CredentialResult>;
  setPassword(options: { password: string }): Promise<CredentialResult>;
  signOut(options?: { redirectUrl?: string }): Promise<unknown>;
  listContactChannels(): Promise<ReactContactChannel[]>;
  createContactChannel(options: { value: string; usedForAuth: boolean; isPrimary?: boolean }): Promise<ReactContactChannel>;
  listNotificationCategories(): Promise<ReactNotificationCategory[]>;
  listSessions(): Promise<ReactSession[]>;
  revokeSession(sessionId: string): Promise<unknown>;
  // --- oauth ---
  linkOAuthAccount(provider: string, options?: { providerScope?: string[] }): Promise<unknown>;
  // --- connected-accounts ---
  listOAuthProviders(): Promise<ReactOAuthProvider[]>;
  getConnectedAccount(
    providerId: string,
    options?: { scopes?: string[]; or?: "redirect" | "throw" | "return-null" },
  ): Promise<ReactConnectedAccount | null>;
  // --- passkeys ---
  readonly passkeyAuthEnabled?: boolean;
  registerPasskey(): Promise<CredentialResult>;
  // --- teams ---
  readonly selectedTeam?: { readonly id: string; readonly displayName: string } | null;
  createTeam(options: { displayName: string }): Promise<import("./team-types").ReactTeam>;
  listTeams(): Promise<import("./team-types").ReactTeam[]>;
  setSelectedTeam(team: { id: string } | string | null): Promise<unknown>;
  leaveTeam(team: { id: string } | string): Promise<unknown>;
  // --- api-keys ---
  createApiKey(options: {
    description: string;
    expiresAt: Date | null;
    isPublic?: boolean;
  }): Promise<import("./api-key-types").ReactApiKeyFirstView>;
  listApiKeys(): Promise<import("./api-key-types").ReactApiKey[]>;
};

/** A provider account linked to the user (account settings: "Connected accounts"). */
export type ReactOAuthProvider = {
  readonly id: string;
  readonly type: string;
  readonly email: string | null;
  readonly allowSignIn: boolean;
  readonly allowConnectedAccounts: boolean;
  update(update: { allowSignIn?: boolean; allowConnectedAccounts?: boolean }): Promise<CredentialResult>;
  delete(): Promise<unknown>;
};

/** A connected account the app can get provider access tokens for. */
export type ReactConnectedAccount = {
  readonly id: string;
  readonly provider: string;
  getAccessToken(options?: { scopes?: string[] }): Promise<{ accessToken: string }>;
};

export type ReactSession = {
  readonly id: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly isCurrentSession: boolean;
  readonly isImpersonation: boolean;
  readonly geoInfo: Record<string, unknown> | null;
};

export type ReactContactChannel = {
  readonly id: string;
  readonly value: string;
  readonly isPrimary: boolean;
  readonly isVerified: boolean;
  readonly usedForAuth: boolean;
  update(update: { isPrimary?: boolean; usedForAuth?: boolean }): Promise<unknown>;
  delete(): Promise<unknown>;
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<CredentialResult>;
};

export type ReactNotificationCategory = {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly canDisable: boolean;
  setEnabled(enabled: boolean): Promise<unknown>;
};

/** The result of a password sign-in or sign-up (errors are values, not exceptions). */
export type CredentialResult = { status: "ok"; data?: unknown } | { status: "error"; error: Error & { code?: string } };

/** Handler and redirect URLs, already resolved by the app (wire names of Stack's HandlerUrls). */
export type ReactHandlerUrls = {
  readonly signIn: string;
  readonly signUp: string;
  readonly signOut: string;
  readonly accountSettings: string;
  readonly home: string;
  readonly afterSignIn: string;
  readonly afterSignOut: string;
  readonly forgotPassword?: string;
};

/** The client app as the React layer sees it. */
export interface ReactStackApp {
  readonly urls: ReactHandlerUrls;
  getUser(options?: { or?: "return-null" }): Promise<ReactUser | null>;
  signInWithCredential(options: { email: string; password: string; noRedirect?: boolean }): Promise<CredentialResult>;
  signUpWithCredential(options: { email: string; password: string; noRedirect?: boolean }): Promise<CredentialResult>;
  signOut(options?: { redirectUrl?: string }): Promise<unknown>;
  redirectToSignIn(options?: { replace?: boolean }): Promise<unknown>;
  getProject(): Promise<{ config: Record<string, unknown> }>;
  sendMagicLinkEmail(email: string, options?: { callbackUrl?: string }): Promise<CredentialResult & { data?: { nonce: string } }>;
  signInWithMagicLink(code: string, options?: { noRedirect?: boolean }): Promise<CredentialResult>;
  sendForgotPasswordEmail(email: string, options?: { callbackUrl?: string }): Promise<CredentialResult>;
  verifyPasswordResetCode(code: string): Promise<CredentialResult>;
  resetPassword(options: { code: string; password: string }): Promise<CredentialResult>;
  verifyEmail(code: string): Promise<CredentialResult>;
  signInWithMfa(totp: string, options?: { noRedirect?: boolean }): Promise<CredentialResult>;
  // --- oauth ---
  signInWithOAuth(provider: string): Promise<unknown>;
  callOAuthCallback(): Promise<boolean>;
  // --- passkeys ---
  signInWithPasskey(options?: { noRedirect?: boolean }): Promise<CredentialResult>;
  // --- cli ---
  checkCliLogin(loginCode: string): Promise<{ status: "ok"; data: "anonymous" | "none" } | Extract<CredentialResult, { status: "error" }>>;
  claimCliAnonymousSession(loginCode: string): Promise<CredentialResult>;
  confirmCliLogin(loginCode: string): Promise<CredentialResult>;
  redirectToSignUp(options?: { replace?: boolean }): Promise<unknown>;
  // --- teams ---
  acceptTeamInvitation(code: string): Promise<CredentialResult>;
  getTeamInvitationDetails(code: string): Promise<CredentialResult & { data?: import("./team-types").ReactInvitationDetails }>;
}
