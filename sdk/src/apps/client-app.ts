/**
 * The client app's behaviour (ClientAppBase): password and anonymous sign-in, sign-out, the
 * current user (with the four `getUser` options), the project, redirects and handler URLs.
 * The exported `StackClientApp` (stack-apps.ts) is this class wired with the owner admin app.
 */

import type { AccessLevel } from "../interface/http";
import { err, ok, type Result } from "../interface/result";
import { deviceHeaders, keepDeviceToken } from "../session/device-token";
import { KnownError } from "../shared/known-errors";
import { Redirector, returnToFromLocation, withReturnTo } from "../urls";
import type { ProjectAdmin } from "./admin-project";
import { AppCore, type ClientAppOptions, hostedPagesOrigin as hostedOrigin } from "./app-core";
import { type BotChallengeAction, type BotChallengeFields, withBotChallenge } from "./bot-challenge";
import * as cli from "./cli";
import { type CurrentUserOf, makeCurrentUser, type OwnerAdminAppFactory } from "./current-user";
import * as deviceVerification from "./device-verification";
import * as emailAuth from "./email-auth";
import * as hostedHandoff from "./hosted-handoff";
import { bytesToBase64, forgetMfaAttempt, rememberMfaAttempt, storedMfaAttempt } from "./mfa";

type MfaOptions = { attemptCode?: string; noRedirect?: boolean };

import * as oauth from "./oauth";
import * as oauthConsent from "./oauth-consent";
import * as passkeys from "./passkeys";
import * as payments from "./payments";
import { type PurchaseCodeDetails, purchaseCodeFromJson } from "./payments-shapes";
import * as sso from "./sso";
import * as ssoManagement from "./sso-management";
import * as teams from "./teams";
import type {
  CheckoutSessionJson,
  ProjectClientJson,
  SignInTokensJson,
  TestModePurchaseJson,
  TokensJson,
  ValidatedCodeJson,
} from "./wire-types";

export type { ClientAppOptions } from "./app-core";
export type GetUserOptions = { or?: "redirect" | "throw" | "anonymous" | "return-null"; includeRestricted?: boolean };
export type CredentialOptions = { email: string; password: string; noRedirect?: boolean };

/**
 * The client app of a project, over the app core; `TAdminApp` is the type of the admin apps
 * its current user hands out for owned projects (built by `ownerAdminApp`).
 */
export class ClientAppBase<TAdminApp extends ProjectAdmin> extends AppCore {
  protected readonly redirector: Redirector;
  private anonymousSignUp: Promise<void> | null = null;
  /** The attempt code of a sign-in waiting for a device code (DEVICE_VERIFICATION_REQUIRED). */
  private deviceAttempt: string | null = null;

  constructor(
    options: ClientAppOptions,
    access: AccessLevel | undefined,
    private readonly ownerAdminApp: OwnerAdminAppFactory<TAdminApp>,
  ) {
    super(options, access);
    this.redirector = new Redirector(
      options.redirectMethod ?? (typeof window !== "undefined" ? "window" : "none"),
      // The hosted pages are the app's own handler pages, on Doorman's origin.
      [...(options.trustedOrigins ?? []), ...[hostedOrigin(options)].filter((o): o is string => o !== null)],
    );
  }

  private async signInWith(
    path: string,
    body: Record<string, unknown>,
    after: "signIn" | "signUp",
    noRedirect?: boolean,
    challenge?: BotChallengeAction,
  ): Promise<Result<undefined>> {
    if (!this._session.store.persistent) throw new Error("A persistent token store is required to sign in (tokenStore must not be null).");
    try {
      const send = (fields: BotChallengeFields) =>
        this._userRequest<TokensJson>(path, { body: { ...body, ...fields }, headers: deviceHeaders(this._device) });
      const tokens = challenge ? await withBotChallenge(this, challenge, send) : await send({});
      keepDeviceToken(this._device, tokens);
      this._session.setTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    } catch (error) {
      if (error instanceof KnownError) return this.firstFactorFailed(error, noRedirect);
      throw error;
    }
    await this._refreshUser();
    if (!noRedirect) await this.redirectAfterAuth(after);
    return ok(undefined);
  }

