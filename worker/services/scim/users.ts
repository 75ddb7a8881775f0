/**
 * SCIM Users of a connection (RFC 7644 §3.3–§3.6; issue 31). The resource is the connection's identity
 * row. Creating one makes a Doorman user (or links the one who signs in with that email, when the
 * email's domain is verified by the connection's team: the team proved it owns the domain, so its IdP
 * speaks for those addresses; otherwise a new user whose email is kept unverified and not used to sign
 * in, never merged with anyone) with the team membership. Every write is ONE batch whose first
 * statement is a compare-and-set on the identity's version; active=false and DELETE remove the
 * membership and every session of the user in that same batch (membership.ts).
 */
import { abortUnlessChangedStatement, isLostCompareAndSet } from "../../db/queries/scim-compare-and-set";
import { bumpGroupsOfIdentityStatement, type IdentityGroup, listGroupsOfIdentities } from "../../db/queries/scim-groups";
import { findVerifiedDomainOfEmail } from "../../db/queries/sso-domains";
import {
  deleteSsoIdentityIfVersionStatement,
  findSsoIdentity,
  findSsoIdentityByUserName,
  findSsoIdentityOfUser,
  insertSsoIdentityStatement,
  listSsoIdentitiesPage,
  type SsoIdentityRow,
  updateSsoIdentityIfVersionStatement,
} from "../../db/queries/sso-identities";
import { isTeamMember } from "../../db/queries/teams";
import { findUserRecordByAuthEmail, isUniqueViolation, updateUserStatement } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventStatement } from "../events";
import type { BatchItem } from "../permissions";
import { createUser } from "../users";
import type { ScimCaller } from "./auth";
import { attempt, type ScimProblem, scimProblem } from "./errors";
import { userFilterConditions } from "./list-filter";
import { joinTeamStatements, leaveTeamStatements, type Member } from "./membership";
import { isObject, type JsonObject, normalizeUser, type UserAttributes } from "./normalize";
import { applyPatch, readPatchRequest } from "./patch";
import { checkIfMatch, type IfMatch, readPage, retryLostWrites } from "./requests";
import { ENTERPRISE_USER_RESOURCE_SCHEMA, USER_RESOURCE_SCHEMA } from "./schema-definitions";
import { displayNameOf, emailOf } from "./user-profile";
import { userAttributesOf } from "./views";

export type ScimUser = { identity: SsoIdentityRow; groups: IdentityGroup[] };
export type ScimUserResult = { ok: true } & ScimUser;
type Batch = [BatchItem, ...BatchItem[]];

const notFound = (id: string) => scimProblem(404, `User ${id} not found.`);
const userNameTaken = (userName: string) => scimProblem(409, `A User with userName ${userName} already exists.`, "uniqueness");

async function loaded(deps: Deps, identity: SsoIdentityRow): Promise<ScimUserResult> {
  return { ok: true, identity, groups: await listGroupsOfIdentities(deps.db, [identity.id]) };
}

async function reload(deps: Deps, caller: ScimCaller, id: string): Promise<ScimUserResult | ScimProblem> {
  const identity = await findSsoIdentity(deps.db, caller.connection.id, id);
  return identity ? loaded(deps, identity) : notFound(id);
}

function eventData(caller: ScimCaller, identityId: string, extra: Record<string, unknown> = {}) {
  return { connection_id: caller.connection.id, identity_id: identityId, ...extra };
}

export async function getScimUser(deps: Deps, caller: ScimCaller, id: string): Promise<ScimUserResult | ScimProblem> {
  return reload(deps, caller, id);
}

export type ScimUserPage = { ok: true; total: number; startIndex: number; users: ScimUser[] };

export async function listScimUsers(
  deps: Deps,
  caller: ScimCaller,
  query: { filter?: string; startIndex?: string; count?: string },
): Promise<ScimUserPage | ScimProblem> {
  const read = attempt(() => ({ conditions: userFilterConditions(query.filter), page: readPage(query) }));
  if (!read.ok) return read;
  const { conditions, page } = read.value;
  const { rows, total } = await listSsoIdentitiesPage(deps.db, caller.connection.id, conditions, page.offset, page.limit);
  const groups = await listGroupsOfIdentities(
    deps.db,
    rows.map((r) => r.id),
  );
  return {
    ok: true,
    total,
    startIndex: page.startIndex,
    users: rows.map((identity) => ({ identity, groups: groups.filter((g) => g.identityId === identity.id) })),
  };
}

// ---- create -------------------------------------------------------------------------------------

export async function createScimUser(deps: Deps, caller: ScimCaller, body: unknown): Promise<ScimUserResult | ScimProblem> {
  const parsed = attempt(() => normalizeUser(body));
  if (!parsed.ok) return parsed;
  // A second round only when someone signed up with the (vouched-for) email meanwhile: then it links.
  for (let round = 0; round < 2; round++) {
    const outcome = await createOnce(deps, caller, parsed.value);
    if (outcome !== "email_taken") return outcome;
  }
  return userNameTaken(parsed.value.userName);
}

