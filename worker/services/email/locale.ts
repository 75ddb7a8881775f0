/**
 * Which language a built-in email is written in. The request that causes the email (sign-up
 * verification, sign-in code, reset, invitation, …) carries its reader's languages in
 * Accept-Language: browsers send it on every fetch, and a back end can forward its user's. The best supported locale is stored on the outbox row; none (no header, `*`, only
 * unsupported languages) leaves it empty, and the email is written in the project's default
 * (`doorman.emails.defaultLocale`, English unless set) when it is sent.
 */

import { localeDirection, matchLocale, parseAcceptLanguage, SDK_LOCALES } from "@doorman/shared/locales";

/** The locales the built-in emails come in: the React components' list (one list, one matching rule). */
export const EMAIL_LOCALES = SDK_LOCALES;
export type EmailLocale = (typeof EMAIL_LOCALES)[number];
export const DEFAULT_EMAIL_LOCALE: EmailLocale = "en";

export const isEmailLocale = (v: unknown): v is EmailLocale => typeof v === "string" && (EMAIL_LOCALES as readonly string[]).includes(v);

export const textDirection = (locale: EmailLocale): "ltr" | "rtl" => localeDirection(locale);

/**
 * The best supported locale for an Accept-Language header (RFC 9110 §12.5.4, lookup by quality; the
 * rule of @doorman/shared/locales): `de-AT` → de, `pt` and `pt-PT` → pt-BR (the one Portuguese), `zh`,
 * `zh-Hans`, `zh-SG` → zh-CN, `zh-TW`/`zh-HK`/`zh-Hant` → none by themselves; null when nothing matches
 * (the project's default then applies).
 */
export function pickEmailLocale(acceptLanguage: string | null | undefined): EmailLocale | null {
  return matchLocale(parseAcceptLanguage(acceptLanguage), EMAIL_LOCALES) as EmailLocale | null;
}

/** How the notices store a time: "2025-01-01 12:00 UTC". */
const UTC_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) UTC$/;

/**
 * A notice's time ("2025-01-01 12:00 UTC") written for the locale's reader with Intl, still in UTC and
 * saying so ("1. Jan. 2025, 12:00 UTC", "2025年1月1日 12:00 UTC"); any other text comes back as it is.
 */
export function localizedUtcTime(value: string, locale: EmailLocale): string {
  const m = UTC_TIME.exec(value);
  if (!m) return value;
  const at = new Date(`${m[1]}T${m[2]}:00Z`);
  if (Number.isNaN(at.getTime())) return value;
  const format = new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  });
  return format.format(at);
}