  /**
   * A failed first factor; for TOTP users, keep the attempt code and go to the mfa page. A new device
   * (DEVICE_VERIFICATION_REQUIRED) stays where it is: the attempt is kept for `verifyDeviceCode`.
   */
  private async firstFactorFailed(error: KnownError, noRedirect?: boolean): Promise<Result<undefined>> {
    this.deviceAttempt = deviceVerification.deviceAttemptOf(error)?.attemptCode ?? this.deviceAttempt;
    if (rememberMfaAttempt(error) && !noRedirect) await this.redirector.redirect(this.urls.mfa);
    return err(error);
  }

  /**
   * Doorman: finishes a password sign-in from a new device with the 6 characters emailed to the user
   * (after DEVICE_VERIFICATION_REQUIRED); the device is known from then on.
   *
   * @example
   * const first = await app.signInWithCredential({ email, password });
   * if (first.status === "error" && first.error.code === "DEVICE_VERIFICATION_REQUIRED") await app.verifyDeviceCode(typedCode);
   */
  async verifyDeviceCode(code: string, options: { attemptCode?: string; noRedirect?: boolean } = {}): Promise<Result<undefined>> {
    const attempt = options.attemptCode ?? this.deviceAttempt;
    if (!attempt) throw new Error("No sign-in is waiting for a device code (the attempt code is missing).");
    const result = await deviceVerification.verifyDeviceCode(this, attempt, code);
    if (result.status === "error") return result;
    this.deviceAttempt = null;
    if (!options.noRedirect) await this.redirectAfterAuth(result.data.isNewUser ? "signUp" : "signIn");
    return ok(undefined);
  }

  /**
   * Doorman: emails a new device code for the waiting sign-in (the last one stops working).
   *
   * @example
   * const sent = await app.resendDeviceCode();
   * if (sent.status === "ok") showSentTo(sent.data.sentTo);
   */
  async resendDeviceCode(options: { attemptCode?: string } = {}): Promise<Result<{ attemptCode: string; sentTo: string }>> {
    const attempt = options.attemptCode ?? this.deviceAttempt;
    if (!attempt) throw new Error("No sign-in is waiting for a device code (the attempt code is missing).");
    const result = await deviceVerification.resendDeviceCode(this, attempt);
    if (result.status === "ok") this.deviceAttempt = result.data.attemptCode;
    return result;
  }

  /**
   * Finishes a sign-in that asked for the second factor, with a 6-digit TOTP.
   *
   * @example
   * const result = await app.signInWithMfa("123456"); // the attempt code was kept by the first step
   */
  signInWithMfa(totp: string, options: MfaOptions = {}): Promise<Result<undefined>> {
    return this._finishMfa("sign-in", { type: "totp", totp }, options);
  }

  /**
   * Doorman: finishes a sign-in that asked for the second factor with one of the user's recovery codes (each works once).
   *
   * @example
   * await app.signInWithRecoveryCode("abcd-efgh-jkmn");
   */
  signInWithRecoveryCode(recoveryCode: string, options: MfaOptions = {}): Promise<Result<undefined>> {
    return this._finishMfa("sign-in", { type: "recovery_code", recovery_code: recoveryCode }, options);
  }

  /**
   * Doorman: when the project requires a second factor and the user has none, turns TOTP on with a
   * new secret and a first code from the user's app, and signs in. Returns the recovery codes (shown once).
   *
   * @example
   * const result = await app.enrollMfa(secret, "123456");
   * if (result.status === "ok") show(result.data);
   */
  enrollMfa(secret: Uint8Array, totp: string, options: MfaOptions = {}): Promise<Result<string[]>> {
    return this._finishMfa("enroll", { totp_secret_base64: bytesToBase64(secret), totp }, options);
  }

  /** The sign-in's second step; answers the recovery codes when the route made them (enrol), else undefined. */
  // biome-ignore lint/suspicious/noExplicitAny: one helper for Result<undefined> and Result<string[]>, to keep the core small.
  private async _finishMfa(path: string, body: Record<string, unknown>, options: MfaOptions): Promise<Result<any>> {
    const code = options.attemptCode ?? storedMfaAttempt();
    if (!code) throw new Error("No sign-in is waiting for a second factor (the attempt code is missing).");
    const result = await emailAuth.asResult(() =>
      this._http.request<SignInTokensJson & { recovery_codes?: string[] }>(`/auth/mfa/${path}`, { body: { ...body, code } }),
    );
    if (result.status === "error") return result;
    forgetMfaAttempt();
    this._session.setTokens({ accessToken: result.data.access_token, refreshToken: result.data.refresh_token });
    await this._refreshUser();
    if (!options.noRedirect) await this.redirectAfterAuth(result.data.is_new_user ? "signUp" : "signIn");
    return ok(result.data.recovery_codes);
  }

