/**
 * Plain words for the "Recent activity" list: what happened, on which device (a short read of the
 * user agent, no parser library), where (the country's name in the reader's language) and when,
 * in the reader's language (`t`, English by default; Intl for countries and times).
 */

import type { UserActivityType } from "../../shared/activity-types";
import { deviceParts } from "../../shared/device-name";
import { PROVIDER_NAMES } from "../../shared/oauth-providers";
import type { MessageKey } from "../i18n/en";
import { englishT, type Translate } from "../i18n/translator";

export type ActivityEntry = { type: UserActivityType; data: Record<string, unknown> | null };

function providerName(id: unknown): string | null {
  if (typeof id !== "string" || !id) return null;
  return (PROVIDER_NAMES as Record<string, string>)[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}

const SIGN_IN_METHODS: Record<string, MessageKey> = {
  password: "activity.method.password",
  otp: "activity.method.otp",
  passkey: "activity.method.passkey",
  anonymous: "activity.method.anonymous",
  cli: "activity.method.cli",
  sso: "activity.method.sso",
};

function signInMethod(data: Record<string, unknown> | null, t: Translate): string {
  const method = data?.method;
  if (method === "oauth") return providerName(data?.provider) ?? t("activity.method.external");
  const key = typeof method === "string" ? SIGN_IN_METHODS[method] : undefined;
  return key ? t(key) : "";
}

const FAILURE_REASONS: Record<string, MessageKey> = {
  EMAIL_PASSWORD_MISMATCH: "activity.reason.password",
  INVALID_TOTP_CODE: "activity.reason.totp",
  PASSKEY_AUTHENTICATION_FAILED: "activity.reason.passkey",
};

/** What happened, in a sentence: "Signed in with password", "Passkey added", … */
export function activityLabel({ type, data }: ActivityEntry, t: Translate = englishT): string {
  switch (type) {
    case "sign_in.succeeded": {
      if (data?.method === "server") return t("activity.signedInByApp");
      const method = signInMethod(data, t);
      if (data?.mfa === true) return method ? t("activity.signedInWithMfa", { method }) : t("activity.signedInMfa");
      return method ? t("activity.signedInWith", { method }) : t("activity.signedIn");
    }
    case "sign_in.failed": {
      const reason = typeof data?.reason === "string" ? FAILURE_REASONS[data.reason] : undefined;
      return reason ? t("activity.failedReason", { reason: t(reason) }) : t("activity.failed");
    }
    case "sign_out":
      return t("activity.signedOut");
    case "session.revoked":
      return t("activity.sessionRevoked");
    case "session.token_reused":
      return t("activity.tokenReused");
    case "password.changed":
      return data?.removed === true ? t("activity.passwordRemoved") : t("activity.passwordChanged");
    case "password.reset":
      return t("activity.passwordReset");
    case "email.verified":
      return t("activity.emailVerified");
    case "mfa.enrolled":
      return t("activity.mfaEnrolled");
    case "mfa.removed":
      return t("activity.mfaRemoved");
    case "mfa.recovery_codes_generated":
      return t("activity.recoveryCodesGenerated");
    case "mfa.recovery_code_used":
      return typeof data?.remaining === "number"
        ? t("activity.recoveryCodeUsed", { remaining: data.remaining })
        : t("activity.recoveryCodeUsedUnknown");
    case "sign_in.locked_out":
      return t("activity.lockedOut");
    case "passkey.added":
      return t("activity.passkeyAdded");
    case "oauth_account.linked": {
      const provider = providerName(data?.provider);
      return provider ? t("activity.oauthLinked", { provider }) : t("activity.oauthLinkedUnknown");
    }
    case "api_key.created":
      return t("activity.apiKeyCreated");
    case "api_key.revoked":
      return t("activity.apiKeyRevoked");
    case "device.verification_required":
      return t("activity.deviceCodeSent");
    case "device.verification_succeeded":
      return t("activity.deviceVerified");
    case "device.verification_failed":
      return t("activity.deviceCodeFailed");
    case "device.added":
      return t("activity.deviceAdded");
    // The OpenID provider (issue 30): the app by the name it had then (its id when it had none).
    case "oauth_app.authorized":
      return t("activity.appAuthorized", { app: appName(data) });
    case "oauth_app.revoked":
      return t("activity.appRevoked", { app: appName(data) });
    case "oauth_token.revoked":
      return data?.reason === "client" ? t("activity.appTokenRevoked") : t("activity.appTokenReused");
  }
}

function appName(data: Record<string, unknown> | null): string {
  return String(data?.client_name ?? data?.client_id ?? "");
}

/** Events that may mean someone else is trying the account: shown with a warning. */
export function isWarning(type: UserActivityType, data: Record<string, unknown> | null = null): boolean {
  return (
    type === "sign_in.failed" ||
    type === "session.token_reused" ||
    type === "sign_in.locked_out" ||
    type === "device.verification_failed" ||
    // A replayed refresh token or code of an app: someone may hold a copy of it.
    (type === "oauth_token.revoked" && data?.reason !== "client")
  );
}

/** "Chrome on macOS" (in the reader's language), "Firefox", "Android", or null (the shared parser, also used by the console). */
export function deviceOf(userAgent: string | null, t: Translate = englishT): string | null {
  const { browser, system } = deviceParts(userAgent);
  if (browser && system) return t("activity.deviceOn", { browser, system });
  return browser ?? system ?? null;
}

/** The country's name in the reader's language ("Germany" for DE), or the code where the runtime has no name for it. */
export function countryName(code: string | null, locale?: string): string | null {
  if (!code || !/^[A-Z]{2}$/.test(code)) return null;
  try {
    return new Intl.DisplayNames(locale ? [locale] : undefined, { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago". */
export function relativeTime(date: Date, now: number, locale?: string, t: Translate = englishT): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return t("activity.justNow");
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds / 60) || -1, "minute");
}
