/**
 * A user's linked provider accounts (/oauth-providers): list, read, update, unlink, and the
 * server's create. One provider identity signs in to one user of a project only; the partial
 * unique index on oauth_accounts decides races, these checks only give the early, clear answer.
 */
import type { BatchItem } from "drizzle-orm/batch";
import {
  deleteOAuthAccountOfUser,
  findOAuthAccountOfUser,
  findSignInOAuthAccount,
  insertOAuthAccountStatement,
  listOAuthAccounts,
  type OAuthAccountPatch,
  type OAuthAccountRow,
  type SealedProviderTokens,
  updateOAuthAccountOfUser,
  userHasSignInAccountOfProvider,
} from "../../db/queries/oauth-accounts";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord, isUniqueViolation } from "../../db/queries/users";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { isProviderId } from "./catalogue";

export type OAuthProviderProblem = Problem<
  | "user_not_found"
  | "linked_account_not_found"
  | "linked_provider_not_enabled"
  | "linked_provider_not_configured"
  | "linked_account_id_used_for_sign_in"
  | "linked_sign_in_provider_exists"
  | "linked_account_duplicate"
>;

/** A linked account with its provider type (the wire's `type`). */
export type LinkedAccount = { row: OAuthAccountRow; type: string };

/**
 * The wire `type` of a configured provider: Doorman's config names providers by their kind
 * ("github", "spotify"…), so the config id is the type. Null when the project no longer has it.
 */
export function providerTypeOf(project: ProjectRow, providerConfigId: string): string | null {
  const entry = readProjectConfig(project.config).oauth_providers.find((p) => p.id === providerConfigId);
  return entry ? entry.id : null;
}

/**
 * Linked accounts with their type. An account of a provider the project has since turned off is
 * still listed, read and unlinked (as the reference does): its config id names a known provider,
 * which is its type. It cannot sign in or hand out tokens while the provider is off.
 */
function linked(project: ProjectRow, rows: OAuthAccountRow[]): LinkedAccount[] {
  return rows.flatMap((row) => {
    const type = providerTypeOf(project, row.providerConfigId) ?? (isProviderId(row.providerConfigId) ? row.providerConfigId : null);
    return type ? [{ row, type }] : [];
  });
}

/** A user's linked accounts, or (userId undefined, server only) every account of the project. */
export async function listLinkedAccounts(
  deps: Deps,
  project: ProjectRow,
  userId: string | undefined,
): Promise<{ ok: true; accounts: LinkedAccount[] } | OAuthProviderProblem> {
  if (userId !== undefined && !(await findUserRecord(deps.db, project.id, userId))) return fail("user_not_found");
  return { ok: true, accounts: linked(project, await listOAuthAccounts(deps.db, project.id, userId)) };
}

export async function getLinkedAccount(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  id: string,
): Promise<{ ok: true; account: LinkedAccount } | OAuthProviderProblem> {
  if (!(await findUserRecord(deps.db, project.id, userId))) return fail("user_not_found");
  const row = await findOAuthAccountOfUser(deps.db, project.id, userId, id);
  const [account] = row ? linked(project, [row]) : [];
  return account ? { ok: true, account } : fail("linked_account_not_found");
}

/**
 * Early, readable answers for the sign-in rules. Each is also (or, for the one sign-in account per
 * provider and user, harmlessly not) enforced by the database, so a race only changes which
 * request gets the error.
 */
async function checkSignInRules(
  deps: Deps,
  projectId: string,
  userId: string,
  providerConfigId: string,
  accountId: string,
  exceptId?: string,
): Promise<OAuthProviderProblem | null> {
  const owner = await findSignInOAuthAccount(deps.db, projectId, providerConfigId, accountId);
  if (owner && owner.id !== exceptId) return fail("linked_account_id_used_for_sign_in");
  // Why no index for this one: a user with two sign-in identities of one provider is untidy, not unsafe.
  if (await userHasSignInAccountOfProvider(deps.db, projectId, userId, providerConfigId, exceptId))
    return fail("linked_sign_in_provider_exists");
  return null;
}

/** Which rule a unique violation on oauth_accounts broke: the same link twice, or a taken sign-in identity. */
function violationProblem(err: unknown): OAuthProviderProblem {
  const text = `${String(err)} ${String((err as { cause?: unknown })?.cause ?? "")}`;
  return /oauth_accounts\.user_id/.test(text) ? fail("linked_account_duplicate") : fail("linked_account_id_used_for_sign_in");
}

/** Is this error the database refusing a second sign-in link of one provider identity (or a duplicate link)? */
export function isOAuthAccountViolation(err: unknown): boolean {
  return isUniqueViolation(err) && /oauth_accounts\./.test(`${String(err)} ${String((err as { cause?: unknown })?.cause ?? "")}`);
}