  /** Signs up with email and password (upgrading a current anonymous user in place). */
  signUpWithCredential(options: CredentialOptions & { verificationCallbackUrl?: string }): Promise<Result<undefined>> {
    const body: Record<string, unknown> = { email: options.email, password: options.password };
    const callback =
      options.verificationCallbackUrl ??
      (typeof window !== "undefined" ? new URL(this.urls.emailVerification, window.location.origin).toString() : undefined);
    if (callback) body.verification_callback_url = callback;
    return this.signInWith("/auth/password/sign-up", body, "signUp", options.noRedirect, "sign_up_with_credential");
  }

  /** Signs in with email and password; expected failures come back as `{status: "error"}`. */
  signInWithCredential(options: CredentialOptions): Promise<Result<undefined>> {
    const body = { email: options.email, password: options.password };
    return this.signInWith("/auth/password/sign-in", body, "signIn", options.noRedirect, "sign_in_with_credential");
  }

  /** Ends the session on the server (an already-dead session is fine), then forgets the tokens. */
  async signOut(options: { redirectUrl?: string } = {}): Promise<void> {
    if (!this._session.isKnownInvalid()) {
      try {
        await this._userRequest("/auth/sessions/current", { method: "DELETE" });
      } catch (error) {
        const ignorable =
          error instanceof KnownError && (error.is("REFRESH_TOKEN_ERROR") || error.code === "CANNOT_GET_OWN_USER_WITHOUT_USER");
        if (!ignorable) throw error;
      }
    }
    this._session.clear();
    this._forgetUser();
    await this.redirector.redirect(options.redirectUrl ?? this.urls.afterSignOut);
  }

  /**
   * The signed-in user. Signed out: `or: "redirect"` goes to sign-in, `"throw"` throws,
   * `"anonymous"` signs up anonymously, otherwise null. Anonymous users count as signed out
   * unless `or: "anonymous"`.
   */
  async getUser(options: GetUserOptions = {}): Promise<CurrentUserOf<TAdminApp> | null> {
    let json = await this._currentUserJson();
    if (json?.is_anonymous && options.or !== "anonymous") json = null;
    if (json?.is_restricted && !json.is_anonymous && !options.includeRestricted && options.or !== "anonymous") json = null;
    if (json) return makeCurrentUser(this, json, this.ownerAdminApp);
    switch (options.or) {
      case "redirect":
        await this.redirectToSignIn({ replace: true });
        return null;
      case "throw":
        throw new Error("User is not signed in but getUser was called with { or: 'throw' }");
      case "anonymous": {
        // At most one anonymous sign-up in flight per app.
        this.anonymousSignUp ??= this.signUpAnonymously().finally(() => {
          this.anonymousSignUp = null;
        });
        await this.anonymousSignUp;
        const user = await this._currentUserJson();
        if (!user) throw new Error("Anonymous sign-up did not produce a user");
        return makeCurrentUser(this, user, this.ownerAdminApp);
      }
      default:
        return null;
    }
  }

  private async signUpAnonymously(): Promise<void> {
    const tokens = await this._http.request<TokensJson>("/auth/anonymous/sign-up", { body: {} });
    this._session.setTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    await this._refreshUser();
  }

  /**
   * Emails a sign-in code and link (magic link / OTP). Keep the returned nonce: the code a person
   * types is the 6 characters from the email followed by it.
   *
   * @example
   * const sent = await app.sendMagicLinkEmail("ada@example.com");
   * if (sent.status === "ok") await app.signInWithMagicLink(typedOtp.toLowerCase() + sent.data.nonce);
   */
  sendMagicLinkEmail(email: string, options: { callbackUrl?: string } = {}): Promise<Result<{ nonce: string }>> {
    return emailAuth.sendMagicLinkEmail(this, email, options.callbackUrl ?? this.urls.magicLinkCallback);
  }

