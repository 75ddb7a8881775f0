/**
 * `/handler/*`: the internal project's handler pages (sign-in, sign-up, sign-out,
 * account-settings, error, …), rendered by the SDK's StackHandler. They render on the server
 * with the project the loader read (the forms show the enabled sign-in methods at once). Pages
 * that depend on who is signed in render a skeleton of the card until the browser knows, unless
 * the request had no session cookie (then nobody is, and the signed-out form is rendered). They
 * are in the reader's language: the loader's locale comes from Accept-Language (docs/i18n.md).
 */

import { AuthCard, createI18n, handlerPageName, handlerPageTitleKey, StackHandler, useTranslation } from "@doorman/sdk/react";
import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Suspense, useEffect, useState } from "react";
import type { StackServerRenderHandle } from "../components/client-stack-provider";
import { RouteError } from "../components/route-error";
import { loadHandlerData } from "../lib/handler-data.server";

/** Pages that show a different card to a signed-in visitor ("You are signed in"). */
const SIGNED_OUT_FORMS = new Set(["sign-in", "sign-up"]);
/** Pages that need the signed-in user to render anything. */
const USER_PAGES = new Set(["account-settings", "cli-auth-confirm", "team-invitation"]);

export const handle: StackServerRenderHandle = { stackServerRender: true };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const data = await loadHandlerData(request, context);
  const url = new URL(request.url);
  // Nobody is signed in: go to sign-in now (the browser would do the same after loading).
  if (data.signedOut && handlerPageName(url.pathname) === "account-settings") {
    throw redirect(`/handler/sign-in?after_auth_return_to=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return data;
}

/** The page differs by Accept-Language: caches must keep one copy per language. */
export const headers: HeadersFunction = () => ({ Vary: "Accept-Language" });

export const meta: MetaFunction<typeof loader> = ({ params, data }) => {
  const key = handlerPageTitleKey(params["*"] ?? "");
  const title = key ? createI18n(data?.locale ?? "en", data?.translations).t(key) : "Doorman";
  return [{ title: `${title} · Doorman` }];
};

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

export default function HandlerRoute() {
  const { signedOut } = useLoaderData<typeof loader>();
  const location = useLocation();
  const hydrated = useHydrated();
  const page = handlerPageName(location.pathname);
  const needsBrowser = USER_PAGES.has(page) || (SIGNED_OUT_FORMS.has(page) && !signedOut);
  const skeleton = <HandlerSkeleton page={page} />;
  return (
    <div className="handler-page">
      <a className="brand brand-centered" href="/">
        <span className="brand-mark" aria-hidden="true">
          D
        </span>
        Doorman
      </a>
      {needsBrowser && !hydrated ? (
        skeleton
      ) : (
        <Suspense fallback={skeleton}>
          <StackHandler location={location.pathname + location.search} />
        </Suspense>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
