/**
 * What the handler pages' app is made of, shared by the browser's client app
 * (stack-app.client.ts) and the one used for server rendering, so both render the same links.
 */
import { StackClientApp } from "@doorman/sdk";
import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";

/** A new account lands on its settings; sign-in returns to the dashboard (or after_auth_return_to). */
export const HANDLER_APP_URLS = { afterSignUp: "/handler/account-settings", afterSignIn: "/projects" } as const;

/**
 * A client app for rendering handler pages on the server: no tokens (the browser's app owns the
 * session), no redirects. Its methods are never called during a render; only `urls` is read.
 */
export function createServerRenderApp(publishableClientKey: string, origin: string): StackClientApp {
  return new StackClientApp({
    projectId: INTERNAL_PROJECT_ID,
    publishableClientKey,
    baseUrl: origin,
    tokenStore: null,
    redirectMethod: "none",
    urls: HANDLER_APP_URLS,
  });
}
