/**
 * `/handler/*`: the internal project's handler pages (sign-in, sign-up, sign-out,
 * account-settings, error), rendered by the SDK's StackHandler.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useLocation } from "@remix-run/react";
import { StackHandler } from "../../../sdk/src/react";
import { RouteError } from "../components/route-error";

const TITLES: Record<string, string> = {
  "sign-in": "Sign in",
  "sign-up": "Sign up",
  "sign-out": "Signing out",
  "account-settings": "Account settings",
  error: "Error",
  "oauth-callback": "Signing in",
  "cli-auth-confirm": "Authorize the CLI",
};

export const meta: MetaFunction = ({ params }) => [{ title: `${TITLES[params["*"] ?? ""] ?? "Doorman"} · Doorman` }];

export default function HandlerRoute() {
  const location = useLocation();
  return (
    <div className="handler-page">
      <a className="brand brand-centered" href="/">
        <span className="brand-mark" aria-hidden="true">
          D
        </span>
        Doorman
      </a>
      <StackHandler location={location.pathname + location.search} />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
