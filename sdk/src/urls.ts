/**
 * Handler and redirect URLs with the defaults of SPEC.md §2, `after_auth_return_to`, and the
 * trusted-redirect check (same-origin paths, or origins the app lists as trusted).
 */
import { DEFAULT_HANDLER_PATH } from "./shared/constants";

export type HandlerUrls = {
  handler: string;
  signIn: string;
  signUp: string;
  signOut: string;
  afterSignIn: string;
  afterSignUp: string;
  afterSignOut: string;
  home: string;
  accountSettings: string;
  error: string;
  emailVerification: string;
  passwordReset: string;
  forgotPassword: string;
  oauthCallback: string;
  magicLinkCallback: string;
  teamInvitation: string;
  mfa: string;
  cliAuthConfirm: string;
};

export function resolveUrls(overrides: Partial<HandlerUrls> = {}): HandlerUrls {
  const handler = (overrides.handler ?? DEFAULT_HANDLER_PATH).replace(/\/+$/, "");
  const home = overrides.home ?? "/";
  const afterSignIn = overrides.afterSignIn ?? home;
  return {
    handler,
    home,
    signIn: `${handler}/sign-in`,
    signUp: `${handler}/sign-up`,
    signOut: `${handler}/sign-out`,
    accountSettings: `${handler}/account-settings`,
    error: `${handler}/error`,
    emailVerification: `${handler}/email-verification`,
    passwordReset: `${handler}/password-reset`,
    forgotPassword: `${handler}/forgot-password`,
    oauthCallback: `${handler}/oauth-callback`,
    magicLinkCallback: `${handler}/magic-link-callback`,
    teamInvitation: `${handler}/team-invitation`,
    mfa: `${handler}/mfa`,
    cliAuthConfirm: `${handler}/cli-auth-confirm`,
    ...overrides,
    afterSignIn,
    afterSignUp: overrides.afterSignUp ?? afterSignIn,
    afterSignOut: overrides.afterSignOut ?? home,
  };
}

export const RETURN_TO_PARAM = "after_auth_return_to";

function currentLocation(): URL | null {
  return typeof window !== "undefined" && window.location ? new URL(window.location.href) : null;
}

/**
 * Is `url` safe to redirect to? Relative paths (not `//host`), the current origin, or an
 * origin in `trustedOrigins`: anything else could leak the user to an attacker's page.
 */
export function isTrustedRedirect(url: string, trustedOrigins: readonly string[] = []): boolean {
  if (url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\")) return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  const here = currentLocation();
  if (here && parsed.origin === here.origin) return true;
  return trustedOrigins.some((origin) => {
    try {
      return new URL(origin).origin === parsed.origin;
    } catch {
      return false;
    }
  });
}

/** Adds the current page as `after_auth_return_to` unless the target already carries one. */
export function withReturnTo(target: string): string {
  const here = currentLocation();
  if (!here) return target;
  const url = new URL(target, here.origin);
  if (url.searchParams.has(RETURN_TO_PARAM)) return target;
  // Another origin (the hosted pages) needs the full URL to come back to; the same origin keeps a path.
  const sameOrigin = url.origin === here.origin;
  url.searchParams.set(RETURN_TO_PARAM, sameOrigin ? `${here.pathname}${here.search}${here.hash}` : here.href);
  return sameOrigin ? `${url.pathname}${url.search}${url.hash}` : url.toString();
}

/** The `after_auth_return_to` of the current page, if any. */
export function returnToFromLocation(): string | null {
  return currentLocation()?.searchParams.get(RETURN_TO_PARAM) ?? null;
}

export type RedirectMethod = "window" | "none" | { navigate: (url: string, options: { replace: boolean }) => void | Promise<void> };

export class Redirector {
  constructor(
    private readonly method: RedirectMethod,
    private readonly trustedOrigins: readonly string[],
  ) {}

  async redirect(url: string, options: { replace?: boolean } = {}): Promise<void> {
    if (!isTrustedRedirect(url, this.trustedOrigins)) throw new Error(`Refusing to redirect to an untrusted URL: ${url}`);
    const replace = options.replace ?? false;
    if (this.method === "none") return;
    if (this.method === "window") {
      if (typeof window === "undefined") return;
      if (replace) window.location.replace(url);
      else window.location.assign(url);
      return;
    }
    await this.method.navigate(url, { replace });
  }
}
