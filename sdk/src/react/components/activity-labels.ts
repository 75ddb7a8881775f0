/**
 * Plain words for the "Recent activity" list: what happened, on which device (a short read of the
 * user agent, no parser library), where (the country's name in the reader's language) and when.
 */
import type { UserActivityType } from "../../shared/activity-types";
import { PROVIDER_NAMES } from "../../shared/oauth-providers";

export type ActivityEntry = { type: UserActivityType; data: Record<string, unknown> | null };

function providerName(id: unknown): string {
  if (typeof id !== "string" || !id) return "an external";
  return (PROVIDER_NAMES as Record<string, string>)[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}

const SIGN_IN_METHODS: Record<string, string> = {
  password: "password",
  otp: "a one-time code",
  passkey: "a passkey",
  anonymous: "a guest account",
  cli: "the command line",
};

function signInMethod(data: Record<string, unknown> | null): string {
  const method = data?.method;
  if (method === "oauth") return providerName(data?.provider);
  return typeof method === "string" ? (SIGN_IN_METHODS[method] ?? "") : "";
}

const FAILURE_REASONS: Record<string, string> = {
  EMAIL_PASSWORD_MISMATCH: "wrong password",
  INVALID_TOTP_CODE: "wrong two-factor code",
  PASSKEY_AUTHENTICATION_FAILED: "passkey not accepted",
};

/** What happened, in a sentence: "Signed in with password", "Passkey added", … */
export function activityLabel({ type, data }: ActivityEntry): string {
  switch (type) {
    case "sign_in.succeeded": {
      if (data?.method === "server") return "Signed in by the app";
      const method = signInMethod(data);
      const how = method ? `Signed in with ${method}` : "Signed in";
      return data?.mfa === true ? `${how} and a two-factor code` : how;
    }
    case "sign_in.failed": {
      const reason = typeof data?.reason === "string" ? FAILURE_REASONS[data.reason] : undefined;
      return reason ? `Failed sign-in attempt (${reason})` : "Failed sign-in attempt";
    }
    case "sign_out":
      return "Signed out";
    case "session.revoked":
      return "Session revoked";
    case "session.token_reused":
      return "Someone reused an old sign-in token — that session was ended";
    case "password.changed":
      return data?.removed === true ? "Password removed" : "Password changed";
    case "password.reset":
      return "Password reset";
    case "email.verified":
      return "Email verified";
    case "mfa.enrolled":
      return "Two-factor authentication turned on";
    case "mfa.removed":
      return "Two-factor authentication turned off";
    case "mfa.recovery_codes_generated":
      return "New recovery codes made";
    case "mfa.recovery_code_used":
      return `Recovery code used (${typeof data?.remaining === "number" ? data.remaining : "?"} left)`;
    case "sign_in.locked_out":
      return "Password sign-in locked for an hour after too many wrong passwords";
    case "passkey.added":
      return "Passkey added";
    case "oauth_account.linked":
      return `${providerName(data?.provider)} account linked`;
    case "api_key.created":
      return "API key created";
    case "api_key.revoked":
      return "API key revoked";
  }
}

/** Events that may mean someone else is trying the account: shown with a warning. */
export function isWarning(type: UserActivityType): boolean {
  return type === "sign_in.failed" || type === "session.token_reused" || type === "sign_in.locked_out";
}

/** "Chrome on macOS", "Firefox", "Android", or null (the shared parser, also used by the console). */
export { deviceName as deviceOf } from "../../shared/device-name";

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
export function relativeTime(date: Date, now: number, locale?: string): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds / 60) || -1, "minute");
}