async function createOnce(deps: Deps, caller: ScimCaller, attrs: UserAttributes): Promise<ScimUserResult | ScimProblem | "email_taken"> {
  const { project, connection } = caller;
  const userNameKey = attrs.userName.toLowerCase();
  if (await findSsoIdentityByUserName(deps.db, connection.id, userNameKey)) return userNameTaken(attrs.userName);
  const email = emailOf(attrs.resource);
  const domain = email ? await findVerifiedDomainOfEmail(deps.db, project.id, email) : null;
  // Only the team that verified the domain vouches for its addresses: another team's IdP may assert any email.
  const vouched = domain !== null && domain.teamId === connection.teamId;
  const identityId = deps.random.uuid();
  const statements = (userId: string, alreadyMember: boolean): BatchItem[] => {
    const now = deps.now();
    const member: Member = { identityId, userId };
    return [
      insertSsoIdentityStatement(deps.db, {
        id: identityId,
        projectId: project.id,
        connectionId: connection.id,
        userId,
        subject: null,
        userName: userNameKey,
        externalId: attrs.externalId,
        active: attrs.active,
        scimResource: attrs.resource,
        version: 1,
        createdAt: now,
        updatedAt: now,
      }),
      ...(attrs.active ? joinTeamStatements(deps, caller, member, [], alreadyMember) : []),
      eventStatement(deps, project.id, "scim.user_created", { userId, teamId: connection.teamId }, eventData(caller, identityId)),
    ];
  };
  if (email && vouched) {
    const existing = await findUserRecordByAuthEmail(deps.db, project.id, email);
    if (existing) {
      const userId = existing.user.id;
      if (await findSsoIdentityOfUser(deps.db, connection.id, userId))
        return scimProblem(409, `The user with email ${email} is already provisioned under another userName.`, "uniqueness");
      const alreadyMember = await isTeamMember(deps.db, connection.teamId, userId);
      const displayName = displayNameOf(attrs.resource);
      // The IdP is the source of the provisioned user's name, as on every later write.
      const rename = displayName !== null ? [updateUserStatement(deps.db, project.id, userId, { displayName })] : [];
      try {
        await deps.db.batch([...statements(userId, alreadyMember), ...rename] as Batch);
      } catch (err) {
        // The unique indexes decide a race with another create of this userName or user.
        if (isUniqueViolation(err)) return userNameTaken(attrs.userName);
        throw err;
      }
      return reload(deps, caller, identityId);
    }
  }
  let created: Awaited<ReturnType<typeof createUser>>;
  try {
    created = await createUser(
      deps,
      project,
      {
        primaryEmail: email,
        // A vouched-for address is the account's sign-in email; any other is kept, unverified, for contact only.
        primaryEmailVerified: vouched,
        primaryEmailAuthEnabled: vouched,
        displayName: displayNameOf(attrs.resource),
      },
      (userId) => statements(userId, false),
    );
  } catch (err) {
    if (isUniqueViolation(err)) return userNameTaken(attrs.userName);
    throw err;
  }
  if (!created.ok) {
    if (created.reason === "email_taken") return vouched ? "email_taken" : userNameTaken(attrs.userName);
    throw new Error(`SCIM user creation failed unexpectedly: ${created.reason}`);
  }
  return reload(deps, caller, identityId);
}

// ---- replace and patch --------------------------------------------------------------------------

/** The top-level attributes whose value differs. */
function changedFields(before: JsonObject, after: JsonObject): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

