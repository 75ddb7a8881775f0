/**
 * The request parts every SCIM operation reads the same way: pagination (RFC 7644 §3.4.2.4: 1-based
 * startIndex, count), the If-Match precondition against a resource's version (§3.14), and the retry
 * of a read-compute-write whose compare-and-set lost to a concurrent write.
 */
import { invalid, type ScimProblem, scimProblem } from "./errors";
import { etagOf } from "./views";

/** Results a list answers when the IdP asks for none in particular, and at most (ServiceProviderConfig filter.maxResults). */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 200;

export type Page = { startIndex: number; offset: number; limit: number };

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (!/^-?\d{1,9}$/.test(value.trim())) return invalid("invalidValue", `${name} must be an integer.`);
  return Number(value.trim());
}

/** startIndex below 1 counts as 1 and a negative count as 0 (RFC 7644 §3.4.2.4); count is capped. */
export function readPage(query: { startIndex?: string; count?: string }): Page {
  const startIndex = Math.max(1, integer(query.startIndex, "startIndex") ?? 1);
  const count = Math.min(MAX_PAGE_SIZE, Math.max(0, integer(query.count, "count") ?? DEFAULT_PAGE_SIZE));
  return { startIndex, offset: startIndex - 1, limit: count };
}

/** The versions an If-Match header allows; null when it is absent or "*" (any version). */
export type IfMatch = number[] | null;

export function readIfMatch(header: string | undefined): IfMatch {
  if (!header || header.trim() === "*") return null;
  return [...header.matchAll(/"(\d{1,15})"/g)].map((m) => Number(m[1]));
}

/** 412 when the resource is no longer at a version the client holds. */
export function checkIfMatch(ifMatch: IfMatch, version: number): ScimProblem | null {
  if (ifMatch === null || ifMatch.includes(version)) return null;
  return scimProblem(412, `The resource has changed: its version is now ${etagOf(version)}.`);
}

/** How often a write reads again after losing its compare-and-set before it gives up (20 concurrent writers need 20). */
export const MAX_WRITE_ATTEMPTS = 40;

/** A write's attempt: its result, or "lost" when another write changed the resource between its read and its batch. */
export type Attempt<T> = () => Promise<T | ScimProblem | "lost">;

/**
 * Runs an attempt until its batch wins. A relative change (PATCH) is re-applied to what the other
 * write left; a client that pinned a version (If-Match) gets 412 from its next read instead.
 */
export async function retryLostWrites<T>(attempt: Attempt<T>): Promise<T | ScimProblem> {
  for (let i = 0; i < MAX_WRITE_ATTEMPTS; i++) {
    const result = await attempt();
    if (result !== "lost") return result;
  }
  return scimProblem(409, "The resource kept changing under concurrent writes; retry the request.");
}
