/**
 * `/`: the dashboard home; project owners start at their project list.
 */
import { redirect } from "@remix-run/cloudflare";
import { RouteError } from "../components/route-error";

export function loader() {
  return redirect("/projects");
}

export function ErrorBoundary() {
  return <RouteError />;
}