  /** Signs in with a code from the email (the link's code, or OTP + nonce), then redirects. */
  async signInWithMagicLink(code: string, options: { noRedirect?: boolean } = {}): Promise<Result<undefined>> {
    const result = await emailAuth.signInWithCode(this, code);
    if (result.status === "error") return this.firstFactorFailed(result.error, options.noRedirect);
    if (!options.noRedirect) await this.redirectAfterAuth(result.data.isNewUser ? "signUp" : "signIn");
    return ok(undefined);
  }

  /**
   * Redeems a one-time impersonation code (an owner's "Impersonate" link lands on the handler's
   * impersonate page with it) into an impersonation session of its user, then redirects like a sign-in.
   *
   * @example
   * await app.signInWithImpersonationCode(new URLSearchParams(location.hash.slice(1)).get("code")!);
   */
  signInWithImpersonationCode(code: string, options: { noRedirect?: boolean } = {}): Promise<Result<undefined>> {
    return this.signInWith("/auth/impersonation/redeem", { code: code.toLowerCase() }, "signIn", options.noRedirect);
  }

  /** Checks a sign-in link's code without using it (to ask for a click before signing in). */
  checkMagicLinkCode(code: string): Promise<Result<undefined>> {
    return emailAuth.checkSignInCode(this, code);
  }

  /** Emails a password-reset link (the answer is the same whether or not the address has an account). */
  sendForgotPasswordEmail(email: string, options: { callbackUrl?: string } = {}): Promise<Result<undefined>> {
    return emailAuth.sendForgotPasswordEmail(this, email, options.callbackUrl ?? this.urls.passwordReset);
  }

  /** Checks a reset code without using it (to show "this link has expired" before asking for a password). */
  verifyPasswordResetCode(code: string): Promise<Result<undefined>> {
    return emailAuth.verifyPasswordResetCode(this, code);
  }

  /** Sets a new password with a reset code; every session of the user ends. */
  resetPassword(options: { code: string; password: string }): Promise<Result<undefined>> {
    return emailAuth.resetPassword(this, options.code, options.password);
  }

  /** Checks an email-verification code without using it (to ask for a click before verifying). */
  checkEmailVerificationCode(code: string): Promise<Result<undefined>> {
    return emailAuth.checkEmailVerificationCode(this, code);
  }

  /** Verifies an email address with the code from its verification link. */
  verifyEmail(code: string): Promise<Result<undefined>> {
    return emailAuth.verifyEmail(this, code);
  }

  /** The project's public configuration (GET /projects/current). */
  async getProject(): Promise<{ id: string; displayName: string; config: Record<string, unknown> }> {
    const json = await this._http.request<ProjectClientJson>("/projects/current");
    return { id: json.id, displayName: json.display_name, config: json.config };
  }

  /** @internal */
  async redirectAfterAuth(kind: "signIn" | "signUp"): Promise<void> {
    if (await this.handOffSession()) return;
    const returnTo = returnToFromLocation();
    await this.redirector.redirect(returnTo ?? (kind === "signUp" ? this.urls.afterSignUp : this.urls.afterSignIn));
  }

  /**
   * On a (hosted) handler page whose address carries a session handoff request from an app on
   * another origin: hands the signed-in session to that app and navigates there (true). False
   * when there is no request or nobody is signed in; a refused handoff (an untrusted return URL)
   * is a warning and false, so the page returns without a session as before.
   *
   * @example
   * if (!(await app.handOffSession())) showSignedInCard();
   */
  handOffSession(options: { href?: string } = {}): Promise<boolean> {
    // One handoff at a time: the signed-in card and a finishing sign-in may both ask.
    this.handingOff ??= this.handOffOnce(options.href).finally(() => {
      this.handingOff = null;
    });
    return this.handingOff;
  }
  private handingOff: Promise<boolean> | null = null;
  private async handOffOnce(hrefOption: string | undefined): Promise<boolean> {
    const href = hrefOption ?? (typeof window !== "undefined" ? window.location.href : undefined);
    const request = href ? hostedHandoff.handoffRequestOf(href) : null;
    if (!request || !this._session.tokens().refreshToken) return false;
    let location: string;
    try {
      location = await hostedHandoff.handOff(this, request);
    } catch (error) {
      if (!(error instanceof KnownError)) throw error;
      console.warn(`Session handoff refused (${error.code}); returning without it.`);
      return false;
    }
    // The worker checked the return URL against the project's trusted domains; it is this page's return target.
    await new Redirector(this._options.redirectMethod ?? (typeof window !== "undefined" ? "window" : "none"), [
      new URL(location).origin,
    ]).redirect(location, { replace: true });
    return true;
  }

