/**
 * `StackHandler` mounts the handler pages (sign-in, sign-up, sign-out, account-settings, error,
 * forgot-password, password-reset, email-verification, magic-link-callback, impersonate, oauth-consent, sso-setup) under one base path, e.g. /handler/*, in any React app or router.
 */
import type { ReactNode } from "react";
import { DEFAULT_HANDLER_PATH } from "../../shared/constants";
import type { ReactStackApp } from "../app-types";
import { useTranslation } from "../i18n/context";
import type { MessageKey } from "../i18n/en";
import { StackProvider, type StackProviderProps, useHasStackApp, useStackApp } from "../provider";
import { AccountSettings } from "./account-settings";
import { AuthCard } from "./auth-card";
import { CliAuthConfirm } from "./cli-auth-confirm";
import { EmailVerification, MagicLinkCallback } from "./code-landing";
import { ErrorPage } from "./error-page";
import { ForgotPassword } from "./forgot-password";
import { ImpersonationLanding } from "./impersonation-landing";
import { MfaPage } from "./mfa-page";
import { OAuthCallback } from "./oauth-callback";
import { OAuthConsent } from "./oauth-consent";
import { PasswordReset } from "./password-reset";
import { SignIn } from "./sign-in";
import { SignOut } from "./sign-out";
import { SignUp } from "./sign-up";
import { SsoSetup } from "./sso-setup";
import { TeamInvitation } from "./team-invitation";

export type StackHandlerProps = Pick<StackProviderProps, "locale" | "translations" | "messages"> & {
  /** The client app; optional when a `StackProvider` is already above. */
  app?: ReactStackApp;
  /** The current path (optionally with "?query"); defaults to the browser's location. */
  location?: string;
  /** Where the handler pages are mounted. Default "/handler". */
  basePath?: string;
};

/** The page names this handler serves, and what each renders. */
const PAGES: Record<string, (search: string) => ReactNode> = {
  "sign-in": (search) => <SignIn search={search} />,
  "sign-up": (search) => <SignUp search={search} />,
  "sign-out": () => <SignOut />,
  "account-settings": () => <AccountSettings />,
  error: (search) => <ErrorPage search={search} />,
  "forgot-password": () => <ForgotPassword />,
  "password-reset": (search) => <PasswordReset search={search} />,
  "email-verification": (search) => <EmailVerification search={search} />,
  "magic-link-callback": (search) => <MagicLinkCallback search={search} />,
  mfa: () => <MfaPage />,
  "oauth-callback": () => <OAuthCallback />,
  "cli-auth-confirm": (search) => <CliAuthConfirm search={search} />,
  "team-invitation": (search) => <TeamInvitation search={search} />,
  impersonate: () => <ImpersonationLanding />,
  "oauth-consent": (search) => <OAuthConsent search={search} />,
  // Enterprise SSO (issue 31): a team's IT admin sets up its identity provider through a setup link.
  "sso-setup": (search) => <SsoSetup search={search} />,
};

/**
 * The catalogue key of a handler page's title ("sign-in" → "page.sign-in"), or null for an unknown page.
 *
 * @example
 * const key = handlerPageTitleKey("sign-in"); // t(key) → "Sign in"
 */
export function handlerPageTitleKey(page: string): MessageKey | null {
  return page in PAGES ? (`page.${page}` as MessageKey) : null;
}

/**
 * The page name in `pathname` below `basePath` ("" when outside it).
 *
 * @example
 * handlerPageName("/handler/sign-in"); // "sign-in"
 */
export function handlerPageName(pathname: string, basePath: string = DEFAULT_HANDLER_PATH): string {
  const base = basePath.replace(/\/+$/, "");
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return "";
  return pathname.slice(base.length).replace(/^\/+/, "").replace(/\/+$/, "").toLowerCase();
}

/**
 * Renders the handler page named by the path, or a not-found message.
 *
 * @example
 * // In a catch-all route for /handler/*:
 * <StackHandler app={app} location={location.pathname + location.search} />
 */
export function StackHandler({ app, location, basePath = DEFAULT_HANDLER_PATH, locale, translations, messages }: StackHandlerProps) {
  const hasOuter = useHasStackApp();
  const where = location ?? (typeof window === "undefined" ? basePath : window.location.pathname + window.location.search);
  const [pathname = "", search = ""] = where.split("?", 2);
  const page = PAGES[handlerPageName(pathname, basePath)];
  const body = page ? page(search ? `?${search}` : "") : <HandlerNotFound />;
  if (app) {
    return (
      <StackProvider app={app} locale={locale} translations={translations} messages={messages}>
        {body}
      </StackProvider>
    );
  }

  if (!hasOuter) throw new Error("StackHandler needs an `app` prop or a <StackProvider> above it.");
  return <>{body}</>;
}

/** Shown for an unknown handler page. */
function HandlerNotFound() {
  const app = useStackApp();
  const { t } = useTranslation();
  return (
    <AuthCard title={t("handler.notFoundTitle")} subtitle={t("handler.notFoundSubtitle")}>
      <a className="stack-button stack-secondary" href={app.urls.home}>
        {t("common.goHome")}
      </a>
    </AuthCard>
  );
}
