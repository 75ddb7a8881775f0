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
