// The React components' languages (issue 28): every locale has exactly English's keys and the same
// placeholders, the locale is negotiated as docs/i18n.md says, and the components render in it
// (German, Arabic right to left), with the app's own wording winning over the catalogue.
import { createElement, type ReactElement, Suspense } from "react";
import { renderToReadableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StackClientApp } from "../../sdk/src";
import {
  createI18n,
  en,
  formatMessage,
  handlerPageTitleKey,
  type Messages,
  parseAcceptLanguage,
  resolveLocale,
  SDK_LOCALES,
  SignIn,
  SignUp,
  StackProvider,
  type StackProviderProps,
} from "../../sdk/src/react";
import { placeholdersOf } from "../../sdk/src/react/i18n/format";
import { allLocales, de } from "../../sdk/src/react/i18n/locales";

/** A client app that only supplies URLs: nothing is fetched while rendering a signed-out form. */
function renderApp() {
  return new StackClientApp({
    projectId: "p",
    publishableClientKey: "k",
    baseUrl: "http://localhost",
    tokenStore: null,
    redirectMethod: "none",
  });
}

/** Server-renders `element` inside a signed-out provider with the given i18n props. */
async function render(element: ReactElement, props: Partial<Omit<StackProviderProps, "children">> = {}): Promise<string> {
  const providerProps = { app: renderApp(), signedOut: true, initialProject: { id: "p", displayName: "Shop", config: {} }, ...props };
  const provider = createElement(StackProvider, providerProps as StackProviderProps, element);

  const stream = await renderToReadableStream(createElement(Suspense, { fallback: "loading" }, provider));
  await stream.allReady;
  return new Response(stream).text();
}

/** The plural blocks' branches of a message ("one", "other", …) by placeholder. */
function pluralBranches(message: string): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const match of message.matchAll(/\{\s*(\w+)\s*,\s*plural\s*,/g)) {
    const rest = message.slice((match.index ?? 0) + match[0].length);
    found[match[1] as string] = [...rest.matchAll(/(=\d+|zero|one|two|few|many|other)\s*\{/g)].map((m) => m[1] as string);
  }
  return found;
}

describe("catalogues", () => {
  const keys = Object.keys(en).sort();

  it("ships the 13 locales, each with exactly English's keys", () => {
    expect(Object.keys(allLocales).sort()).toEqual([...SDK_LOCALES].sort());
    for (const [locale, messages] of Object.entries(allLocales)) {
      expect(Object.keys(messages).sort(), locale).toEqual(keys);
    }
  });

  it("uses the same placeholders in every string, and every plural has an 'other' branch", () => {
    for (const [locale, messages] of Object.entries(allLocales)) {
      for (const key of keys) {
        const message = (messages as Messages)[key as keyof Messages];
        expect(message.trim(), `${locale} ${key} is empty`).not.toBe("");
        expect(placeholdersOf(message).sort(), `${locale} ${key}`).toEqual(placeholdersOf(en[key as keyof Messages]).sort());
        for (const [name, branches] of Object.entries(pluralBranches(message))) {
          expect(branches, `${locale} ${key} {${name}, plural}`).toContain("other");
        }
      }
    }
  });

  it("has a title for every handler page", () => {
    for (const page of ["sign-in", "sign-up", "account-settings", "mfa", "cli-auth-confirm", "team-invitation"]) {
      const key = handlerPageTitleKey(page);
      expect(key && en[key], page).toBeTruthy();
    }
    expect(handlerPageTitleKey("nope")).toBeNull();
  });
});

describe("locale negotiation", () => {
  const available = [...SDK_LOCALES];

  it("takes the exact tag, else the same language, else English", () => {
    expect(resolveLocale("pt-BR", available)).toBe("pt-BR");
    expect(resolveLocale("de-AT", available)).toBe("de");
    expect(resolveLocale("DE_ch", available)).toBe("de");
    // Portuguese readers get Brazilian Portuguese rather than English (the only Portuguese shipped).
    expect(resolveLocale("pt-PT", available)).toBe("pt-BR");
    expect(resolveLocale("zh-Hans-CN", available)).toBe("zh-CN");
    expect(resolveLocale("ar-EG", available)).toBe("ar");
    expect(resolveLocale("sv-SE", available)).toBe("en");
    expect(resolveLocale([], available)).toBe("en");
  });

  it("follows the order of preference, and never gives traditional-script Chinese the simplified catalogue", () => {
    expect(resolveLocale(["sv", "fr-CA", "de"], available)).toBe("fr");
    expect(resolveLocale(["zh-TW", "ja"], available)).toBe("ja");
    expect(resolveLocale("zh-HK", available)).toBe("en");
  });

  it("only offers the catalogues the app gave (English is always there)", () => {
    expect(resolveLocale("fr", ["en", "de"])).toBe("en");
    expect(resolveLocale(["fr", "de"], ["en", "de"])).toBe("de");
  });

  it("reads Accept-Language by quality, then order", () => {
    expect(parseAcceptLanguage("ar;q=0.9, en;q=0.8, de")).toEqual(["de", "ar", "en"]);
    expect(parseAcceptLanguage("*, fr;q=0, en-US")).toEqual(["en-US"]);
    expect(parseAcceptLanguage("<script>, es")).toEqual(["es"]);
    expect(parseAcceptLanguage(null)).toEqual([]);
    expect(resolveLocale(parseAcceptLanguage("pt-PT,pt;q=0.9,en;q=0.8"), available)).toBe("pt-BR");
  });
});