/** One attempt at writing `next` over `current`: "lost" when another write got there first. */
async function writeUser(
  deps: Deps,
  caller: ScimCaller,
  current: SsoIdentityRow,
  next: UserAttributes,
): Promise<ScimUserResult | ScimProblem | "lost"> {
  const { project, connection } = caller;
  const userNameKey = next.userName.toLowerCase();
  if (userNameKey !== current.userName) {
    const holder = await findSsoIdentityByUserName(deps.db, connection.id, userNameKey);
    if (holder && holder.id !== current.id) return userNameTaken(next.userName);
  }
  const before = isObject(current.scimResource) ? current.scimResource : {};
  const fields = changedFields(before, next.resource);
  const activeChanged = current.active !== next.active;
  if (fields.length === 0 && !activeChanged) return loaded(deps, current);
  const member: Member = { identityId: current.id, userId: current.userId };
  const subject = { userId: current.userId, teamId: connection.teamId };
  const statements: BatchItem[] = [
    updateSsoIdentityIfVersionStatement(deps.db, current.id, current.version, {
      userName: userNameKey,
      externalId: next.externalId,
      active: next.active,
      scimResource: next.resource,
      updatedAt: deps.now(),
    }),
    abortUnlessChangedStatement(deps.db),
  ];
  if (activeChanged && !next.active) {
    statements.push(
      ...leaveTeamStatements(deps, caller, member),
      eventStatement(deps, project.id, "scim.user_deactivated", subject, eventData(caller, current.id)),
    );
  } else if (activeChanged) {
    const [groups, alreadyMember] = await Promise.all([
      listGroupsOfIdentities(deps.db, [current.id]),
      isTeamMember(deps.db, connection.teamId, current.userId),
    ]);
    statements.push(
      ...joinTeamStatements(
        deps,
        caller,
        member,
        groups.map((g) => g.displayName),
        alreadyMember,
      ),
      eventStatement(deps, project.id, "scim.user_reactivated", subject, eventData(caller, current.id)),
    );
  }
  const displayName = displayNameOf(next.resource);
  // The IdP is the source of the provisioned user's name; the account's email is set once, at creation.
  if (displayName !== null && displayName !== displayNameOf(before))
    statements.push(updateUserStatement(deps.db, project.id, current.userId, { displayName }));
  if (fields.length)
    statements.push(eventStatement(deps, project.id, "scim.user_updated", subject, eventData(caller, current.id, { fields })));
  try {
    await deps.db.batch(statements as Batch);
  } catch (err) {
    if (isLostCompareAndSet(err)) return "lost";
    if (isUniqueViolation(err)) return userNameTaken(next.userName);
    throw err;
  }
  return reload(deps, caller, current.id);
}

/** PUT: the body replaces the User (RFC 7644 §3.5.1); with If-Match, only the version the client holds. */
export async function replaceScimUser(
  deps: Deps,
  caller: ScimCaller,
  id: string,
  body: unknown,
  ifMatch: IfMatch,
): Promise<ScimUserResult | ScimProblem> {
  const parsed = attempt(() => normalizeUser(body));
  if (!parsed.ok) return parsed;
  if (isObject(body) && typeof body.id === "string" && body.id !== id) return scimProblem(400, "id cannot be changed.", "mutability");
  return retryLostWrites(async () => {
    const current = await findSsoIdentity(deps.db, caller.connection.id, id);
    if (!current) return notFound(id);
    return checkIfMatch(ifMatch, current.version) ?? writeUser(deps, caller, current, parsed.value);
  });
}

const USER_PATCH_SCHEMAS = { core: USER_RESOURCE_SCHEMA, extensions: [ENTERPRISE_USER_RESOURCE_SCHEMA] };

/** PATCH: the operations are applied to the User as it is when the write wins (re-read after a lost race). */
export async function patchScimUser(
  deps: Deps,
  caller: ScimCaller,
  id: string,
  body: unknown,
  ifMatch: IfMatch,
): Promise<ScimUserResult | ScimProblem> {
  const ops = attempt(() => readPatchRequest(body));
  if (!ops.ok) return ops;
  return retryLostWrites(async () => {
    const current = await findSsoIdentity(deps.db, caller.connection.id, id);
    if (!current) return notFound(id);
    const precondition = checkIfMatch(ifMatch, current.version);
    if (precondition) return precondition;
    const next = attempt(() => normalizeUser(applyPatch(userAttributesOf(current), ops.value, USER_PATCH_SCHEMAS, current.id)));
    if (!next.ok) return next;
    return writeUser(deps, caller, current, next.value);
  });
}

// ---- delete -------------------------------------------------------------------------------------

/** DELETE: the identity goes (the Doorman user stays), with the membership and every session of the user. */
export async function deleteScimUser(deps: Deps, caller: ScimCaller, id: string, ifMatch: IfMatch): Promise<{ ok: true } | ScimProblem> {
  const { project, connection } = caller;
  return retryLostWrites(async () => {
    const current = await findSsoIdentity(deps.db, connection.id, id);
    if (!current) return notFound(id);
    const precondition = checkIfMatch(ifMatch, current.version);
    if (precondition) return precondition;
    const member: Member = { identityId: current.id, userId: current.userId };
    const statements: BatchItem[] = [
      // The groups it leaves (by cascade) change too: their versions move with it.
      bumpGroupsOfIdentityStatement(deps.db, current.id, deps.now()),
      deleteSsoIdentityIfVersionStatement(deps.db, current.id, current.version),
      abortUnlessChangedStatement(deps.db),
      ...leaveTeamStatements(deps, caller, member),
      eventStatement(
        deps,
        project.id,
        "scim.user_deleted",
        { userId: current.userId, teamId: connection.teamId },
        eventData(caller, current.id),
      ),
    ];
    try {
      await deps.db.batch(statements as Batch);
    } catch (err) {
      if (isLostCompareAndSet(err)) return "lost";
      throw err;
    }
    return { ok: true as const };
  });
}
