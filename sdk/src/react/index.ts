/**
 * The React entry of the SDK: provider, hooks and ready-made handler-page components.
 *
 * @example
 * import { StackProvider, StackHandler, useUser } from "doorman/sdk/src/react";
 */

export { DEFAULT_LOCALE, localeDirection, parseAcceptLanguage, resolveLocale, SDK_LOCALES, type SdkLocale } from "../shared/locales";
export type { ReactApiKey, ReactApiKeyFirstView, ReactApiKeyOwner } from "./api-key-types";
export type {
  CredentialResult,
  ReactActivity,
  ReactAuthorizedApp,
  ReactConnectedAccount,
  ReactContactChannel,
  ReactHandlerUrls,
  ReactNotificationCategory,
  ReactOAuthProvider,
  ReactSession,
  ReactStackApp,
  ReactUser,
} from "./app-types";
export { AccountSettings } from "./components/account-settings";
export { ActivitySection } from "./components/activity-section";
export { ApiKeysPanel, TeamApiKeysSection, UserApiKeysSection } from "./components/api-keys-section";
export { AuthCard, type AuthCardProps } from "./components/auth-card";
export { AuthorizedAppsSection } from "./components/authorized-apps-section";
export { CliAuthConfirm } from "./components/cli-auth-confirm";
export { EmailVerification, MagicLinkCallback } from "./components/code-landing";
export { ConnectedAccountsSection, providerDisplayName } from "./components/connected-accounts-section";
export { CopyButton } from "./components/copy-button";
export { EmailsSection } from "./components/emails-section";
export { ErrorPage, type ErrorPageProps } from "./components/error-page";
export { Field, type FieldProps, FormAlert } from "./components/field";
export { ForgotPassword } from "./components/forgot-password";
export { handlerPageName, handlerPageTitleKey, StackHandler, type StackHandlerProps } from "./components/handler";
export { ImpersonationLanding } from "./components/impersonation-landing";
export { MagicLinkSignIn } from "./components/magic-link-sign-in";
export { MfaPage } from "./components/mfa-page";
export { MfaSection } from "./components/mfa-section";
export { NotificationsSection } from "./components/notifications-section";
export { OAuthButtonGroup, type OAuthButtonGroupProps } from "./components/oauth-button-group";
export { OAuthCallback } from "./components/oauth-callback";
export { OAuthConsent } from "./components/oauth-consent";
export { PasskeySection } from "./components/passkey-section";
export { PasskeySignInButton } from "./components/passkey-sign-in-button";
export { PasswordReset } from "./components/password-reset";
export { PasswordSection } from "./components/password-section";
export { SessionsSection } from "./components/sessions-section";
export { SignIn, type SignInProps } from "./components/sign-in";
export { SignOut } from "./components/sign-out";
export { SignUp, type SignUpProps } from "./components/sign-up";
// Enterprise SSO (issue 31): the hosted sso-setup page, and its panel for any TeamSsoManagement (the console uses the model).
export { SsoSetup, SsoSetupPanel } from "./components/sso-setup";
export { TeamInvitation } from "./components/team-invitation";
export { TeamSettings } from "./components/team-settings";
export { SelectedTeamSwitcher, TeamsSection } from "./components/teams-section";
export { type TeamPermissions, useTeamPermissions } from "./components/use-team-permissions";
export { useTranslation } from "./i18n/context";
export { en, type MessageKey, type Messages } from "./i18n/en";
export { formatMessage, type MessageValues } from "./i18n/format";
export { createI18n, type I18n, type Translate, type Translations } from "./i18n/translator";
export { StackLoading, type StackProjectView, StackProvider, type StackProviderProps, useStackApp } from "./provider";

export { StackStyles, stackCss } from "./styles";
export type { ReactInvitationDetails, ReactTeam, ReactTeamInvitation, ReactTeamUser } from "./team-types";
export { type UseConnectedAccountOptions, useConnectedAccount } from "./use-connected-account";
export { useItem } from "./use-item";
export { useProject, useProjectConfig, useProjectFlag } from "./use-project";
export { useTeam, useTeams } from "./use-teams";
export { type UseUserOptions, useRefreshUser, useUser } from "./use-user";
