/**
 * `/purchase/:code`: the checkout of a purchase link (create-purchase-url answers its URL).
 * Anyone with the link pays for the customer it names, signed in or not, as in the reference.
 * The loader validates the code through the API service binding, so the offer, its prices and
 * what it includes render on the server; the browser then pays: the test card in test mode, or
 * Stripe Checkout in live mode. `?return_url=` (checked by the API against the project's
 * trusted domains) becomes the link back after paying.
 */
import { type HeadersFunction, json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { StackServerRenderHandle } from "../components/client-stack-provider";
import { CheckoutPanel } from "../components/purchase/checkout-panel";
import { CodeProblemCard } from "../components/purchase/purchase-notices";
import { RouteError } from "../components/route-error";
import type { HandlerServerData } from "../lib/handler-data.server";
import { hasSessionCookie } from "../lib/handler-session";
import { type CodeProblem, codeProblemOf, type ValidatedCode, validatePurchaseCode } from "../lib/purchase-api";

export const handle: StackServerRenderHandle = { stackServerRender: true };

type PurchaseData = HandlerServerData &
  ({ state: "ready"; code: ValidatedCode; fullCode: string; returnUrl: string | null } | { state: "problem"; problem: CodeProblem });

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const returnUrl = url.searchParams.get("return_url");
  const fullCode = params.code ?? "";
  // The page renders without the internal project (it shows the seller's project, from the code).
  const base: HandlerServerData = { project: null, signedOut: !hasSessionCookie(request.headers.get("cookie")), origin: url.origin };
  const binding = context.cloudflare?.env?.API;
  const send = (req: Request) => (binding ? binding.fetch(req) : fetch(req));
  let data: PurchaseData;
  try {
    const code = await validatePurchaseCode({ origin: url.origin, fullCode, returnUrl }, send);
    data = { ...base, state: "ready", code, fullCode, returnUrl };
  } catch (error) {
    const problem = codeProblemOf(error);
    if (problem === "unavailable") console.warn("[purchase] could not validate the code", error);
    data = { ...base, state: "problem", problem };
  }
  // Why no-store: the page is for whoever holds the code; no shared cache may keep it.
  return json(data, { headers: { "Cache-Control": "no-store" } });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => ({ "Cache-Control": loaderHeaders.get("Cache-Control") ?? "no-store" });

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.state === "ready" ? `${data.code.offer.display_name} · ${data.code.project_display_name}` : "Purchase" },
  // Why: purchase links are bearer credentials; search engines must not index them.
  { name: "robots", content: "noindex, nofollow" },
];

export default function PurchaseRoute() {
  const data = useLoaderData<typeof loader>() as unknown as PurchaseData;
  return (
    <main className="purchase-page">
      {data.state === "ready" ? (
        <>
          <header className="purchase-seller">
            {data.code.project_logo_url ? <img src={data.code.project_logo_url} alt="" className="purchase-logo" /> : null}
            <span className="purchase-seller-name">{data.code.project_display_name}</span>
            {data.code.test_mode ? <span className="badge badge-dev">Test mode</span> : null}
          </header>
          <CheckoutPanel code={data.code} fullCode={data.fullCode} returnUrl={data.returnUrl} />
        </>
      ) : (
        <CodeProblemCard problem={data.problem} />
      )}
      <p className="purchase-footer muted">Secure checkout by Doorman</p>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
