/**
 * Proving a team owns a domain (issue 31, ADMIN): the TXT record `_doorman-verification.{domain}` =
 * `doorman-verification={token}` looked up through DNS-over-HTTPS (dns-txt.ts). "Verify" checks now
 * (per team at most SSO_DOMAIN_CHECK_PER_TEAM: each check is an outbound call); the daily cron
 * re-checks verified domains in bounded batches and marks a domain whose record is gone "lost". A
 * resolver that cannot answer changes nothing: only a definite answer verifies or loses a domain.
 */
import { ssoDomainTxtName, ssoDomainTxtValue } from "@doorman/shared/wire-sso";
import type { ProjectRow } from "../../db/queries/projects";
import {
  findSsoDomain,
  listVerifiedSsoDomainsDue,
  markSsoDomainLostStatement,
  markSsoDomainVerifiedStatement,
  type SsoDomainRow,
  touchSsoDomainCheckedStatement,
} from "../../db/queries/sso-domains";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";
import { readProjectConfig } from "../project-config/flat";
import { hitRateLimit } from "../rate-limit";
import { fail, type Problem } from "../result";
import { loadManagedDomain, managerEventData, type SsoAccessProblem, type SsoManager } from "./access";
import { lookupTxt } from "./dns-txt";

type VerifyProblem =
  | SsoAccessProblem
  | Problem<"sso_domain_not_found" | "sso_domain_already_verified" | "sso_domain_verification_failed" | "sso_domain_check_rate_limited">;

/** Whether the domain's TXT record carries its token: true / false, or null when the resolver could not say. */
async function recordPresent(deps: Deps, domain: SsoDomainRow): Promise<{ found: boolean } | { found: null; message: string }> {
  const lookup = await lookupTxt(deps, ssoDomainTxtName(domain.domain));
  if (!lookup.ok) return { found: null, message: lookup.message };
  return { found: lookup.values.includes(ssoDomainTxtValue(domain.verificationToken)) };
}

/** Marks a verified domain whose record is gone "lost" (once), with its event. */
function loseStatements(deps: Deps, domain: SsoDomainRow, extra: Record<string, unknown> = {}) {
  return [
    markSsoDomainLostStatement(deps.db, domain.id, deps.now()),
    eventIfChangedStatement(
      deps,
      domain.projectId,
      "sso_domain.lost",
      { teamId: domain.teamId },
      { domain_id: domain.id, domain: domain.domain, ...extra },
    ),
  ] as const;
}

/** Checks a claim's TXT record now: verified when found (unless another team holds the domain verified). */
export async function verifySsoDomain(
  deps: Deps,
  project: ProjectRow,
  domainId: string,
  manager: SsoManager,
): Promise<{ ok: true; value: SsoDomainRow } | VerifyProblem> {
  const projectId = project.id;
  const loaded = await loadManagedDomain(deps, projectId, domainId, manager);
  if (!loaded.ok) return loaded;
  const { domain } = loaded;
  // Each check is a DNS-over-HTTPS call on the team's behalf: bounded per team, not per caller.
  const limit = await hitRateLimit(deps, "SSO_DOMAIN_CHECK_PER_TEAM", `team:${domain.teamId}`, deps.now(), {
    id: projectId,
    limits: readProjectConfig(project.config).rate_limits,
  });
  if (!limit.ok) return fail("sso_domain_check_rate_limited", { retryAfterSeconds: limit.retryAfterSeconds });
  const failed = (cause: "record_not_found" | "resolver_unavailable") =>
    fail("sso_domain_verification_failed", {
      domain: domain.domain,
      cause,
      recordName: ssoDomainTxtName(domain.domain),
      recordValue: ssoDomainTxtValue(domain.verificationToken),
    });
  const present = await recordPresent(deps, domain);
  if (present.found === null) {
    console.warn(`sso domain ${domain.id}: DNS-over-HTTPS lookup failed: ${present.message}`);
    return failed("resolver_unavailable");
  }
  const extra = managerEventData(manager);
  if (!present.found) {
    if (domain.status === "verified") await deps.db.batch([...loseStatements(deps, domain, extra)]);
    else await touchSsoDomainCheckedStatement(deps.db, domain.id, deps.now());
    return failed("record_not_found");
  }
  if (domain.status === "verified") {
    await touchSsoDomainCheckedStatement(deps.db, domain.id, deps.now());
  } else {
    const [marked] = await deps.db.batch([
      markSsoDomainVerifiedStatement(deps.db, domain, deps.now()),
      eventIfChangedStatement(
        deps,
        projectId,
        "sso_domain.verified",
        { teamId: domain.teamId },
        { domain_id: domain.id, domain: domain.domain, ...extra },
      ),
    ]);
    // Nothing changed: another team holds the domain verified (or this claim was verified meanwhile, which is fine).
    if (marked.meta.changes === 0) {
      const now = await findSsoDomain(deps.db, projectId, domainId);
      if (now?.status !== "verified") return fail("sso_domain_already_verified", { domain: domain.domain });
    }
  }
  const updated = await findSsoDomain(deps.db, projectId, domainId);
  return updated ? { ok: true, value: updated } : fail("sso_domain_not_found", { domainId });
}

/**
 * The daily re-check: verified domains not checked in the last 20 hours, least recently checked first,
 * at most this many per run (the rest wait for the next run), this many lookups at a time.
 */
export const RECHECK_BATCH = 500;
const RECHECK_CONCURRENCY = 6;
const RECHECK_AGE_MS = 20 * 3600 * 1000;

/** Re-checks one bounded batch of verified domains; answers how many were checked, lost, and left unknown. */
export async function recheckVerifiedDomains(deps: Deps): Promise<{ checked: number; lost: number; unknown: number }> {
  const due = await listVerifiedSsoDomainsDue(deps.db, deps.now() - RECHECK_AGE_MS, RECHECK_BATCH);
  const tally = { checked: 0, lost: 0, unknown: 0 };
  let next = 0;
  const worker = async () => {
    for (let domain = due[next++]; domain; domain = due[next++]) {
      const present = await recordPresent(deps, domain);
      if (present.found === null) {
        // A resolver failure is not an answer: the domain stays verified and is tried again on the next run.
        tally.unknown++;
        continue;
      }
      tally.checked++;
      if (present.found) {
        await touchSsoDomainCheckedStatement(deps.db, domain.id, deps.now());
        continue;
      }
      const [lost] = await deps.db.batch([...loseStatements(deps, domain)]);
      if (lost.meta.changes > 0) tally.lost++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(RECHECK_CONCURRENCY, due.length) }, worker));
  return tally;
}
