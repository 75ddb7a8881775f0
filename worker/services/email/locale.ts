/**
 * Which language a built-in email is written in. The request that causes the email (sign-up
 * verification, sign-in code, reset, invitation, …) carries its reader's languages in
 * Accept-Language: browsers send it on every fetch, and an app that picks a locale itself sets it
 * through the SDK. The best supported locale is stored on the outbox row; none (no header, `*`, only
 * unsupported languages) leaves it empty, and the email is written in the project's default
 * (`doorman.emails.defaultLocale`, English unless set) when it is sent.
 */

/** The locales the built-in emails come in (the React components use the same list). */
export const EMAIL_LOCALES = ["en", "de", "es", "fr", "it", "pt-BR", "nl", "pl", "tr", "ja", "ko", "zh-CN", "ar"] as const;
export type EmailLocale = (typeof EMAIL_LOCALES)[number];
export const DEFAULT_EMAIL_LOCALE: EmailLocale = "en";

export const isEmailLocale = (v: unknown): v is EmailLocale => typeof v === "string" && (EMAIL_LOCALES as readonly string[]).includes(v);

/** Locales written right to left. */
const RIGHT_TO_LEFT: ReadonlySet<EmailLocale> = new Set(["ar"]);
export const textDirection = (locale: EmailLocale): "ltr" | "rtl" => (RIGHT_TO_LEFT.has(locale) ? "rtl" : "ltr");

/** A supported locale by its lower-cased tag ("pt-br" → "pt-BR"), and by its language alone. */
const BY_TAG = new Map(EMAIL_LOCALES.map((l) => [l.toLowerCase(), l]));
const BY_LANGUAGE = new Map<string, EmailLocale>(EMAIL_LOCALES.map((l) => [l.split("-")[0]!.toLowerCase(), l]));
/**
 * Chinese in Traditional script (zh-Hant, and Taiwan, Hong Kong and Macao without a script) is not
 * given Simplified Chinese: a reader who also takes Simplified lists `zh` or `zh-CN` after it, and
 * otherwise their next language (or the project's default) reads better than the other script.
 */
const TRADITIONAL_CHINESE_REGIONS = new Set(["tw", "hk", "mo"]);

/** At most this much of the header is read (a browser sends well under 200 characters). */
const MAX_HEADER = 1024;
const MAX_RANGES = 32;

/** The ranges of an Accept-Language header, by quality (highest first, ties in their order), without q=0 and `*`. */
function ranges(header: string): string[] {
  const out: { tag: string; q: number; i: number }[] = [];
  for (const [i, part] of header.slice(0, MAX_HEADER).split(",").slice(0, MAX_RANGES).entries()) {
    const [tag = "", ...params] = part.trim().split(";");
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    const t = tag.trim().toLowerCase();
    if (!/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(t) || !(q > 0)) continue;
    out.push({ tag: t, q, i });
  }
  return out.sort((a, b) => b.q - a.q || a.i - b.i).map((r) => r.tag);
}

/** The supported locale for one language range, or null: exact tag first, then the language alone. */
function matchRange(tag: string): EmailLocale | null {
  const exact = BY_TAG.get(tag);
  if (exact) return exact;
  const [language, ...rest] = tag.split("-");
  if (language === "zh") {
    const traditional = rest.some((s) => s === "hant" || TRADITIONAL_CHINESE_REGIONS.has(s)) && !rest.includes("hans");
    return traditional ? null : "zh-CN";
  }
  return BY_LANGUAGE.get(language!) ?? null;
}

/**
 * The best supported locale for an Accept-Language header (RFC 9110 §12.5.4, lookup by quality):
 * `de-AT` → de, `pt` and `pt-PT` → pt-BR (the one Portuguese), `zh`, `zh-Hans`, `zh-SG` → zh-CN,
 * `zh-TW`/`zh-HK`/`zh-Hant` → none by themselves; null when nothing matches.
 */
export function pickEmailLocale(acceptLanguage: string | null | undefined): EmailLocale | null {
  if (!acceptLanguage) return null;
  for (const tag of ranges(acceptLanguage)) {
    const locale = matchRange(tag);
    if (locale) return locale;
  }
  return null;
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
