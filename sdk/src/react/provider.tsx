/**
 * `StackProvider` puts a client app into React context; `useStackApp` reads it back.
 * The provider also renders the components' stylesheet and a Suspense boundary, since
 * `useUser` suspends while the first user read is in flight. For server rendering it takes
 * what the server already knows: the project (so forms show the enabled sign-in methods) and
 * that nobody is signed in (so `useUser` answers null at once instead of suspending).
 * It also chooses the components' language (docs/i18n.md): the `locale` prop, else the
 * browser's languages, among English and the catalogues given in `translations`.
 */
import { createContext, type ReactNode, Suspense, useContext, useEffect, useMemo, useSyncExternalStore } from "react";
import { DEFAULT_LOCALE, resolveLocale } from "../shared/locales";
import type { ReactStackApp } from "./app-types";
import { I18nContext, useTranslation } from "./i18n/context";
import type { Messages } from "./i18n/en";
import { createI18n, type Translations } from "./i18n/translator";
import { StackStyles } from "./styles";
import { getUserStore } from "./user-store";

const StackAppContext = createContext<ReactStackApp | null>(null);

/** The project's client view (GET /projects/current), as `app.getProject()` returns it. */
export type StackProjectView = { id: string; displayName: string; config: Record<string, unknown> };

/** The project given to the provider (read by `useProject`), or null. */
export const InitialProjectContext = createContext<StackProjectView | null>(null);

export type StackProviderProps = {
  /** The client app, e.g. `new StackClientApp({...})`. Create it once, in the browser. */
  app: ReactStackApp;
  children: ReactNode;
  /** Shown while the current user is loading. */
  fallback?: ReactNode;
  /** The project, already loaded (e.g. by a server loader): components need not fetch it. */
  initialProject?: StackProjectView | null;
  /**
   * True when the page was requested without any session cookie: the user starts as null (no
   * suspense, so the server renders the signed-out form), then is re-read in the background.
   */
  signedOut?: boolean;
  /**
   * The language of the components, e.g. "de" or ["pt-BR", "en"] (the best available match is
   * used). Without it, the browser's `navigator.languages` decide (after hydration, so a server
   * render in English hydrates cleanly); pass it when the server knows (Accept-Language).
   */
  locale?: string | readonly string[];
  /**
   * Catalogues by locale: the SDK's own (`import { de, fr } from "@doorman/sdk/react/i18n/locales"`,
   * or `allLocales`) and any of the app's. A partial catalogue falls back to English key by key.
   * Only English is built in, so the others cost bytes only when an app imports them.
   */
  translations?: Translations;
  /** The app's wording for any key, in whatever locale is chosen (wins over `translations`). */
  messages?: Partial<Messages>;
};

const noSubscription = () => () => {};
const noLanguages = () => "";
/** A stable snapshot of the browser's languages ("de-AT,en"), or "" on the server. */
function browserLanguages(): string {
  if (typeof navigator === "undefined") return "";
  return (navigator.languages?.length ? navigator.languages : [navigator.language]).filter(Boolean).join(",");
}
function subscribeLanguages(onChange: () => void): () => void {
  if (typeof window === "undefined") return noSubscription();
  window.addEventListener("languagechange", onChange);
  return () => window.removeEventListener("languagechange", onChange);
}

/**
 * Makes `app` available to hooks and components below it.
 *
 * @example
 * const app = new StackClientApp({ projectId, publishableClientKey, tokenStore: "cookie" });
 * <StackProvider app={app}><AccountSettings /></StackProvider>
 */
export function StackProvider({
  app,
  children,
  fallback,
  initialProject = null,
  signedOut = false,
  locale,
  translations,
  messages,
}: StackProviderProps) {
  // The server snapshot is "" so hydration matches the server's English; then the browser's. With
  // a `locale`, the browser's languages are not read at all (no re-render right after hydration).
  const browser = useSyncExternalStore(
    locale === undefined ? subscribeLanguages : noSubscription,
    locale === undefined ? browserLanguages : noLanguages,
    noLanguages,
  );

  const requested = locale ?? (browser ? browser.split(",") : DEFAULT_LOCALE);
  const available = useMemo(() => [DEFAULT_LOCALE, ...Object.keys(translations ?? {})], [translations]);
  const chosen = resolveLocale(requested, available);
  const i18n = useMemo(() => createI18n(chosen, translations, messages), [chosen, translations, messages]);
  // Idempotent: only fills a store that has not loaded anything yet.
  if (signedOut) getUserStore(app).seed(null);
  useEffect(() => {
    // Confirms the seeded "signed out" with a real read (the cookies the server saw may be gone).
    if (signedOut) void getUserStore(app).refresh();
  }, [app, signedOut]);
  return (
    <StackAppContext.Provider value={app}>
      <InitialProjectContext.Provider value={initialProject}>
        <I18nContext.Provider value={i18n}>
          <StackStyles />
          <Suspense fallback={fallback ?? <StackLoading />}>{children}</Suspense>
        </I18nContext.Provider>
      </InitialProjectContext.Provider>
    </StackAppContext.Provider>
  );
}

/**
 * The app given to the nearest `StackProvider`.
 *
 * @example
 * const app = useStackApp();
 * await app.signOut();
 */
export function useStackApp<App extends ReactStackApp = ReactStackApp>(): App {
  const app = useContext(StackAppContext);
  if (!app) throw new Error("useStackApp must be used inside <StackProvider app={...}>.");
  return app as App;
}

/**
 * True when a `StackProvider` is above (lets `StackHandler` reuse an outer one).
 *
 * @example
 * const nested = useHasStackApp();
 */
export function useHasStackApp(): boolean {
  return useContext(StackAppContext) !== null;
}

/**
 * The default loading indicator (also the provider's Suspense fallback).
 *
 * @example
 * if (!app) return <StackLoading />;
 */
export function StackLoading() {
  const { t, dir, locale } = useTranslation();
  return (
    <div className="stack-loading" role="status" aria-live="polite" dir={dir} lang={locale}>
      {t("common.loading")}
    </div>
  );
}
