/**
 * SSO enforcement (issue 31, FLOW): a team that verified a domain and turned `enforce_sso` on has its
 * IdP decide who signs in with those addresses. Every other sign-in method (password sign-in and
 * sign-up, OTP / magic link, passkey, OAuth) calls this with the email being used and, once known, the
 * user's primary email; an email at such a domain is refused with SSO_REQUIRED (and the connection to
 * continue with), which the SDK's sign-in page turns into its SSO step. SSO sign-in itself, sessions a
 * back end makes and admin impersonation never come through here.
 */
import { findVerifiedDomainOfEmail, type SsoDomainRow } from "../../db/queries/sso-domains";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { routeEmail } from "./routing";

export type SsoEnforcement = { ok: true } | Problem<"sso_required">;

/** Refuses when one of `emails` (null/undefined ignored) is at a verified domain that enforces SSO. */
export async function checkSsoEnforcement(
  deps: Deps,
  projectId: string,
  ...emails: (string | null | undefined)[]
): Promise<SsoEnforcement> {
  for (const email of new Set(emails.filter((e): e is string => !!e).map((e) => e.trim().toLowerCase()))) {
    const enforced = await ssoEnforcementOfDomain(deps, projectId, email, await findVerifiedDomainOfEmail(deps.db, projectId, email));
    if (!enforced.ok) return enforced;
  }
  return { ok: true };
}

/** The same for one email whose domain's verified claim (or null) the caller already read (a password sign-in's batch). */
export async function ssoEnforcementOfDomain(
  deps: Deps,
  projectId: string,
  email: string,
  domain: SsoDomainRow | null,
): Promise<SsoEnforcement> {
  if (!domain?.enforceSso) return { ok: true };
  const route = await routeEmail(deps, projectId, email.trim().toLowerCase());
  return fail("sso_required", { connectionId: route?.connection?.id ?? null });
}
