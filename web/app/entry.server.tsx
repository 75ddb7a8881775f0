/**
 * Server rendering of the web app (Remix's Cloudflare default) plus its security headers: a
 * per-response nonce for Remix's inline scripts, the CSP that allows only those, and the
 * frame, sniffing, referrer and HSTS headers (lib/security-headers.server.ts).
 */
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { readTurnstileOrigin } from "./lib/env.server";
import { NonceContext } from "./lib/nonce";
import { contentSecurityPolicy, createNonce, setSecurityHeaders } from "./lib/security-headers.server";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = createNonce();
  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>,
    {
      nonce,
      onError(error: unknown) {
        console.error(error);
        status = 500;
      },
    },
  );
  if (isbot(request.headers.get("user-agent") ?? "")) await body.allReady;

  responseHeaders.set("Content-Type", "text/html");
  responseHeaders.set(
    "Content-Security-Policy",
    contentSecurityPolicy(nonce, { dev: import.meta.env.DEV, turnstileOrigin: readTurnstileOrigin(loadContext) }),
  );
  setSecurityHeaders(responseHeaders, request.url);
  return new Response(body, { headers: responseHeaders, status });
}

/** Data requests (single fetch) carry the same headers, except the document-only CSP. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  setSecurityHeaders(response.headers, request.url);
  return response;
};
