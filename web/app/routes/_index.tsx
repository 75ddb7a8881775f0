/**
 * `/`: what Doorman is, in a few plain lines, with the ways in: create an account, sign in, open the
 * console, the API reference. An owner who is already signed in (a session cookie of the internal
 * project) goes straight to the project list.
 */
import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { RouteError } from "../components/route-error";
import { hasSessionCookie } from "../lib/handler-session";

export const meta: MetaFunction = () => [
  { title: "Doorman · sign-in and user management for your apps" },
  { name: "description", content: "Hosted sign-in, user management and payments for your apps, on Cloudflare's edge." },
];

export function loader({ request }: LoaderFunctionArgs) {
  if (hasSessionCookie(request.headers.get("cookie"))) throw redirect("/projects");
  return null;
}

export default function Landing() {
  return (
    <main className="landing">
      <p className="brand">
        <span className="brand-mark" aria-hidden="true">
          D
        </span>
        Doorman
      </p>
      <h1>Sign-in and user management for your apps</h1>
      <p>
        Doorman signs your users in (passwords, magic links, passkeys, OAuth providers, two-factor), keeps their accounts, teams and
        permissions, sends their emails and takes their payments. It runs on Cloudflare Workers, and its API is compatible with Stack
        Auth's, so apps built on the Stack Auth SDK work with it too.
      </p>
      <p>
        Create an account to get the console: make a project, connect your app with a quickstart, and your users get hosted sign-in and
        account pages from day one.
      </p>
      <div className="landing-actions">
        <a className="btn" href="/handler/sign-up?after_auth_return_to=%2Fprojects">
          Create an account
        </a>
        <a className="btn btn-secondary" href="/handler/sign-in?after_auth_return_to=%2Fprojects">
          Sign in
        </a>
        <a className="btn btn-secondary" href="/projects">
          Open the console
        </a>
      </div>
      <h2>Docs</h2>
      <ul>
        <li>
          <a href="/api/v1/docs">API reference</a>: every endpoint, with its keys and errors.
        </li>
        <li>
          In the Doorman repository: README.md (running it, configuration), docs/quickstarts.md (connecting an app), docs/deploy.md
          (deploying to Cloudflare).
        </li>
      </ul>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