describe("formatting", () => {
  it("fills placeholders and picks plural forms with Intl.PluralRules", () => {
    expect(formatMessage("{n, plural, one {# day} other {# days}} for {who}", { n: 1, who: "Ada" }, "en")).toBe("1 day for Ada");
    expect(formatMessage("{n, plural, =0 {none} one {# day} other {# days}}", { n: 0 }, "en")).toBe("none");
    const polish = allLocales.pl?.["activity.recoveryCodeUsed"] ?? "";
    expect(formatMessage(polish, { remaining: 3 }, "pl")).toContain("zostały 3 kody");
    expect(formatMessage(polish, { remaining: 5 }, "pl")).toContain("zostało 5 kodów");
    const arabic = allLocales.ar?.["activity.recoveryCodeUsed"] ?? "";
    expect(formatMessage(arabic, { remaining: 2 }, "ar")).toContain("رمزان");
  });

  it("formats numbers and dates for the locale", () => {
    const german = createI18n("de", allLocales);
    expect(german.t("apiKeys.tooLong", { max: 1024 })).toBe("Höchstens 1.024 Zeichen.");
    expect(german.formatDate(new Date(Date.UTC(2026, 10, 28, 12)))).toBe("28.11.2026");
    expect(createI18n("en").formatDate(new Date(Date.UTC(2026, 10, 28, 12)))).toBe("Nov 28, 2026");
  });

  it("falls back key by key: the locale, its language, then English", () => {
    const i18n = createI18n("de-AT", { de: { "signIn.title": "Anmelden bitte" } });
    expect(i18n.t("signIn.title")).toBe("Anmelden bitte");
    expect(i18n.t("signUp.title")).toBe("Create your account");
  });
});

describe("components in the reader's language", () => {
  it("renders English by default, left to right", async () => {
    const html = await render(createElement(SignIn, { search: "" }));
    expect(html).toContain("Sign in to your account");
    expect(html).toContain('lang="en" dir="ltr"');
  });

  it("renders the sign-in page in German", async () => {
    const html = await render(createElement(SignIn, { search: "" }), { locale: "de-AT", translations: allLocales });
    expect(html).toContain("Bei deinem Konto anmelden");
    expect(html).toContain("Passwort vergessen?");
    expect(html).toContain('lang="de" dir="ltr"');
    expect(html).not.toContain("Sign in to your account");
  });

  it("renders Arabic right to left, with numbers in the password hint", async () => {
    const html = await render(createElement(SignUp, { search: "" }), { locale: ["ar-SA", "en"], translations: allLocales });
    expect(html).toContain('lang="ar" dir="rtl"');
    expect(html).toContain("أنشئ حسابك");
    expect(html).toMatch(/من (8|٨) إلى (70|٧٠) حرفًا/);
  });

  it("stays English for a locale the app did not supply", async () => {
    const html = await render(createElement(SignIn, { search: "" }), { locale: "de", translations: {} });
    expect(html).toContain("Sign in to your account");
  });

  it("lets the app's wording win: `messages` for any locale, `translations` per locale", async () => {
    const html = await render(createElement(SignIn, { search: "" }), {
      locale: "de",
      translations: { de: { ...de, "signIn.subtitle": "Schön, dass du da bist." } },
      messages: { "signIn.title": "Willkommen bei Shop" },
    });
    expect(html).toContain("Willkommen bei Shop");
    expect(html).toContain("Schön, dass du da bist.");
    expect(html).toContain("Passwort vergessen?");
    // A title prop still wins over everything.
    expect(await render(createElement(SignIn, { search: "", title: "Hi" }), { locale: "de", translations: allLocales })).toContain(
      ">Hi</h1>",
    );
  });
});
