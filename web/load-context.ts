/**
 * Types of the Remix load context on Cloudflare Pages: `context.cloudflare.env` holds
 * web/wrangler.toml's [vars] and bindings (the default getLoadContext of
 * @remix-run/cloudflare-pages and of cloudflareDevProxyVitePlugin).
 */

/** Bindings and vars of the Pages project (web/wrangler.toml). */
export type WebEnv = {
  /** The internal project's publishable client key (public; sent to the browser). */
  PUBLISHABLE_CLIENT_KEY: string;
  /** The Turnstile widget script the API tells clients (the worker's TURNSTILE_SCRIPT_URL); its origin is allowed by the CSP. Unset = Cloudflare's. */
  TURNSTILE_SCRIPT_URL?: string;
  /** The API worker (service binding "doorman"); /api/* is forwarded to it. */
  API: Fetcher;
};

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: WebEnv };
  }
}
