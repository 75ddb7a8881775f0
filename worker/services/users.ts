/**
 * Users: create (with primary email, password and the personal team when the project wants
 * one), update, delete, list. Multi-row writes go out as one D1 batch, so they land whole.
 */

import type { BatchItem } from "drizzle-orm/batch";
import { hashPassword, isBcryptHash } from "../crypto/password";
import { type ContactChannelRow, listChannelsOfUser, updateChannelStatement } from "../db/queries/contact-channels";
import { deleteRecoveryCodesStatement } from "../db/queries/mfa-recovery-codes";
import type { SealedProviderTokens } from "../db/queries/oauth-accounts";
import type { ProjectRow } from "../db/queries/projects";
import { deleteOtherSessionsOfUser } from "../db/queries/sessions";
import {
  insertMembershipStatement,
  insertTeamStatement,
  isTeamMember,
  listTeamsOfProject,
  renameTeamsOfMemberStatement,
} from "../db/queries/teams";
import {
  deleteUserStatement,
  findUserRecord,
  insertContactChannelStatement,
  insertUserStatement,
  isAuthEmailTaken,
  isUniqueViolation,
  type ListUsersOptions,
  listUserRecords,
  type UserRecord,
  updatePrimaryEmailStatement,
  updateUserStatement,
} from "../db/queries/users";
import type { users } from "../db/schema";
import { sealTotpSecret } from "./auth/mfa";
import { type PasswordProblem, vetNewPassword } from "./auth/password-rules";
import type { Deps } from "./deps";
import { eventIfChangedStatement, eventStatement, type SignInMethod } from "./events";
import { isOAuthAccountViolation, linkStatements, type OAuthProviderProblem } from "./oauth/linked-accounts";
import { cutUserSessions } from "./outage/revocation-cuts";
import { defaultTeamGrantStatements, defaultUserGrantStatements } from "./permissions";
import { readProjectConfig } from "./project-config/flat";
import { fail, type Problem } from "./result";

// The password rules live in password-rules.ts; re-exported for existing importers.
export { checkPasswordLength, type PasswordProblem } from "./auth/password-rules";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export type NewUserInput = {
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  primaryEmailAuthEnabled?: boolean;
  password?: string | null;
  passwordHash?: string | null;
  displayName?: string | null;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  isAnonymous?: boolean;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  totpSecretBase64?: string | null;
  restrictedByAdmin?: boolean;
  restrictedByAdminReason?: string | null;
  restrictedByAdminPrivateDetails?: string | null;
  countryCode?: string | null;
  riskScores?: unknown;
  /** How the user signed up, for the user.created event (not stored on the user); server/admin when absent. */
  signUp?: { method: SignUpMethod; provider?: string; turnstile_result?: "ok" | "invalid" | "error" };
};

export type SignUpMethod = SignInMethod | "admin";

/** Server create (`oauth_providers`): provider identities the new user signs in with. */
export type NewUserOAuthProvider = {
  providerConfigId: string;
  accountId: string;
  email: string | null;
  /** Sealed provider tokens, when the user comes from an OAuth sign-in. */
  tokens?: SealedProviderTokens;
};

export type CreateUserResult = { ok: true; record: UserRecord } | PasswordProblem | Problem<"email_taken" | "invalid_password_hash">;

/**
 * Resolves password/password_hash input into a stored hash (or a problem). The one place a new plaintext
 * password reaches a user row (sign-up's createUser, set, update, reset and the server API's create and
 * update all come through here), so the rules and the breach check are never skipped.
 */
