/**
 * `/p/:projectId/handler/*`: a project's hosted handler pages on Doorman's origin (the full set of
 * StackHandler's pages, themed with the project's name and logo). An unknown project is a 404 page.
 * On a project's custom domain these paths are not served (the domain's own /handler is): its own
 * id redirects there, another project's is a 404, so a custom domain never shows another project.
 */

import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import { hostedHandlerPath } from "@doorman/shared/hosted-pages";
import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { StackServerRenderHandle } from "../components/client-stack-provider";
import { HandlerPage, handlerTitle, redirectSignedOutVisitor } from "../components/hosted/handler-page";
import { RouteError } from "../components/route-error";
import { customDomainProject, loadHostedHandlerData } from "../lib/hosted-pages.server";

export const handle: StackServerRenderHandle = { stackServerRender: true };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const projectId = params.projectId ?? "";
  // The internal project's pages stay at /handler (hostedHandlerPath says so).
  if (projectId === INTERNAL_PROJECT_ID) {
    const url = new URL(request.url);
    throw redirect(`/handler${url.pathname.slice(`/p/${projectId}/handler`.length)}${url.search}`);
  }
  const mapped = await customDomainProject(request, context);
  if (mapped) {
    const url = new URL(request.url);
    if (mapped !== projectId) throw new Response("There is no such page on this domain.", { status: 404, statusText: "Not Found" });
    throw redirect(`/handler${url.pathname.slice(hostedHandlerPath(projectId).length)}${url.search}`);
  }
  const data = await loadHostedHandlerData(request, context, { projectId });
  redirectSignedOutVisitor(data, request);
  return data;
}

/** The page differs by Accept-Language: caches must keep one copy per language. */
export const headers: HeadersFunction = () => ({ Vary: "Accept-Language" });

export const meta: MetaFunction<typeof loader> = ({ data, location }) => [{ title: handlerTitle(data, location.pathname) }];

export default function HostedHandlerRoute() {
  return <HandlerPage data={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  return <RouteError />;
}
