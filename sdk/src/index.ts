/**
 * The Doorman SDK: client, server and admin apps over the Stack-compatible v1 API.
 *
 * @example
 * import { StackClientApp } from "doorman/sdk";
 * const app = new StackClientApp({ projectId, publishableClientKey, tokenStore: "cookie" });
 * const user = await app.getUser({ or: "redirect" });
 */

export type { ListActivityOptions, UserActivity, UserActivityPage, UserActivityType } from "./apps/activity";
export {
  type AiChatStoredMessage,
  type AiChatUsage,
  type AskAssistantOptions,
  type AssistantReply,
  aiChatText,
} from "./apps/admin-ai-chat";
export {
  type AdminAppOptions,
  type InternalApiKey,
  type InternalApiKeyFirstView,
  type MetricsDataPoint,
  type ProjectEvent,
  type ProjectMetrics,
  type ProjectStats,
  type SentEmail,
  StackAdminApp,
} from "./apps/admin-app";
export type {
  AdminEmailOutbox,
  AdminEmailOutboxRecipient,
  AdminEmailOutboxSimpleStatus,
  AdminEmailOutboxStatus,
  AdminSendAttemptError,
  EmailOutboxListOptions,
  EmailOutboxListResult,
  EmailOutboxUpdateOptions,
} from "./apps/admin-email-outbox";
export type {
  EmailDraft,
  EmailDraftFields,
  EmailPreviewOptions,
  EmailTemplate,
  EmailTheme,
  EmailThemeChoice,
  RenderedEmailPreview,
  SendEmailOptions,
  SendEmailResult,
} from "./apps/admin-emails";
export type {
  OAuthClient,
  OAuthClientCreateOptions,
  OAuthClientJwks,
  OAuthClientType,
  OAuthClientUpdateOptions,
  OAuthClientWithSecret,
  OAuthTokenEndpointAuthMethod,
} from "./apps/admin-oauth-clients";
export type { StripeAccountInfo } from "./apps/admin-payments";
export type { AdminProject, ProjectConfig, ProjectUpdate } from "./apps/admin-project";
export type {
  SignUpAuthMethod,
  SignUpRiskScores,
  SignUpRuleEvaluation,
  SignUpRulesStatsView,
  SignUpRulesTestInput,
  SignUpRulesTestOutcome,
  SignUpRuleTriggers,
} from "./apps/admin-sign-up-rules";
export {
  WEBHOOK_EVENT_TYPES,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointInput,
  type WebhookEventType,
} from "./apps/admin-webhooks";
export type { ApiKey, ApiKeyFirstView, ApiKeyType, CreateApiKeyOptions } from "./apps/api-keys";
export type { ClientAppOptions } from "./apps/app-core";
export type { CliSessionState } from "./apps/cli";
export type { CredentialOptions, GetUserOptions } from "./apps/client-app";
export type {
  CreateOAuthProviderOptions,
  GetConnectedAccountOptions,
  OAuthConnection,
  OAuthProvider,
  ServerOAuthProvider,
} from "./apps/connected-accounts";
export type { ContactChannel, NotificationCategory } from "./apps/contact-channels";
export type { ActiveSession } from "./apps/current-user";
export type { DataVaultSecretOptions, DataVaultStore } from "./apps/data-vault";
export type { DevInboxEntry, DevInboxMessage } from "./apps/dev-inbox";
export { type HostedPages, type HostedPagesSettings, lookupHostedPages } from "./apps/hosted-pages";
export type { OAuthStartOptions } from "./apps/oauth";
export type { AuthorizedApp, OAuthApp, OAuthAuthorizationRequest, OAuthDenyError } from "./apps/oauth-consent";
export { PASSKEY_RP_ID_SENTINEL, PASSKEY_WEBAUTHN_ERROR_CODES, type PasskeyWebAuthnErrorCode } from "./apps/passkeys";
export type {
  CheckoutOptions,
  ClientCheckoutOptions,
  ClientCustomer,
  CustomerSelector,
  GrantProductOptions,
  Item,
  QuantityChangeOptions,
  ServerCustomer,
  ServerItem,
} from "./apps/payments";
export type {
  ClientOfferChoice,
  CustomerProduct,
  CustomerProductsList,
  CustomerProductsListOptions,
  CustomerType,
  IncludedItem,
  InlineOffer,
  OfferChoice,
  OfferPrice,
  PaymentsCustomerView,
  Purchase,
  PurchaseCodeDetails,
} from "./apps/payments-shapes";
export type {
  PermissionDefinition,
  PermissionDefinitionCreateOptions,
  PermissionDefinitionUpdateOptions,
  PermissionScope,
  ProjectPermission,
  TeamPermission,
} from "./apps/permissions";
export type { CreateUserOptions, ListUsersOptions, ServerAppOptions, ServerUser } from "./apps/server-app";
export type {
  ServerContactChannel,
  ServerContactChannelCreateOptions,
  ServerContactChannelUpdateOptions,
} from "./apps/server-contact-channels";
// Enterprise SSO sign-in (issue 31).
export { type SsoLookup, type SsoStartOptions, type SsoTarget, ssoRequiredConnectionId } from "./apps/sso";
// Enterprise SSO management (issue 31): admin.getTeamSso(teamId), team.getSso(), app.openSsoSetupLink(token).
export type {
  SsoAttributeMapping,
  SsoConnection,
  SsoConnectionCreate,
  SsoConnectionUpdate,
  SsoDomain,
  SsoDomainUpdate,
  SsoEvent,
  SsoGroupMapping,
  SsoOidcSettingsInput,
  SsoProtocol,
  SsoSamlSettingsInput,
  SsoSetupLink,
  TeamSsoManagement,
} from "./apps/sso-management";
export { type AdminOwnedProject, type CurrentUser, StackClientApp, StackServerApp } from "./apps/stack-apps";
export type {
  ServerTeam,
  ServerTeamCreateOptions,
  ServerTeamUpdateOptions,
  ServerTeamUser,
  TeamCreateOptions,
  TeamInvitation,
  TeamMemberPermission,
  TeamUpdateOptions,
  TeamUser,
  UserTeam,
} from "./apps/teams";
export type { ServerUserUpdateOptions, Team, UserUpdateOptions } from "./apps/users";
export { cliConfirmUrl, type PromptCliLoginOptions, promptCliLogin } from "./cli-login";
export { ConnectionError, type FetchLike, HttpError, RateLimitedError } from "./interface/http";
export type { Result } from "./interface/result";
export {
  createResourceServerVerifier,
  type OAuthAccessTokenFailure,
  type OAuthAccessTokenResult,
  type OAuthAccessTokenVerifier,
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  type ResourceServerVerifierOptions,
  type VerifiedOAuthAccessToken,
  verifyAccessToken,
  wwwAuthenticate,
} from "./resource-server";
export type { CookieJar, RequestLike, TokenStoreInit, Tokens } from "./session/token-store";
export { AI_CHAT_CONTEXT_TYPES, AI_CHAT_MAX_MESSAGE_CHARS, type AiChatContextType } from "./shared/ai-chat-limits";
export { KnownError, type KnownErrorCode } from "./shared/known-errors";
export type { SignUpRule, SignUpRuleAction, SignUpRuleActionType } from "./shared/wire-sign-up-rules";
export { type HandlerUrls, isTrustedRedirect } from "./urls";
export {
  type AccessTokenVerifier,
  type AccessTokenVerifierOptions,
  createAccessTokenVerifier,
  type VerifiedAccessToken,
} from "./verify-access-token";