async function resolvePasswordHash(
  deps: Deps,
  project: ProjectRow,
  input: { password?: string | null; passwordHash?: string | null },
  context: { email: string | null; userId: string | null },
) {
  if (input.password) {
    // Every new plaintext password meets the password rules; an imported hash is not a password.
    // The server/admin API (POST /users, PATCH /users/{id} with `password`) is checked too: the user signs
    // in with that password like any other, and a back end that must import one can send `password_hash`.
    const rules = await vetNewPassword(deps, project, input.password, context);
    if (!rules.ok) return rules;
    return { ok: true as const, hash: await hashPassword(input.password) };
  }
  if (input.passwordHash) {
    if (!isBcryptHash(input.passwordHash)) return fail("invalid_password_hash");
    return { ok: true as const, hash: input.passwordHash };
  }
  return { ok: true as const, hash: null };
}

/** Creates a user with its primary email and (when configured) a personal team, in one batch. */
export async function createUser(
  deps: Deps,
  project: ProjectRow,
  input: NewUserInput,
  alongside?: (userId: string) => BatchItem<"sqlite">[],
): Promise<CreateUserResult> {
  // Without provider links there is no link problem to report.
  return (await createUserWithOAuthProviders(deps, project, input, [], alongside)) as CreateUserResult;
}

