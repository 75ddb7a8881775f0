/**
 * A project's connected Stripe account (Connect, issue 15): onboarding (create the account once,
 * then a hosted onboarding link), its state for the console, and account sessions for Stripe's
 * embedded components. The account id lives on the project (projects.stripe_account_id).
 */
import { findProjectById } from "../../db/queries/projects";
import { setStripeAccountIfUnset } from "../../db/queries/stripe";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { askProvider, type PaymentsProvider, type ProviderAccount } from "./stripe-provider";

export type ConnectProblem = Problem<"stripe_account_missing" | "stripe_account_project_not_found" | "stripe_unavailable">;

/**
 * Creates the project's connected account if it has none (one per project, even when two setups
 * race: the idempotency key and the compare-and-set keep the first), and answers an onboarding URL.
 */
export async function startStripeOnboarding(
  deps: Deps,
  provider: PaymentsProvider,
  input: { projectId: string; returnUrl: string },
): Promise<{ ok: true; url: string; accountId: string } | ConnectProblem> {
  const project = await findProjectById(deps.db, input.projectId);
  if (!project) return fail("stripe_account_project_not_found");
  let accountId = project.stripeAccountId;
  if (!accountId) {
    const created = await askProvider(() =>
      provider.createAccount({ projectId: project.id, idempotencyKey: `doorman-connect-account-${project.id}` }),
    );
    if (!created.ok) return created;
    accountId = (await setStripeAccountIfUnset(deps.db, project.id, created.value.id)) ?? created.value.id;
  }
  const id = accountId;
  const link = await askProvider(() =>
    provider.createOnboardingLink({ accountId: id, refreshUrl: input.returnUrl, returnUrl: input.returnUrl }),
  );
  if (!link.ok) return link;
  return { ok: true, url: link.value.url, accountId };
}

/** The connected account's state; stripe_account_missing before onboarding started (or when Stripe no longer knows it). */
export async function readStripeAccountInfo(
  deps: Deps,
  provider: PaymentsProvider | null,
  projectId: string,
): Promise<{ ok: true; account: ProviderAccount } | ConnectProblem> {
  const project = await findProjectById(deps.db, projectId);
  if (!project) return fail("stripe_account_project_not_found");
  if (!project.stripeAccountId || !provider) return fail("stripe_account_missing");
  const { stripeAccountId } = project;
  const account = await askProvider(() => provider.readAccount(stripeAccountId));
  if (!account.ok) return account;
  return account.value ? { ok: true, account: account.value } : fail("stripe_account_missing");
}

/** A client secret for the embedded components of the project's connected account. */
export async function createStripeAccountSession(
  deps: Deps,
  provider: PaymentsProvider,
  projectId: string,
): Promise<{ ok: true; clientSecret: string } | ConnectProblem> {
  const project = await findProjectById(deps.db, projectId);
  if (!project) return fail("stripe_account_project_not_found");
  if (!project.stripeAccountId) return fail("stripe_account_missing");
  const { stripeAccountId } = project;
  const session = await askProvider(() => provider.createAccountSession({ accountId: stripeAccountId }));
  if (!session.ok) return session;
  return { ok: true, clientSecret: session.value.clientSecret };
}
