/**
 * The body of every route's ErrorBoundary: a readable message for thrown responses
 * (404 etc.) and unexpected errors, with a way back home.
 */
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";

export function RouteError() {
  const error = useRouteError();
  let title = "Something went wrong";
  let message = "An unexpected error occurred. Please try again.";
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? "Page not found" : `Error ${error.status}`;
    message = typeof error.data === "string" && error.data ? error.data : error.statusText || message;
  } else if (error instanceof Error && error.message) {
    message = error.message;
  }
  return (
    <main className="page-error" role="alert">
      <h1>{title}</h1>
      <p>{message}</p>
      <a className="btn btn-secondary" href="/">
        Go home
      </a>
    </main>
  );
}