  /** Goes to sign-in, remembering the current page in `after_auth_return_to` (with `hostedPages`, asking for the session back). */
  redirectToSignIn(options: { replace?: boolean } = {}): Promise<void> {
    return this.redirectToAuthPage(this.urls.signIn, options);
  }
  redirectToSignUp(options: { replace?: boolean } = {}): Promise<void> {
    return this.redirectToAuthPage(this.urls.signUp, options);
  }
  private async redirectToAuthPage(page: string, options: { replace?: boolean }): Promise<void> {
    let target = withReturnTo(page);
    // The hosted pages' session lives on their origin: ask them to hand it back (hosted-handoff.ts).
    if (this._options.hostedPages && this._session.store.persistent && typeof window !== "undefined") {
      target = await hostedHandoff.withHandoffRequest(this, target);
    }
    return this.redirector.redirect(target, options);
  }

  /**
   * `hostedPages` apps: signs in with the session the hosted pages handed back, when the address
   * carries one (`stack_cross_domain_auth`, `code`, `state`), and removes those from the address.
   * ok(true): signed in; ok(false): nothing to do; an error: OUTER_OAUTH_TIMEOUT (a state this
   * browser did not start, or older than an hour) or INVALID_AUTHORIZATION_CODE (a used or expired
   * code), with no session. StackProvider/useUser call it on their own when `hostedPages` is set.
   *
   * @example
   * const result = await app.callHostedPagesCallback();
   * if (result.status === "ok" && result.data) console.log("signed in");
   */
  async callHostedPagesCallback(options: { href?: string } = {}): Promise<Result<boolean>> {
    const href = options.href ?? (typeof window !== "undefined" ? window.location.href : undefined);
    if (!href) throw new Error("callHostedPagesCallback needs the page's URL (href) outside a browser.");
    const outcome = await hostedHandoff.finishHandoff(this, href);
    if (outcome.status === "error") return err(outcome.error);
    return ok(outcome.status === "ok");
  }

  private hostedCallback: Promise<void> | null = null;
  /** @internal React: this page load's handoff, once (a no-op unless `hostedPages` and the address carries one). */
  _hostedPagesCallbackOnce(): Promise<void> {
    this.hostedCallback ??= (async () => {
      if (!this._options.hostedPages || typeof window === "undefined") return;
      const result = await this.callHostedPagesCallback();
      if (result.status === "error") console.warn(`Hosted pages sign-in handoff failed: ${result.error.code}`);
    })();
    return this.hostedCallback;
  }
  /** Goes to sign-out; on the hosted pages (`hostedPages`), it comes back to the current page after. */
  redirectToSignOut(): Promise<void> {
    return this.redirector.redirect(this.hostedReturn(this.urls.signOut));
  }
  /** Goes to account settings; on the hosted pages (`hostedPages`), its "back" leads to the current page. */
  redirectToAccountSettings(): Promise<void> {
    return this.redirector.redirect(this.hostedReturn(this.urls.accountSettings));
  }
  /** A hosted page on another origin has no other way back than `after_auth_return_to`. */
  private hostedReturn(target: string): string {
    return this._options.hostedPages ? withReturnTo(target) : target;
  }
  redirectToHome(): Promise<void> {
    return this.redirector.redirect(this.urls.home);
  }
  redirectToAfterSignIn(): Promise<void> {
    return this.redirectAfterAuth("signIn");
  }
  redirectToAfterSignOut(): Promise<void> {
    return this.redirector.redirect(this.urls.afterSignOut);
  }
  // --- oauth ---
  /**
   * Signs in (or up) with an OAuth provider: the browser goes to the provider and comes back to
   * the oauth-callback page, which calls `callOAuthCallback()`. A current anonymous user is
   * upgraded in place.
   *
   * @example
   * await app.signInWithOAuth("github"); // navigates away
   */
  async signInWithOAuth(provider: string, options: Omit<oauth.OAuthStartOptions, "type"> = {}): Promise<void> {
    if (!this._session.store.persistent) throw new Error("A persistent token store is required to sign in (tokenStore must not be null).");
    await this._startOAuth(provider, {
      ...options,
      afterCallbackRedirectUrl: options.afterCallbackRedirectUrl ?? this.returnAfterProvider(),
    });
  }
  /** Where a redirect sign-in (OAuth, SSO) comes back to after its provider, unless the caller says. */
  private returnAfterProvider(): string | undefined {
    const here = typeof window !== "undefined" ? window.location.href : null;
    // A page asked to hand the session to an app: come back here after the provider, to hand it over then.
    return (here && hostedHandoff.handoffRequestOf(here) ? here : returnToFromLocation()) ?? undefined;
  }

