/**
 * `/handler/*`: the internal project's handler pages, or, on a project's custom domain (found by
 * the request's Host), that project's hosted pages. Rendered by the shared HandlerPage, in the
 * reader's language (the loader's locale comes from Accept-Language; docs/i18n.md).
 */

import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { StackServerRenderHandle } from "../components/client-stack-provider";
import { HandlerPage, handlerTitle, redirectSignedOutVisitor } from "../components/hosted/handler-page";
import { RouteError } from "../components/route-error";
import { loadHandlerData } from "../lib/handler-data.server";
import { customDomainProject, loadHostedHandlerData } from "../lib/hosted-pages.server";

export const handle: StackServerRenderHandle = { stackServerRender: true };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const mapped = await customDomainProject(request, context);
  const data = mapped ? await loadHostedHandlerData(request, context, { customDomainOf: mapped }) : await loadHandlerData(request, context);
  redirectSignedOutVisitor(data, request);
  return data;
}

/** The page differs by Accept-Language: caches must keep one copy per language. */
export const headers: HeadersFunction = () => ({ Vary: "Accept-Language" });

export const meta: MetaFunction<typeof loader> = ({ data, location }) => [{ title: handlerTitle(data, location.pathname) }];

export default function HandlerRoute() {
  return <HandlerPage data={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  return <RouteError />;
}
