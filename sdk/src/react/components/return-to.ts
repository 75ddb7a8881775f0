/**
 * Keeps `after_auth_return_to` when moving between the sign-in and sign-up pages,
 * so the user still lands where they started after switching forms.
 */

export const RETURN_TO_PARAM = "after_auth_return_to";

/** `target` with the current page's `after_auth_return_to` (if any) carried over. */
export function withReturnTo(target: string, search: string): string {
  const returnTo = new URLSearchParams(search).get(RETURN_TO_PARAM);
  if (!returnTo) return target;
  const [path, query = ""] = target.split("?", 2) as [string, string?];
  const params = new URLSearchParams(query);
  if (!params.has(RETURN_TO_PARAM)) params.set(RETURN_TO_PARAM, returnTo);
  return `${path}?${params.toString()}`;
}

/** The current query string in the browser ("" during server rendering). */
export function currentSearch(): string {
  return typeof window === "undefined" ? "" : window.location.search;
}