  // --- enterprise SSO (issue 31) ---
  /**
   * Signs in with the organization's own identity provider (enterprise SSO): by a work email whose
   * domain a team verified, or by the connection's id. The browser goes to the identity provider and
   * comes back to the oauth-callback page, which calls `callOAuthCallback()`, as for OAuth. An email
   * no organization set up SSO for rejects with SSO_NOT_CONFIGURED_FOR_EMAIL (see `lookupSso`).
   *
   * @example
   * await app.signInWithSso({ email: "ada@example.com" }); // navigates away
   */
  async signInWithSso(target: sso.SsoTarget, options: sso.SsoStartOptions = {}): Promise<void> {
    if (!this._session.store.persistent) throw new Error("A persistent token store is required to sign in (tokenStore must not be null).");
    const afterCallbackRedirectUrl = options.afterCallbackRedirectUrl ?? this.returnAfterProvider();
    await oauth.navigateToProvider(this, await sso.startSso(this, target, { ...options, afterCallbackRedirectUrl }));
  }
  /**
   * Does this email sign in with enterprise SSO? `connectionId` is set when its domain is verified by a
   * team with an SSO connection; `enforced` when that organization refuses every other sign-in method.
   *
   * @example
   * const { connectionId, enforced } = await app.lookupSso("ada@example.com");
   */
  lookupSso(email: string): Promise<sso.SsoLookup> {
    return sso.lookupSso(this, email);
  }

  /** @internal Starts an OAuth flow (sign-in or link) and navigates to the provider. */
  async _startOAuth(provider: string, options: oauth.OAuthStartOptions): Promise<void> {
    await oauth.navigateToProvider(this, await oauth.startOAuth(this, provider, options));
  }

