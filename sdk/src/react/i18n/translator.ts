/**
 * The translator the components use: the strings of one locale (the app's overrides first, then
 * the locale's catalogue, its language's, then English), plus Intl formatting of dates and
 * numbers in that locale. Built by `StackProvider`; read with `useTranslation()`.
 */
import { createElement, Fragment, type ReactNode } from "react";
import { DEFAULT_LOCALE, localeDirection } from "../../shared/locales";
import { en, type MessageKey, type Messages } from "./en";
import { formatMessage, type MessageValues } from "./format";

/** Catalogues by locale tag ("de", "pt-BR"); partial ones fall back to English key by key. */
export type Translations = Record<string, Partial<Messages>>;

/** Fills the message `key` with `values`. */
export type Translate = (key: MessageKey, values?: MessageValues) => string;

export type I18n = {
  /** The locale in use, e.g. "de" or "pt-BR". */
  locale: string;
  /** Its writing direction, for `dir`. */
  dir: "ltr" | "rtl";
  t: Translate;
  /** Like `t`, but values may be elements (`{ who: <strong>…</strong> }`). */
  rich: (key: MessageKey, values: Record<string, ReactNode>) => ReactNode;
  /** A date (no time), e.g. "28.11.2026". */
  formatDate: (date: Date) => string;
  /** A date and time, e.g. "28.11.2026, 14:05". */
  formatDateTime: (date: Date) => string;
  formatNumber: (value: number, options?: Intl.NumberFormatOptions) => string;
};

function safeFormat<T>(make: () => T, fallback: () => T): T {
  try {
    return make();
  } catch {
    return fallback();
  }
}

/**
 * @example
 * const { t } = createI18n("de", { de }, { "signIn.title": "Willkommen" });
 * t("signIn.title"); // "Willkommen"
 */
export function createI18n(locale: string, translations: Translations = {}, overrides: Partial<Messages> = {}): I18n {
  const base = locale.split("-")[0] ?? locale;
  // Most specific first: the app's overrides, the locale, its bare language ("de" for "de-AT"), English.
  const layers: Partial<Messages>[] = [overrides, translations[locale] ?? {}];
  if (base !== locale && translations[base]) layers.push(translations[base]);
  if (locale !== DEFAULT_LOCALE) layers.push(translations[DEFAULT_LOCALE] ?? {});
  layers.push(en);
  const lookup = (key: MessageKey): string => {
    for (const layer of layers) {
      const message = layer[key];
      if (typeof message === "string") return message;
    }
    return key;
  };
  const t: Translate = (key, values) => formatMessage(lookup(key), values, locale);
  const rich = (key: MessageKey, values: Record<string, ReactNode>): ReactNode => {
    // Placeholders become slots; the text between them is filled with the plain values as usual.
    const parts = lookup(key).split(/(\{\w+\})/);
    return createElement(
      Fragment,
      null,
      ...parts.map((part, index) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        return createElement(Fragment, { key: index }, name !== undefined ? values[name] : part);
      }),
    );
  };
  const dateFormat = safeFormat(
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium" }),
    () => new Intl.DateTimeFormat(DEFAULT_LOCALE, { dateStyle: "medium" }),
  );
  const dateTimeFormat = safeFormat(
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }),
    () => new Intl.DateTimeFormat(DEFAULT_LOCALE, { dateStyle: "medium", timeStyle: "short" }),
  );
  return {
    locale,
    dir: localeDirection(locale),
    t,
    rich,
    formatDate: (date) => dateFormat.format(date),
    formatDateTime: (date) => dateTimeFormat.format(date),
    formatNumber: (value, options) =>
      safeFormat(
        () => new Intl.NumberFormat(locale, options).format(value),
        () => String(value),
      ),
  };
}

/** English, for components outside any provider and for the helpers' default argument. */
export const englishI18n: I18n = createI18n(DEFAULT_LOCALE);

/** The English translator (the default of helpers that take a `t`). */
export const englishT: Translate = englishI18n.t;