export type NewLinkedAccount = {
  providerConfigId: string;
  accountId: string;
  email: string | null;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
  /** Sealed provider tokens, when the link comes from a real OAuth sign-in. */
  tokens?: SealedProviderTokens;
};

/** Insert statements for a user's new links (checked first), for a batch such as user creation. */
export async function linkStatements(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  links: NewLinkedAccount[],
): Promise<{ ok: true; statements: BatchItem<"sqlite">[]; ids: string[] } | OAuthProviderProblem> {
  const statements: BatchItem<"sqlite">[] = [];
  const ids: string[] = [];
  const signInProviders = new Set<string>();
  for (const link of links) {
    if (!providerTypeOf(project, link.providerConfigId)) return fail("linked_provider_not_enabled");
    if (link.allowSignIn) {
      if (signInProviders.has(link.providerConfigId)) return fail("linked_sign_in_provider_exists");
      signInProviders.add(link.providerConfigId);
      const problem = await checkSignInRules(deps, project.id, userId, link.providerConfigId, link.accountId);
      if (problem) return problem;
    }
    const id = deps.random.uuid();
    ids.push(id);
    statements.push(
      insertOAuthAccountStatement(deps.db, {
        id,
        projectId: project.id,
        userId,
        providerConfigId: link.providerConfigId,
        providerAccountId: link.accountId,
        email: link.email,
        allowSignIn: link.allowSignIn,
        allowConnectedAccounts: link.allowConnectedAccounts,
        ...(link.tokens ?? {}),
        createdAt: deps.now(),
      }),
    );
  }
  return { ok: true, statements, ids };
}

/** Server create: links a provider account to an existing user (no provider tokens: none were granted here). */
export async function createLinkedAccount(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  link: NewLinkedAccount,
): Promise<{ ok: true; account: LinkedAccount } | OAuthProviderProblem> {
  if (!providerTypeOf(project, link.providerConfigId))
    return fail("linked_provider_not_configured", { providerConfigId: link.providerConfigId });
  if (!(await findUserRecord(deps.db, project.id, userId))) return fail("user_not_found");
  const prepared = await linkStatements(deps, project, userId, [link]);
  if (!prepared.ok) return prepared;
  try {
    await deps.db.batch(prepared.statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (err) {
    // The partial unique index decides two concurrent links of one identity: exactly one wins.
    if (isUniqueViolation(err)) return violationProblem(err);
    throw err;
  }
  return getLinkedAccount(deps, project, userId, prepared.ids[0]!);
}

export type LinkedAccountUpdate = { allowSignIn?: boolean; allowConnectedAccounts?: boolean; email?: string | null; accountId?: string };

export async function updateLinkedAccount(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  id: string,
  update: LinkedAccountUpdate,
): Promise<{ ok: true; account: LinkedAccount } | OAuthProviderProblem> {
  const current = await getLinkedAccount(deps, project, userId, id);
  if (!current.ok) return current;
  const { row } = current.account;
  const accountId = update.accountId ?? row.providerAccountId;
  const allowSignIn = update.allowSignIn ?? row.allowSignIn;
  if (allowSignIn && (!row.allowSignIn || accountId !== row.providerAccountId)) {
    const problem = await checkSignInRules(deps, project.id, userId, row.providerConfigId, accountId, row.id);
    if (problem) return problem;
  }
  const patch: OAuthAccountPatch = {};
  if (update.allowSignIn !== undefined) patch.allowSignIn = update.allowSignIn;
  if (update.allowConnectedAccounts !== undefined) patch.allowConnectedAccounts = update.allowConnectedAccounts;
  if (update.email !== undefined) patch.email = update.email;
  if (update.accountId !== undefined) patch.providerAccountId = update.accountId;
  if (Object.keys(patch).length === 0) return current;
  try {
    const updated = await updateOAuthAccountOfUser(deps.db, project.id, userId, id, patch);
    if (!updated) return fail("linked_account_not_found");
    return { ok: true, account: { row: updated, type: current.account.type } };
  } catch (err) {
    if (isUniqueViolation(err)) return violationProblem(err);
    throw err;
  }
}

/** Unlinks the account; its sealed provider tokens go with the row. */
export async function removeLinkedAccount(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  id: string,
): Promise<{ ok: true } | OAuthProviderProblem> {
  if (!(await findUserRecord(deps.db, project.id, userId))) return fail("user_not_found");
  return (await deleteOAuthAccountOfUser(deps.db, project.id, userId, id)) ? { ok: true } : fail("linked_account_not_found");
}
