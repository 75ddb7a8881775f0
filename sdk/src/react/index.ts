/**
 * The React entry of the SDK: provider, hooks and ready-made handler-page components.
 *
 * @example
 * import { StackProvider, StackHandler, useUser } from "doorman/sdk/src/react";
 */
export type {
  CredentialResult,
  ReactContactChannel,
  ReactHandlerUrls,
  ReactNotificationCategory,
  ReactSession,
  ReactStackApp,
  ReactUser,
} from "./app-types";
export { AccountSettings } from "./components/account-settings";
export { AuthCard, type AuthCardProps } from "./components/auth-card";
export { EmailVerification, MagicLinkCallback } from "./components/code-landing";
export { EmailsSection } from "./components/emails-section";
export { ErrorPage, type ErrorPageProps } from "./components/error-page";
export { Field, type FieldProps, FormAlert } from "./components/field";
export { ForgotPassword } from "./components/forgot-password";
export { handlerPageName, StackHandler, type StackHandlerProps } from "./components/handler";
export { MagicLinkSignIn } from "./components/magic-link-sign-in";
export { MfaPage } from "./components/mfa-page";
export { MfaSection } from "./components/mfa-section";
export { NotificationsSection } from "./components/notifications-section";
export { PasswordReset } from "./components/password-reset";
export { PasswordSection } from "./components/password-section";
export { SessionsSection } from "./components/sessions-section";
export { SignIn, type SignInProps } from "./components/sign-in";
export { SignOut } from "./components/sign-out";
export { SignUp, type SignUpProps } from "./components/sign-up";
export { StackLoading, StackProvider, type StackProviderProps, useStackApp } from "./provider";
export { StackStyles, stackCss } from "./styles";
export { type UseUserOptions, useRefreshUser, useUser } from "./use-user";
