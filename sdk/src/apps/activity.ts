/**
 * A user's recent security activity (GET /users/{user_id}/activity, a Doorman extension): sign-ins
 * with device and place, password changes, new passkeys, revoked sessions. Works over any requester,
 * so the current user (its session, "me") and the server's user objects (the secret key) share it.
 */
import type { RequestOptions } from "../interface/http";
import type { UserActivityType } from "../shared/activity-types";
import type { ActivityListJson } from "../shared/wire-activity";

export type { UserActivityType } from "../shared/activity-types";

type Requester = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** One security event of the user. */
export type UserActivity = {
  id: string;
  type: UserActivityType;
  createdAt: Date;
  /** The address the request came from (for a failed sign-in: whoever tried). */
  ip: string | null;
  userAgent: string | null;
  /** ISO 3166-1 alpha-2 country of the request, when the edge knew it. */
  countryCode: string | null;
  /** Details by type: `method` and `provider` of a sign-in, `reason` of a failure (a known-error code), ids. */
  data: Record<string, unknown> | null;
};

export type ListActivityOptions = {
  /** `nextCursor` of the page before. */
  cursor?: string;
  /** 1 to 100; 20 by default. */
  limit?: number;
};

/** A page of activity, newest first; `nextCursor` continues it (null at the end). */
export type UserActivityPage = { items: UserActivity[]; nextCursor: string | null };

/** @internal One page of a user's activity through `request`; `userId` is "me" for the signed-in user. */
export async function listActivity(request: Requester, userId: string, options: ListActivityOptions = {}): Promise<UserActivityPage> {
  const q = new URLSearchParams();
  if (options.cursor) q.set("cursor", options.cursor);
  if (options.limit !== undefined) q.set("limit", String(options.limit));
  const qs = q.toString();
  const page = await request<ActivityListJson>(`/users/${encodeURIComponent(userId)}/activity${qs ? `?${qs}` : ""}`);
  return {
    items: page.items.map((e) => ({
      id: e.id,
      type: e.type,
      createdAt: new Date(e.created_at_millis),
      ip: e.ip,
      userAgent: e.user_agent,
      countryCode: e.country_code,
      data: e.data,
    })),
    nextCursor: page.pagination.next_cursor,
  };
}
