/**
 * One handler page (sign-in, sign-up, sign-out, account-settings, error, oauth-consent, … all of StackHandler's),
 * server-rendered from its loader's `HandlerServerData`: the internal project's pages at /handler
 * and every project's hosted pages (/p/{id}/handler, or /handler on its custom domain). Pages that
 * depend on who is signed in render a skeleton of the card until the browser knows, unless the
 * request had no session cookie (then nobody is, and the signed-out form is rendered). A hosted page
 * shows the project's name and logo instead of Doorman's. Routes add their own loader data beside
 * these fields without touching this component. Its words are in the loader's locale (docs/i18n.md).
 */
import { AuthCard, createI18n, handlerPageName, handlerPageTitleKey, StackHandler, useTranslation } from "@doorman/sdk/react";
import { RETURN_TO_PARAM } from "@doorman/sdk/urls";
import { DEFAULT_HANDLER_PATH } from "@doorman/shared/constants";
import { redirect } from "@remix-run/cloudflare";
import { useLocation } from "@remix-run/react";
import { Suspense, useEffect, useState } from "react";
import type { HandlerBrand, HandlerServerData } from "../../lib/handler-data.server";

/** Pages that show a different card to a signed-in visitor ("You are signed in"). */
const SIGNED_OUT_FORMS = new Set(["sign-in", "sign-up"]);
/** Pages that need the signed-in user to render anything. */
const USER_PAGES = new Set(["account-settings", "cli-auth-confirm", "team-invitation", "oauth-consent"]);

/** Where the page's handler is mounted. */
export function handlerBasePath(data: Pick<HandlerServerData, "app">): string {
  return data.app?.basePath ?? DEFAULT_HANDLER_PATH;
}

/** Nobody is signed in on account-settings: go to sign-in now (the browser would do the same after loading). */
export function redirectSignedOutVisitor(data: HandlerServerData, request: Request): void {
  const url = new URL(request.url);
  const base = handlerBasePath(data);
  if (data.signedOut && handlerPageName(url.pathname, base) === "account-settings") {
    throw redirect(`${base}/sign-in?${RETURN_TO_PARAM}=${encodeURIComponent(url.pathname + url.search)}`);
  }
}

/** The document title of a handler page, in the page's language: the page, then the project's name (or Doorman). */
export function handlerTitle(
  data: Pick<HandlerServerData, "app" | "brand" | "locale" | "translations"> | undefined,
  pathname: string,
): string {
  const page = handlerPageName(pathname, data ? handlerBasePath(data) : DEFAULT_HANDLER_PATH);
  const key = handlerPageTitleKey(page);
  const { t } = createI18n(data?.locale ?? "en", data?.translations);
  return `${t(key ?? "handler.notFoundTitle")} · ${data?.brand?.name ?? "Doorman"}`;
}

/** False during the server render and hydration, true once the page runs in the browser. */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** A card the size of a page's, with its title, while the browser checks who is signed in. */
function HandlerSkeleton({ page }: { page: string }) {
  const { t } = useTranslation();
  const key = handlerPageTitleKey(page);
  return (
    <AuthCard title={key ? t(key) : "Doorman"} wide={page === "account-settings"}>
      <div className="handler-skeleton" role="status" aria-busy="true">
        <span className="visually-hidden">{t("handler.checkingSession")}</span>
      </div>
    </AuthCard>
  );
}

/** Doorman's mark, or the project's logo and name on its hosted pages. */
function Brand({ brand }: { brand: HandlerBrand | undefined }) {
  if (!brand) {
    return (
      <a className="brand brand-centered" href="/">
        <span className="brand-mark" aria-hidden="true">
          D
        </span>
        Doorman
      </a>
    );
  }
  return (
    <a className="brand brand-centered" href={brand.href}>
      {brand.logoUrl ? (
        <img className="brand-logo" src={brand.logoUrl} alt="" width={30} height={30} />
      ) : (
        <span className="brand-mark" aria-hidden="true">
          {brand.name.trim().charAt(0).toUpperCase() || "?"}
        </span>
      )}
      {brand.name}
    </a>
  );
}

export function HandlerPage({ data }: { data: HandlerServerData }) {
  const location = useLocation();
  const hydrated = useHydrated();
  const basePath = handlerBasePath(data);
  const page = handlerPageName(location.pathname, basePath);
  const needsBrowser = USER_PAGES.has(page) || (SIGNED_OUT_FORMS.has(page) && !data.signedOut);
  const skeleton = <HandlerSkeleton page={page} />;
  return (
    <div className="handler-page">
      <Brand brand={data.brand} />
      {needsBrowser && !hydrated ? (
        skeleton
      ) : (
        <Suspense fallback={skeleton}>
          <StackHandler basePath={basePath} location={location.pathname + location.search} />
        </Suspense>
      )}
    </div>
  );
}
