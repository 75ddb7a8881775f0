/**
 * Which of the available locales to use for what the reader asked for (the app's `locale`, or
 * the browser's `navigator.languages`, or a request's Accept-Language), and its text direction.
 *
 * The rule, per requested tag in order of preference: the same tag ("pt-BR"), else the same
 * language ("de-AT" → "de", "pt-PT" → "pt-BR": Portuguese readers get Brazilian Portuguese rather
 * than English), else the next requested tag; English when none matches. Chinese in the
 * traditional script (zh-TW, zh-HK, zh-MO, zh-Hant) does not fall back to zh-CN (simplified).
 * Shared by the React components (the app's or the browser's locale) and the worker (the language of
 * a built-in email, from the causing request's Accept-Language): one list, one rule.
 */

/** The locales the SDK ships and the built-in emails come in (the web app's hosted pages offer all of them). */
export const SDK_LOCALES = ["en", "de", "es", "fr", "it", "pt-BR", "nl", "pl", "tr", "ja", "ko", "zh-CN", "ar"] as const;
export type SdkLocale = (typeof SDK_LOCALES)[number];

export const DEFAULT_LOCALE = "en";

const RTL_LANGUAGES = new Set(["ar", "he", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb"]);
const TRADITIONAL_CHINESE = /^zh-(hant|tw|hk|mo)\b/;

/** "rtl" for a right-to-left language (Arabic, Hebrew, Persian, Urdu…), else "ltr". */
export function localeDirection(locale: string): "ltr" | "rtl" {
  return RTL_LANGUAGES.has(languageOf(locale)) ? "rtl" : "ltr";
}

function languageOf(tag: string): string {
  return tag.toLowerCase().split(/[-_]/)[0] ?? "";
}

/**
 * The best of `available` for the requested tags, or null when none matches (the caller's own
 * fallback then applies: English for the components, the project's default for emails).
 *
 * @example
 * matchLocale(["sv", "de-AT"], ["en", "de"]); // "de"
 * matchLocale("sv", ["en", "de"]);            // null
 */
export function matchLocale(requested: string | readonly string[] | null | undefined, available: readonly string[]): string | null {
  const wanted = (typeof requested === "string" ? [requested] : (requested ?? []))
    .map((tag) => tag.trim().replace(/_/g, "-"))
    .filter(Boolean);
  for (const tag of wanted) {
    const lower = tag.toLowerCase();
    const exact = available.find((a) => a.toLowerCase() === lower);
    if (exact) return exact;
    const language = languageOf(tag);
    const sameLanguage = available.filter((a) => languageOf(a) === language);
    if (language === "zh") {
      const traditional = TRADITIONAL_CHINESE.test(lower);
      const match = sameLanguage.find((a) => TRADITIONAL_CHINESE.test(a.toLowerCase()) === traditional);
      if (match) return match;
      continue;
    }
    // The bare language first ("de"), else its first regional form ("pt-BR").
    const match = sameLanguage.find((a) => !a.includes("-")) ?? sameLanguage[0];
    if (match) return match;
  }
  return null;
}

/**
 * The best of `available` for the requested tags, English (else the first available) when none matches.
 *
 * @example
 * resolveLocale(["de-AT", "en"], ["en", "de"]); // "de"
 * resolveLocale("pt-PT", SDK_LOCALES);          // "pt-BR"
 */
export function resolveLocale(requested: string | readonly string[] | null | undefined, available: readonly string[]): string {
  const fallback = available.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : (available[0] ?? DEFAULT_LOCALE);
  return matchLocale(requested, available) ?? fallback;
}

/**
 * The tags of an Accept-Language header, most preferred first ("*" and q=0 left out).
 *
 * @example
 * parseAcceptLanguage("ar;q=0.9, en;q=0.8, de"); // ["de", "ar", "en"]
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 1024) // a browser sends well under 200 characters
    .split(",")
    .slice(0, 32) // a bounded header: no work proportional to an attacker's input
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((p) => p.tag && p.tag !== "*" && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(p.tag) && p.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((p) => p.tag);
}
