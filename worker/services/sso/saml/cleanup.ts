/** The daily cron's SAML clean-up (issue 31): used assertion IDs past their assertion's expiry. */
import { deleteExpiredSamlAssertions } from "../../../db/queries/saml-assertions";
import type { Deps } from "../../deps";

export function pruneUsedSamlAssertions(deps: Deps): Promise<number> {
  return deleteExpiredSamlAssertions(deps.db, deps.now());
}