  /**
   * The oauth-callback page's work: exchanges `code` for tokens when `state` matches a flow this
   * browser started, strips `code` and `state` from the address, then redirects (after-callback
   * URL, else after-sign-up / after-sign-in). Returns false, with a warning, when the address or
   * the stored state is missing. TOTP users go on to the mfa page.
   *
   * @example
   * useEffect(() => void app.callOAuthCallback(), []);
   */
  async callOAuthCallback(options: { href?: string; noRedirect?: boolean } = {}): Promise<boolean> {
    const href = options.href ?? (typeof window !== "undefined" ? window.location.href : undefined);
    if (!href) throw new Error("callOAuthCallback needs the callback page's URL (href) outside a browser.");
    const outcome = await oauth.finishOAuthCallback(this, href);
    if (outcome.status === "ignored") return false;
    if (outcome.status === "error") {
      if (rememberMfaAttempt(outcome.error)) {
        if (!options.noRedirect) await this.redirector.redirect(this.urls.mfa, { replace: true });
        return false;
      }
      if (outcome.error.code === "INVALID_TOTP_CODE") {
        globalThis.alert?.("Invalid TOTP code. Please try signing in again.");
        return false;
      }
      throw new Error("Error signing in during OAuth callback. Please try again.", { cause: outcome.error });
    }
    if (!options.noRedirect) {
      if (outcome.afterCallbackRedirectUrl) await this.redirector.redirect(outcome.afterCallbackRedirectUrl, { replace: true });
      else await this.redirectAfterAuth(outcome.isNewUser ? "signUp" : "signIn");
    }
    return true;
  }
  // --- passkeys ---
  /**
   * Signs in with a passkey (the browser offers the ones saved for this site), then redirects
   * like `signInWithCredential`. TOTP users go on to the mfa page.
   *
   * @example
   * const result = await app.signInWithPasskey();
   * if (result.status === "error") console.log(result.error.code); // e.g. PASSKEY_WEBAUTHN_ERROR
   */
  async signInWithPasskey(options: { noRedirect?: boolean } = {}): Promise<Result<undefined>> {
    const result = await passkeys.signInWithPasskey(this);
    if (result.status === "error") return this.firstFactorFailed(result.error, options.noRedirect);
    if (!options.noRedirect) await this.redirectAfterAuth("signIn");
    return ok(undefined);
  }
  // --- cli ---
  /**
   * Confirms a CLI login (the `login_code` of /handler/cli-auth-confirm) as the signed-in user;
   * the waiting CLI then receives a new session of this user.
   *
   * @example
   * const result = await app.confirmCliLogin(new URLSearchParams(location.search).get("login_code")!);
   * if (result.status === "error") console.log(result.error.message); // e.g. the login has expired
   */
  confirmCliLogin(loginCode: string): Promise<Result<undefined>> {
    return cli.confirmCliLogin(this, loginCode);
  }
  /** Whether the CLI behind a login code holds an anonymous session ("anonymous") or not ("none"). */
  checkCliLogin(loginCode: string): Promise<Result<cli.CliSessionState>> {
    return cli.checkCliLogin(this, loginCode);
  }
  /** Signs this browser in as the CLI's anonymous user (once per login), to upgrade it by signing up. */
  claimCliAnonymousSession(loginCode: string): Promise<Result<undefined>> {
    return cli.claimCliAnonymousSession(this, loginCode);
  }
  // --- enterprise SSO setup links (issue 31) ---
  /**
   * Opens an SSO setup link's token (the `#token=` of the link a team's admin made for the team's IT
   * admin): the team, until when, and its SSO to manage through the token, without an account.
   *
   * @example
   * const link = await app.openSsoSetupLink(new URLSearchParams(location.hash.slice(1)).get("token")!);
   * await link.sso.createConnection({ protocol: "oidc", displayName: "Entra ID" });
   */
  openSsoSetupLink(token: string): Promise<ssoManagement.SsoSetupLink> {
    return ssoManagement.openSsoSetupLink((path, options) => this._http.request(path, options), token);
  }
  // --- oauth-consent ---
  /**
   * Doorman: a third-party app's pending authorization request (the oauth-consent page's
   * `request_id`), as the signed-in user sees it: the app, the scopes, the user's teams when the app
   * asks for one, and whether it may be approved at once.
   *
   * @example
   * const request = await app.getOAuthAuthorizationRequest(new URLSearchParams(location.search).get("request_id")!);
   * if (request.status === "ok" && !request.data.consentRequired) await app.approveOAuthAuthorizationRequest(request.data.id);
   */
  getOAuthAuthorizationRequest(requestId: string): Promise<Result<oauthConsent.OAuthAuthorizationRequest>> {
    return oauthConsent.getAuthorizationRequest(this, requestId);
  }
  /**
   * Doorman: lets the app in (with one of the user's teams when it asked for one); send the browser to `redirectUrl`.
   *
   * @example
   * const answer = await app.approveOAuthAuthorizationRequest(requestId, { teamId });
   * if (answer.status === "ok") window.location.assign(answer.data.redirectUrl);
   */
  approveOAuthAuthorizationRequest(requestId: string, options: { teamId?: string } = {}): Promise<Result<{ redirectUrl: string }>> {
    return oauthConsent.answerAuthorizationRequest(this, requestId, "approve", options.teamId ? { team_id: options.teamId } : {});
  }
  /**
   * Doorman: refuses the app (`error` access_denied by default; login_required etc. for prompt=none); send the browser to `redirectUrl`.
   *
   * @example
   * const answer = await app.denyOAuthAuthorizationRequest(requestId);
   */
  denyOAuthAuthorizationRequest(
    requestId: string,
    options: { error?: oauthConsent.OAuthDenyError } = {},
  ): Promise<Result<{ redirectUrl: string }>> {
    return oauthConsent.answerAuthorizationRequest(this, requestId, "deny", options.error ? { error: options.error } : {});
  }
  // --- teams ---
  /**
   * Joins the team of an invitation code (from the team-invitation link); single use.
   *
   * @example
   * const result = await app.acceptTeamInvitation(new URLSearchParams(location.search).get("code")!);
   */
  acceptTeamInvitation(code: string): Promise<Result<undefined>> {
    return teams.acceptTeamInvitation(this, code);
  }
  /** The team an invitation code is for (needs a signed-in user), without using the code. */
  getTeamInvitationDetails(code: string): Promise<Result<{ teamId: string; teamDisplayName: string }>> {
    return teams.getTeamInvitationDetails(this, code);
  }
  /** Checks an invitation code without using it. */
  verifyTeamInvitationCode(code: string): Promise<Result<undefined>> {
    return teams.verifyTeamInvitationCode(this, code);
  }
  /** @internal For React hooks: called whenever the cached team list of the user changes. */
  _subscribeTeams(callback: () => void): () => void {
    return teams.subscribeTeams(this, callback);
  }
  // --- payments ---
  /**
   * An item of a customer the signed-in user may read (the user, or one of the user's teams);
   * others are refused by the server.
   *
   * @example
   * const seats = await app.getItem({ teamId, itemId: "seats" });
   */
  getItem(options: payments.CustomerSelector & { itemId: string }): Promise<payments.Item> {
    return payments.clientCustomerMethods(payments.clientContext(this), payments.targetOf(options)).getItem(options.itemId);
  }
  /** React: an item of the user or one of its teams, kept up to date (needs the SDK's React entry). */
  useItem(options: payments.CustomerSelector & { itemId: string }): payments.Item {
    return payments.clientCustomerMethods(payments.clientContext(this), payments.targetOf(options)).useItem(options.itemId);
  }
  /**
   * The purchase page's first read: what a purchase code (from a checkout URL) is for. No sign-in needed.
   *
   * @example
   * const details = await app.validatePurchaseCode(params.code);
   * console.log(details.offer.displayName, details.testMode);
   */
  async validatePurchaseCode(fullCode: string, options: { returnUrl?: string } = {}): Promise<PurchaseCodeDetails> {
    const body: Record<string, unknown> = { full_code: fullCode };
    if (options.returnUrl !== undefined) body.return_url = options.returnUrl;
    return purchaseCodeFromJson(await this._http.request<ValidatedCodeJson>("/payments/purchases/validate-code", { body }));
  }
  /**
   * Test mode: completes the purchase with the test card (4242 4242 4242 4242), granting the
   * offer's items exactly as a paid checkout would.
   *
   * @example
   * await app.completeTestModePurchase({ fullCode, priceId: "monthly", cardNumber: "4242424242424242" });
   */
  async completeTestModePurchase(options: {
    fullCode: string;
    priceId: string;
    quantity?: number;
    cardNumber: string;
  }): Promise<{ purchaseId: string }> {
    const body: Record<string, unknown> = { full_code: options.fullCode, price_id: options.priceId, card_number: options.cardNumber };
    if (options.quantity !== undefined) body.quantity = options.quantity;
    const json = await this._http.request<TestModePurchaseJson>("/payments/purchases/test-mode-purchase", { body });
    return { purchaseId: json.purchase_id };
  }
  /**
   * Live mode: starts the Stripe checkout for a purchase code and price; send the customer to `url`.
   *
   * @example
   * const { url } = await app.createPurchaseSession({ fullCode, priceId: "monthly" });
   * window.location.href = url;
   */
  async createPurchaseSession(options: {
    fullCode: string;
    priceId: string;
    quantity?: number;
  }): Promise<{ url: string; clientSecret: string | null }> {
    const body: Record<string, unknown> = { full_code: options.fullCode, price_id: options.priceId };
    if (options.quantity !== undefined) body.quantity = options.quantity;
    const json = await this._http.request<CheckoutSessionJson>("/payments/purchases/checkout-session", { body });
    return { url: json.url, clientSecret: json.client_secret };
  }
}
