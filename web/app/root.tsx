/**
 * The document shell: head, the app stylesheet, and the client-side StackProvider
 * (fed with the internal project's publishable key from the Pages environment).
 */
import { localeDirection } from "@doorman/sdk/react";
import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { ClientStackProvider, useServerRenderData } from "./components/client-stack-provider";
import { RouteError } from "./components/route-error";
import { readPublishableClientKey } from "./lib/env.server";
import { customDomainProject } from "./lib/hosted-pages.server";
import { useNonce } from "./lib/nonce";
import appCss from "./styles/app.css?url";

/** An inline SVG icon (the brand mark), so browsers do not ask for /favicon.ico. */
const FAVICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4338ca"/><text x="16" y="23" font-family="system-ui,sans-serif" font-size="19" font-weight="800" fill="#fff" text-anchor="middle">D</text></svg>',
  );

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appCss },
  { rel: "icon", href: FAVICON, type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Doorman" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await customDomainProject(request, context)) guardCustomDomain(new URL(request.url));
  return { publishableClientKey: readPublishableClientKey(context) };
}

/**
 * On a project's custom domain only that project's hosted pages are served: `/` goes to its
 * sign-in, and the owners' console is a 404 there. Why: a console (sign-in of Doorman's owners)
 * under a customer's domain would be a ready-made phishing page for Doorman accounts, and the
 * console's session cookies must never be set on a domain a project controls.
 */
function guardCustomDomain(url: URL): void {
  if (url.pathname === "/") throw redirect("/handler/sign-in");
  const served = url.pathname === "/handler" || url.pathname.startsWith("/handler/") || url.pathname.startsWith("/p/");
  if (!served) throw new Response("This page is not served on this domain.", { status: 404, statusText: "Not Found" });
}

export function Layout({ children }: { children: ReactNode }) {
  // The CSP nonce of this response (entry.server.tsx): Remix's inline scripts must carry it.
  const nonce = useNonce();
  // The handler pages are in the reader's language (their loader's locale); the console is English.
  const locale = useServerRenderData()?.locale ?? "en";
  return (
    <html lang={locale} dir={localeDirection(locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { publishableClientKey } = useLoaderData<typeof loader>();
  return (
    <ClientStackProvider publishableClientKey={publishableClientKey}>
      <Outlet />
    </ClientStackProvider>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
