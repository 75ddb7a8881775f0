/** The OpenID provider's part of the daily cron: expired authorization requests and the used client-assertion jtis past their exp. */
import { deleteExpiredAuthorizationRequests } from "../../db/queries/oauth-authorization-requests";
import { deleteExpiredClientAssertionJtis } from "../../db/queries/oauth-client-assertions";
import type { Deps } from "../deps";

export async function pruneOAuthProviderRows(deps: Deps): Promise<{ authorizationRequests: number; clientAssertionJtis: number }> {
  const now = deps.now();
  const [authorizationRequests, clientAssertionJtis] = await Promise.all([
    deleteExpiredAuthorizationRequests(deps.db, now),
    deleteExpiredClientAssertionJtis(deps.db, now),
  ]);
  return { authorizationRequests, clientAssertionJtis };
}
