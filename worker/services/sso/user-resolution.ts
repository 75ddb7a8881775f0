/**
 * Who an SSO profile signs in as (issue 31, FLOW; docs/enterprise-sso.md "Who signs in"):
 * 1. the connection's identity with this subject (refused when deactivated);
 * 2. else a SCIM-provisioned identity not signed in yet whose userName is the subject or the email (claimed now);
 * 3. else, when the email's domain is VERIFIED by the connection's team, the user who signs in with that
 *    email (linked), or a new user with that email verified; otherwise a new user whose copy of the
 *    email is unverified and not used for sign-in, never merged with anyone (an IdP can assert any address);
 * 4. JIT: a verified domain with auto_join adds the user to the team with its default member permissions.
 */
import type { ProjectRow } from "../../db/queries/projects";
import type { SsoConnectionRow } from "../../db/queries/sso-connections";
import { findVerifiedDomainOfEmail, type SsoDomainRow } from "../../db/queries/sso-domains";
import {
  claimIdentitySubject,
  findIdentityBySubject,
  findIdentityOfUser,
  findUnclaimedIdentity,
  insertIdentityStatement,
  type SsoIdentityRow,
  touchIdentitySignIn,
} from "../../db/queries/sso-sign-in";
import { isTeamMember } from "../../db/queries/teams";
import { findUserRecordByAuthEmail, isUniqueViolation } from "../../db/queries/users";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { addMember } from "../team-memberships";
import { createUser, normaliseEmail } from "../users";
import type { SsoProfile } from "./types";

export type SsoUserResult =
  | { ok: true; userId: string; isNewUser: boolean; joinedTeam: boolean }
  | Problem<"sso_user_deactivated" | "sso_identity_conflict" | "sign_up_disabled" | "email_taken">;

type Found = { ok: true; userId: string; isNewUser: boolean } | Exclude<SsoUserResult, { ok: true }>;

export async function resolveSsoUser(
  deps: Deps,
  project: ProjectRow,
  connection: SsoConnectionRow,
  profile: SsoProfile,
): Promise<SsoUserResult> {
  const email = profile.email ? normaliseEmail(profile.email) : null;
  // Only the connection's own team speaks for a domain: another team's verified claim proves nothing here.
  const verified = email ? await findVerifiedDomainOfEmail(deps.db, project.id, email) : null;
  const domain = verified && verified.teamId === connection.teamId ? verified : null;

  const found = await findOrCreate(deps, project, connection, { ...profile, email }, domain);
  if (!found.ok) return found;
  const joinedTeam = domain?.autoJoin ? await joinTeamOnce(deps, project, connection.teamId, found.userId) : false;
  return { ...found, joinedTeam };
}

async function findOrCreate(
  deps: Deps,
  project: ProjectRow,
  connection: SsoConnectionRow,
  profile: SsoProfile,
  domain: SsoDomainRow | null,
): Promise<Found> {
  const known = await signInAsIdentity(deps, connection, profile);
  if (known) return known;

  if (domain && profile.email) {
    // The team proved it owns the domain, so its IdP speaks for these addresses: link the user who signs in with it.
    const owner = await findUserRecordByAuthEmail(deps.db, project.id, profile.email);
    if (owner) return linkIdentity(deps, project, connection, profile, owner.user.id);
  }
  if (!readProjectConfig(project.config).sign_up_enabled) return fail("sign_up_disabled");
  const identityId = deps.random.uuid();
  const now = deps.now();
  try {
    const created = await createUser(
      deps,
      project,
      {
        primaryEmail: profile.email,
        // Verified and usable for sign-in only when the team owns the domain; otherwise a plain, unverified copy.
        primaryEmailVerified: domain !== null,
        primaryEmailAuthEnabled: domain !== null,
        displayName: profile.displayName,
        signUp: { method: "sso", provider: `sso:${connection.id}` },
      },
      // The identity in the user's own batch: a concurrent first sign-in of the same subject loses the whole batch.
      (userId) => [identityStatement(deps, project, connection, profile, userId, identityId, now)],
    );
    if (created.ok) return { ok: true, userId: created.record.user.id, isNewUser: true };
    if (created.reason !== "email_taken") throw new Error(`SSO user creation failed: ${created.reason}`);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  // Lost a race to a concurrent first sign-in of this subject: sign in as the user it created.
  const winner = await signInAsIdentity(deps, connection, profile);
  return winner ?? fail("email_taken", { email: profile.email ?? "" });
}

/** Steps 1 and 2: the identity the connection already knows (by subject, or SCIM-provisioned by userName); null when none. */
async function signInAsIdentity(deps: Deps, connection: SsoConnectionRow, profile: SsoProfile): Promise<Found | null> {
  const bySubject = await findIdentityBySubject(deps.db, connection.id, profile.subject);
  if (bySubject) return identitySignIn(deps, bySubject);
  const names = profile.email ? [profile.subject, profile.email] : [profile.subject];
  const provisioned = await findUnclaimedIdentity(deps.db, connection.id, names);
  if (!provisioned) return null;
  if (!provisioned.active) return fail("sso_user_deactivated");
  // Compare-and-set: of two first sign-ins only one sets the subject; the other finds it by subject.
  if (await claimIdentitySubject(deps.db, provisioned.id, profile.subject, deps.now()))
    return { ok: true, userId: provisioned.userId, isNewUser: false };
  const claimed = await findIdentityBySubject(deps.db, connection.id, profile.subject);
  return claimed ? identitySignIn(deps, claimed) : null;
}

async function identitySignIn(deps: Deps, identity: SsoIdentityRow): Promise<Found> {
  // Deprovisioned by the IdP (SCIM active:false): the connection no longer speaks for this user.
  if (!identity.active) return fail("sso_user_deactivated");
  await touchIdentitySignIn(deps.db, identity.id, deps.now());
  return { ok: true, userId: identity.userId, isNewUser: false };
}

async function linkIdentity(
  deps: Deps,
  project: ProjectRow,
  connection: SsoConnectionRow,
  profile: SsoProfile,
  userId: string,
): Promise<Found> {
  // One identity per user and connection: a second subject claiming the same user is the IdP's mix-up, not a link.
  if (await findIdentityOfUser(deps.db, connection.id, userId)) return fail("sso_identity_conflict");
  try {
    await identityStatement(deps, project, connection, profile, userId, deps.random.uuid(), deps.now());
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const winner = await signInAsIdentity(deps, connection, profile);
    return winner ?? fail("sso_identity_conflict");
  }
  return { ok: true, userId, isNewUser: false };
}

function identityStatement(
  deps: Deps,
  project: ProjectRow,
  connection: SsoConnectionRow,
  profile: SsoProfile,
  userId: string,
  id: string,
  now: number,
) {
  return insertIdentityStatement(deps.db, {
    id,
    projectId: project.id,
    connectionId: connection.id,
    userId,
    subject: profile.subject,
    userName: profile.email ?? profile.subject,
    active: true,
    lastSignInAt: now,
    createdAt: now,
    updatedAt: now,
  });
}

/** JIT membership: joins with the team's default member permissions unless already a member. True when this call added it. */
async function joinTeamOnce(deps: Deps, project: ProjectRow, teamId: string, userId: string): Promise<boolean> {
  if (await isTeamMember(deps.db, teamId, userId)) return false;
  const added = await addMember(deps, project, teamId, userId);
  return added.ok;
}
