/**
 * The slice of the client app that the React layer relies on, derived from the SDK's own
 * types: each React type picks the members the hooks and components use from the matching SDK
 * type (`StackClientApp`, `CurrentUser`, …). Picking keeps the slice structural, so any object
 * with those members works (and the hooks stay testable), while the shapes live in one place.
 */
import type {
  ActiveSession,
  AuthorizedApp,
  ContactChannel,
  CurrentUser,
  HandlerUrls,
  NotificationCategory,
  OAuthConnection,
  OAuthProvider,
  Result,
  StackClientApp,
  UserActivity,
} from "../index";

/** What the components read from and do with the signed-in user. */
export type ReactUser = Pick<
  CurrentUser,
  | "id"
  | "displayName"
  | "primaryEmail"
  | "isAnonymous"
  | "hasPassword"
  | "primaryEmailVerified"
  | "isMultiFactorRequired"
  | "update"
  | "updatePassword"
  | "setPassword"
  | "signOut"
  | "listContactChannels"
  | "createContactChannel"
  | "listNotificationCategories"
  | "listSessions"
  | "revokeSession"
  | "revokeOtherSessions"
  | "listActivity"
  // --- oauth ---
  | "linkOAuthAccount"
  // --- oauth-consent (apps the user authorized) ---
  | "listAuthorizedApps"
  | "revokeAuthorizedApp"
  // --- connected-accounts ---
  | "listOAuthProviders"
  | "getConnectedAccount"
  // --- passkeys ---
  | "passkeyAuthEnabled"
  | "registerPasskey"
  | "generateRecoveryCodes"
  // --- teams ---
  | "selectedTeam"
  | "createTeam"
  | "listTeams"
  | "setSelectedTeam"
  | "leaveTeam"
  // --- api-keys ---
  | "createApiKey"
  | "listApiKeys"
  // --- payments ---
  | "getItem"
  | "useItem"
  | "createCheckoutUrl"
  | "listProducts"
  | "listPurchases"
>;

/** A provider account linked to the user (account settings: "Connected accounts"). */
export type ReactOAuthProvider = Pick<
  OAuthProvider,
  "id" | "type" | "email" | "allowSignIn" | "allowConnectedAccounts" | "update" | "delete"
>;

/** A connected account the app can get provider access tokens for. */
export type ReactConnectedAccount = Pick<OAuthConnection, "id" | "provider" | "getAccessToken">;

/** A third-party app the user authorized (account settings: "Authorized apps"). */
export type ReactAuthorizedApp = Pick<AuthorizedApp, "client" | "scopes" | "teamId" | "authorizedAt" | "lastUsedAt">;

/** One entry of the user's recent security activity. */
export type ReactActivity = Pick<UserActivity, "id" | "type" | "createdAt" | "ip" | "userAgent" | "countryCode" | "data">;

export type ReactSession = Pick<ActiveSession, "id" | "createdAt" | "lastUsedAt" | "isCurrentSession" | "isImpersonation" | "geoInfo">;

export type ReactContactChannel = Pick<
  ContactChannel,
  "id" | "value" | "isPrimary" | "isVerified" | "usedForAuth" | "update" | "delete" | "sendVerificationEmail"
>;

export type ReactNotificationCategory = Pick<NotificationCategory, "id" | "name" | "enabled" | "canDisable" | "setEnabled">;

/** The result of a password sign-in or sign-up (errors are values, not exceptions). */
export type CredentialResult = Result<unknown>;

/** Handler and redirect URLs, already resolved by the app (wire names of Stack's HandlerUrls). */
export type ReactHandlerUrls = Pick<
  HandlerUrls,
  "signIn" | "signUp" | "signOut" | "accountSettings" | "home" | "afterSignIn" | "afterSignOut" | "forgotPassword"
>;

/** The client app as the React layer sees it. */
export type ReactStackApp = Pick<
  StackClientApp,
  | "urls"
  | "getUser"
  | "signInWithCredential"
  | "signUpWithCredential"
  | "signOut"
  | "redirectToSignIn"
  | "getProject"
  | "sendMagicLinkEmail"
  | "signInWithMagicLink"
  | "signInWithImpersonationCode"
  | "checkMagicLinkCode"
  | "sendForgotPasswordEmail"
  | "verifyPasswordResetCode"
  | "resetPassword"
  | "verifyEmail"
  | "checkEmailVerificationCode"
  | "signInWithMfa"
  | "signInWithRecoveryCode"
  | "enrollMfa"
  // --- new-device verification (issue 29) ---
  | "verifyDeviceCode"
  | "resendDeviceCode"
  // --- oauth ---
  | "signInWithOAuth"
  | "callOAuthCallback"
  // --- enterprise SSO (issue 31) ---
  | "signInWithSso"
  | "lookupSso"
  // --- enterprise SSO setup links (issue 31: the sso-setup page) ---
  | "openSsoSetupLink"
  // --- oauth-consent (the OpenID provider's consent page) ---
  | "getOAuthAuthorizationRequest"
  | "approveOAuthAuthorizationRequest"
  | "denyOAuthAuthorizationRequest"
  // --- hosted pages' session handoff ---
  | "handOffSession"
  | "callHostedPagesCallback"
  | "_hostedPagesCallbackOnce"
  // --- passkeys ---
  | "signInWithPasskey"
  // --- cli ---
  | "checkCliLogin"
  | "claimCliAnonymousSession"
  | "confirmCliLogin"
  | "redirectToSignUp"
  // --- teams ---
  | "acceptTeamInvitation"
  | "getTeamInvitationDetails"
>;