/** createUser plus linked provider identities (sign-in and connected accounts), in the same batch. */
export async function createUserWithOAuthProviders(
  deps: Deps,
  project: ProjectRow,
  input: NewUserInput,
  oauthProviders: NewUserOAuthProvider[],
  /** More statements for the user's batch, given its id (an SSO sign-in's identity row: services/sso/user-resolution.ts). */
  alongside: (userId: string) => BatchItem<"sqlite">[] = () => [],
): Promise<CreateUserResult | OAuthProviderProblem> {
  const config = readProjectConfig(project.config);
  const now = deps.now();
  const userId = deps.random.uuid();
  const email = input.primaryEmail ? normaliseEmail(input.primaryEmail) : null;
  // Off unless asked for, as the wire: a server-created address signs in only when the caller says so.
  const authEnabled = input.primaryEmailAuthEnabled ?? false;
  if (email && authEnabled && (await isAuthEmailTaken(deps.db, project.id, email))) return fail("email_taken", { email });
  const password = await resolvePasswordHash(deps, project, input, { email, userId: null });
  if (!password.ok) return password;

  const isAnonymous = input.isAnonymous ?? false;
  // Anonymous users get theirs too ("Personal Team", named after them when they sign up), as the wire.
  const wantsTeam = config.create_team_on_sign_up;
  const teamId = wantsTeam ? deps.random.uuid() : null;
  const statements: BatchItem<"sqlite">[] = [
    insertUserStatement(deps.db, {
      id: userId,
      projectId: project.id,
      displayName: input.displayName ?? null,
      profileImageUrl: input.profileImageUrl ?? null,
      passwordHash: password.hash,
      signedUpAt: now,
      lastActiveAt: now,
      clientMetadata: input.clientMetadata ?? null,
      clientReadOnlyMetadata: input.clientReadOnlyMetadata ?? null,
      serverMetadata: input.serverMetadata ?? null,
      selectedTeamId: null,
      isAnonymous,
      totpSecret: await sealTotpSecret(deps, input.totpSecretBase64 ?? null),
      otpAuthEnabled: input.otpAuthEnabled ?? false,
      passkeyAuthEnabled: input.passkeyAuthEnabled ?? false,
      restrictedByAdmin: input.restrictedByAdmin ?? false,
      restrictedByAdminReason: input.restrictedByAdminReason ?? null,
      restrictedByAdminPrivateDetails: input.restrictedByAdminPrivateDetails ?? null,
      countryCode: input.countryCode ?? null,
      riskScores: input.riskScores ?? null,
    }),
    ...defaultUserGrantStatements(deps, project, userId),
  ];
  if (email) {
    statements.push(
      insertContactChannelStatement(deps.db, {
        id: deps.random.uuid(),
        projectId: project.id,
        userId,
        type: "email",
        value: email,
        isVerified: input.primaryEmailVerified ?? false,
        isPrimary: true,
        usedForAuth: authEnabled,
        createdAt: now,
      }),
    );
  }
  if (teamId) statements.push(...personalTeamStatements(deps, project, userId, teamId, personalTeamName(input.displayName ?? null, email)));
  if (oauthProviders.length > 0) {
    const links = await linkStatements(
      deps,
      project,
      userId,
      oauthProviders.map((p) => ({ ...p, allowSignIn: true, allowConnectedAccounts: true })),
    );
    if (!links.ok) return links;
    statements.push(...links.statements);
  }
  statements.push(...alongside(userId));
  const signUp = input.signUp ?? { method: deps.audit.actorType === "admin" ? "admin" : "server" };
  statements.push(eventStatement(deps, project.id, "user.created", { userId }, { ...signUp, is_anonymous: isAnonymous }));
  try {
    await deps.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (err) {
    // The partial unique index on sign-in identities decides races between two creations.
    if (isOAuthAccountViolation(err)) return fail("linked_account_id_used_for_sign_in");
    // The partial unique index on auth emails decides races between two sign-ups.
    if (email && isUniqueViolation(err)) return fail("email_taken", { email });
    throw err;
  }
  const record = await findUserRecord(deps.db, project.id, userId);
  if (!record) throw new Error("user vanished right after creation");
  return { ok: true, record };
}

/**
 * The personal team of `create_team_on_sign_up`: the team, the membership with the creator
 * defaults, and the user's selection of it, for the caller's batch.
 */
function personalTeamStatements(deps: Deps, project: ProjectRow, userId: string, teamId: string, name: string): BatchItem<"sqlite">[] {
  const now = deps.now();
  return [
    insertTeamStatement(deps.db, { id: teamId, projectId: project.id, displayName: name, createdAt: now }),
    insertMembershipStatement(deps.db, { projectId: project.id, teamId, userId, createdAt: now }),
    ...defaultTeamGrantStatements(deps, project, teamId, userId, "creator"),
    updateUserStatement(deps.db, project.id, userId, { selectedTeamId: teamId }),
    eventStatement(deps, project.id, "team.created", { teamId }, { personal: true }),
    eventStatement(deps, project.id, "team_membership.created", { teamId, userId }, { creator: true }),
  ];
}

/**
 * An anonymous user becoming a real one: its personal team, still "Personal Team", takes the
 * owner's name (a team the user renamed keeps its name), as the wire. An anonymous user without a
 * team (signed up before anonymous users got one) gets its personal team now.
 */
function upgradeTeamStatements(
  deps: Deps,
  project: ProjectRow,
  current: UserRecord,
  owner: { displayName: string | null; email: string | null },
): BatchItem<"sqlite">[] {
  if (!current.user.isAnonymous) return [];
  const name = personalTeamName(owner.displayName, owner.email);
  const statements: BatchItem<"sqlite">[] = [
    renameTeamsOfMemberStatement(deps.db, project.id, current.user.id, DEFAULT_PERSONAL_TEAM_NAME, name),
  ];
  if (!current.user.selectedTeamId && readProjectConfig(project.config).create_team_on_sign_up)
    statements.push(...personalTeamStatements(deps, project, current.user.id, deps.random.uuid(), name));
  return statements;
}

/** The personal team of a user with neither display name nor email (an anonymous one). */
const DEFAULT_PERSONAL_TEAM_NAME = "Personal Team";

export function personalTeamName(displayName: string | null, email: string | null): string {
  // Wire: "{display name or email}'s Team"; a user with neither gets a plain "Personal Team".
  const owner = displayName ?? email;
  return owner ? `${owner}'s Team` : DEFAULT_PERSONAL_TEAM_NAME;
}

export type UserUpdate = Omit<NewUserInput, "isAnonymous"> & { selectedTeamId?: string | null; isAnonymous?: false };

export type UpdateUserResult =
  | { ok: true; record: UserRecord }
  | Problem<"user_not_found">
  | PasswordProblem
  | Problem<"email_taken" | "invalid_password_hash" | "team_not_member" | "primary_email_missing">;

/** Applies a partial update. `undefined` leaves a field alone; `null` clears it. */
export async function updateUser(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  update: UserUpdate,
  options: { keepSessionId?: string | null; passwordEvent?: "password.changed" | "password.reset" } = {},
): Promise<UpdateUserResult> {
  const current = await findUserRecord(deps.db, project.id, userId);
  if (!current) return fail("user_not_found");
  const patch: Partial<typeof users.$inferInsert> = {};
  const set = <K extends keyof typeof patch>(key: K, value: (typeof patch)[K] | undefined) => {
    if (value !== undefined) patch[key] = value;
  };
  set("displayName", update.displayName);
  set("profileImageUrl", update.profileImageUrl);
  set("clientMetadata", update.clientMetadata);
  set("clientReadOnlyMetadata", update.clientReadOnlyMetadata);
  set("serverMetadata", update.serverMetadata);
  set("otpAuthEnabled", update.otpAuthEnabled);
  set("passkeyAuthEnabled", update.passkeyAuthEnabled);
  // Sealed (AES-GCM), never stored raw: the server must read it back to check codes.
  if (update.totpSecretBase64 !== undefined) {
    patch.totpSecret = await sealTotpSecret(deps, update.totpSecretBase64);
    // A new secret starts with no used step (the last one belonged to the old secret's codes).
    patch.totpLastStep = null;
  }
  set("restrictedByAdmin", update.restrictedByAdmin);
  set("restrictedByAdminReason", update.restrictedByAdminReason);
  set("restrictedByAdminPrivateDetails", update.restrictedByAdminPrivateDetails);
  set("countryCode", update.countryCode);
  set("riskScores", update.riskScores);
  if (update.isAnonymous === false) patch.isAnonymous = false;
  if (update.selectedTeamId !== undefined) {
    if (update.selectedTeamId !== null && !(await isTeamMember(deps.db, update.selectedTeamId, userId))) {
      return fail("team_not_member", { teamId: update.selectedTeamId });
    }
    patch.selectedTeamId = update.selectedTeamId;
  }
  let passwordChanged = false;
  if (update.password !== undefined || update.passwordHash !== undefined) {
    if (update.password === null || update.passwordHash === null) patch.passwordHash = null;
    else {
      const email = update.primaryEmail !== undefined ? update.primaryEmail : (current.primaryEmail?.value ?? null);
      const password = await resolvePasswordHash(deps, project, update, { email, userId });
      if (!password.ok) return password;
      patch.passwordHash = password.hash;
    }
    passwordChanged = true;
  }

  const statements: BatchItem<"sqlite">[] = [];
  if (Object.keys(patch).length > 0) statements.push(updateUserStatement(deps.db, project.id, userId, patch));
  const emailStatements = await primaryEmailStatements(deps, project, current, update);
  if ("reason" in emailStatements) return emailStatements;
  statements.push(...emailStatements.statements);
  if (update.isAnonymous === false) {
    const email = update.primaryEmail ? normaliseEmail(update.primaryEmail) : (current.primaryEmail?.value ?? null);
    const displayName = update.displayName !== undefined ? update.displayName : current.user.displayName;
    statements.push(...upgradeTeamStatements(deps, project, current, { displayName, email }));
  }
  if (statements.length > 0) {
    statements.push(...userUpdateEvents(deps, project.id, userId, update, current, options.passwordEvent));
    try {
      await deps.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    } catch (err) {
      if (isUniqueViolation(err) && update.primaryEmail) return fail("email_taken", { email: normaliseEmail(update.primaryEmail) });
      throw err;
    }
  }
  // A new password ends every other session: whoever knew the old one is signed out.
  if (passwordChanged) {
    await deleteOtherSessionsOfUser(deps.db, userId, options.keepSessionId ?? null);
    // Their Durable Objects would still answer a refresh during a D1 outage (services/outage/revocation-cuts.ts).
    cutUserSessions(deps, userId, options.keepSessionId ?? null);
  }
  const record = await findUserRecord(deps.db, project.id, userId);
  return record ? { ok: true, record } : fail("user_not_found");
}

/**
 * The events of one update: a password or TOTP change is its own security event; the other
 * fields make one user.updated with their names only (values — emails, metadata, hashes — stay out of the log).
 */
function userUpdateEvents(
  deps: Deps,
  projectId: string,
  userId: string,
  update: UserUpdate,
  current: UserRecord,
  passwordEvent: "password.changed" | "password.reset" = "password.changed",
) {
  const statements = [];
  const fields = Object.entries(update)
    .filter(([k, v]) => v !== undefined && !["password", "passwordHash", "totpSecretBase64"].includes(k))
    .map(([k]) => k);
  if (update.password !== undefined || update.passwordHash !== undefined) {
    statements.push(
      eventStatement(deps, projectId, passwordEvent, { userId }, { removed: update.password === null || update.passwordHash === null }),
    );
  }
  if (update.totpSecretBase64 !== undefined && Boolean(update.totpSecretBase64) !== Boolean(current.user.totpSecret)) {
    statements.push(eventStatement(deps, projectId, update.totpSecretBase64 ? "mfa.enrolled" : "mfa.removed", { userId }));
    // Recovery codes belong to the TOTP they back up: turning TOTP off ends them.
    if (!update.totpSecretBase64) statements.push(deleteRecoveryCodesStatement(deps.db, userId));
  }
  if (fields.length > 0) statements.push(eventStatement(deps, projectId, "user.updated", { userId }, { fields }));
  return statements;
}

/** The flag a create or update sets to true while the user has no primary email, if any. */
export function flagSetWithoutEmail(input: { primaryEmailVerified?: boolean; primaryEmailAuthEnabled?: boolean }) {
  if (input.primaryEmailAuthEnabled) return "primary_email_auth_enabled" as const;
  if (input.primaryEmailVerified) return "primary_email_verified" as const;
  return null;
}

/**
 * A new primary email: an address the user already has becomes primary (keeping its verification
 * unless told otherwise), any other is added; the old primary stays as a non-primary channel, and
 * `null` demotes it without deleting it (as the wire; unlike the wire, a demoted one stops signing in).
 */
async function primaryEmailStatements(
  deps: Deps,
  project: ProjectRow,
  current: UserRecord,
  update: UserUpdate,
): Promise<Problem<"email_taken" | "primary_email_missing"> | { statements: BatchItem<"sqlite">[] }> {
  const statements: BatchItem<"sqlite">[] = [];
  const userId = current.user.id;
  const hasEmail = update.primaryEmail !== undefined ? update.primaryEmail !== null : current.primaryEmail !== null;
  const flagWithoutEmail = !hasEmail && flagSetWithoutEmail(update);
  if (flagWithoutEmail) return fail("primary_email_missing", { field: flagWithoutEmail });
  // A replaced primary email stays as a contact channel but no longer signs in: the user moved away from it.
  const demote = updatePrimaryEmailStatement(deps.db, userId, { isPrimary: false, usedForAuth: false });
  if (update.primaryEmail === null) {
    statements.push(demote);
    return { statements };
  }
  if (update.primaryEmail !== undefined) {
    const email = normaliseEmail(update.primaryEmail);
    if (current.primaryEmail?.value !== email) {
      const authEnabled = update.primaryEmailAuthEnabled ?? current.primaryEmail?.usedForAuth ?? true;
      if (authEnabled && (await isAuthEmailTaken(deps.db, project.id, email, userId))) return fail("email_taken", { email });
      statements.push(demote);
      const owned = (await listChannelsOfUser(deps.db, project.id, userId)).find((channel) => channel.value === email);
      if (owned) {
        const patch: Partial<ContactChannelRow> = { isPrimary: true, usedForAuth: authEnabled };
        if (update.primaryEmailVerified !== undefined) patch.isVerified = update.primaryEmailVerified;
        statements.push(updateChannelStatement(deps.db, owned.id, patch));
        return { statements };
      }
      statements.push(
        insertContactChannelStatement(deps.db, {
          id: deps.random.uuid(),
          projectId: project.id,
          userId,
          type: "email",
          value: email,
          isVerified: update.primaryEmailVerified ?? false,
          isPrimary: true,
          usedForAuth: authEnabled,
          createdAt: deps.now(),
        }),
      );
      return { statements };
    }
  }
  if (current.primaryEmail && (update.primaryEmailVerified !== undefined || update.primaryEmailAuthEnabled !== undefined)) {
    if (
      update.primaryEmailAuthEnabled &&
      !current.primaryEmail.usedForAuth &&
      (await isAuthEmailTaken(deps.db, project.id, current.primaryEmail.value, userId))
    ) {
      return fail("email_taken", { email: current.primaryEmail.value });
    }
    const patch: { isVerified?: boolean; usedForAuth?: boolean } = {};
    if (update.primaryEmailVerified !== undefined) patch.isVerified = update.primaryEmailVerified;
    if (update.primaryEmailAuthEnabled !== undefined) patch.usedForAuth = update.primaryEmailAuthEnabled;
    statements.push(updatePrimaryEmailStatement(deps.db, userId, patch));
  }
  return { statements };
}

export async function removeUser(deps: Deps, projectId: string, userId: string): Promise<boolean> {
  // The teams go into the event: the reference's user.deleted webhook names them, and they are gone after.
  const teamIds = (await listTeamsOfProject(deps.db, projectId, userId)).map((t) => t.id);
  const [deleted] = await deps.db.batch([
    deleteUserStatement(deps.db, projectId, userId),
    eventIfChangedStatement(deps, projectId, "user.deleted", { userId }, { team_ids: teamIds }),
  ]);
  // The user's sessions went with it: their Durable Objects refuse outage refreshes too (services/outage/revocation-cuts.ts).
  cutUserSessions(deps, userId);
  return (deleted as unknown[]).length > 0;
}

export async function listUsers(deps: Deps, options: ListUsersOptions) {
  return listUserRecords(deps.db, options);
}

/**
 * Turns an anonymous user into a regular one in place (same id, so its data stays with it):
 * one batch that clears is_anonymous, applies `patch` and adds the primary sign-in email.
 */
export async function upgradeAnonymousUser(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  input: { email: string; emailVerified: boolean; patch?: Partial<typeof users.$inferInsert>; method: SignInMethod },
): Promise<{ ok: true } | Problem<"email_taken">> {
  const email = normaliseEmail(input.email);
  if (await isAuthEmailTaken(deps.db, project.id, email)) return fail("email_taken", { email });
  const current = await findUserRecord(deps.db, project.id, userId);
  try {
    await deps.db.batch([
      updateUserStatement(deps.db, project.id, userId, { ...input.patch, isAnonymous: false }),
      ...(current
        ? upgradeTeamStatements(deps, project, current, { displayName: input.patch?.displayName ?? current.user.displayName, email })
        : []),
      insertContactChannelStatement(deps.db, {
        id: deps.random.uuid(),
        projectId: project.id,
        userId,
        type: "email",
        value: email,
        isVerified: input.emailVerified,
        isPrimary: true,
        usedForAuth: true,
        createdAt: deps.now(),
      }),
      // The same user, now signed up: an update (as in the reference), with how it happened.
      eventStatement(deps, project.id, "user.updated", { userId }, { fields: ["isAnonymous", "primaryEmail"], method: input.method }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) return fail("email_taken", { email });
    throw err;
  }
  return { ok: true };
}
