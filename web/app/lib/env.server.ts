/**
 * Server-only reads of the Pages environment (web/wrangler.toml [vars]).
 */

import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import type { AppLoadContext } from "@remix-run/cloudflare";

/** The internal project's publishable client key, for the browser's client app. */
export function readPublishableClientKey(context: AppLoadContext): string {
  // Falls back to the public development key so a bare `remix vite:dev` still works.
  return context.cloudflare?.env?.PUBLISHABLE_CLIENT_KEY || DEV_PUBLISHABLE_CLIENT_KEY;
}

/** The origin of the Turnstile widget script (the hosted pages render it): Cloudflare's unless the deployment points at a fake. */
export function readTurnstileOrigin(context: AppLoadContext): string {
  const url = context.cloudflare?.env?.TURNSTILE_SCRIPT_URL;
  try {
    return url ? new URL(url).origin : TURNSTILE_ORIGIN;
  } catch {
    return TURNSTILE_ORIGIN;
  }
}
const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";
