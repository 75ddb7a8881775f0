/**
 * Which payment methods a project's checkouts offer (GET/PATCH /internal/payments/method-configs):
 * the connected Stripe account's payment method configuration, read and changed through the
 * provider. Only the methods Doorman knows by name are shown or changed.
 */
import { findProjectById } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { askProvider, type PaymentsProvider, type ProviderMethodConfig, type ProviderPaymentMethod } from "./stripe-provider";

/** The payment methods the console can show and switch, with their display names (the reference's list and wording). */
export const PAYMENT_METHOD_NAMES = {
  card: "Credit/Debit Card",
  cartes_bancaires: "Cartes Bancaires",
  apple_pay: "Apple Pay",
  google_pay: "Google Pay",
  link: "Link",
  amazon_pay: "Amazon Pay",
  cashapp: "Cash App",
  klarna: "Klarna",
  affirm: "Affirm",
  afterpay_clearpay: "Afterpay / Clearpay",
  zip: "Zip",
  ideal: "iDEAL",
  bancontact: "Bancontact",
  eps: "EPS",
  p24: "Przelewy24",
  blik: "BLIK",
  alipay: "Alipay",
  wechat_pay: "WeChat Pay",
  sepa_debit: "SEPA Direct Debit",
  bacs_debit: "Bacs Direct Debit",
  acss_debit: "ACSS Debit",
  us_bank_account: "US Bank Account",
  multibanco: "Multibanco",
  customer_balance: "Customer Balance",
} as const;

export type PaymentMethodId = keyof typeof PAYMENT_METHOD_NAMES;
export const PAYMENT_METHOD_IDS = Object.keys(PAYMENT_METHOD_NAMES) as [PaymentMethodId, ...PaymentMethodId[]];

export type NamedPaymentMethod = ProviderPaymentMethod & { name: string };

type MethodConfigProblem = Problem<
  | "stripe_account_missing"
  | "stripe_account_project_not_found"
  | "stripe_not_configured"
  | "stripe_unavailable"
  | "payment_method_config_not_found"
>;

const isKnown = (id: string): id is PaymentMethodId => Object.hasOwn(PAYMENT_METHOD_NAMES, id);

/** The configuration checkouts use: the platform's (Connect) when there is one, else the account's default. */
function inUse(configs: ProviderMethodConfig[]): ProviderMethodConfig | undefined {
  return configs.find((c) => c.fromPlatform) ?? configs.find((c) => c.isDefault);
}

/** The project's connected account id, or the problem that stops a method-config call before it reaches Stripe. */
async function accountOf(deps: Deps, provider: PaymentsProvider | null, projectId: string) {
  const project = await findProjectById(deps.db, projectId);
  if (!project) return fail("stripe_account_project_not_found");
  if (!project.stripeAccountId) return fail("stripe_account_missing");
  if (!provider) return fail("stripe_not_configured");
  return { ok: true as const, provider, accountId: project.stripeAccountId };
}

/** The configuration in use and its known methods, available ones first, then by name. */
export async function readPaymentMethods(
  deps: Deps,
  provider: PaymentsProvider | null,
  projectId: string,
): Promise<{ ok: true; configId: string; methods: NamedPaymentMethod[] } | MethodConfigProblem> {
  const account = await accountOf(deps, provider, projectId);
  if (!account.ok) return account;
  const configs = await askProvider(() => account.provider.listMethodConfigs(account.accountId));
  if (!configs.ok) return configs;
  const config = inUse(configs.value);
  if (!config) return fail("payment_method_config_not_found", { configId: null });
  const methods = config.methods
    .filter((m) => isKnown(m.id))
    .map((m) => ({ ...m, name: PAYMENT_METHOD_NAMES[m.id as PaymentMethodId] }))
    .sort((a, b) => Number(b.available) - Number(a.available) || a.name.localeCompare(b.name, "en"));
  return { ok: true, configId: config.id, methods };
}

/** Turns methods of one of the account's configurations on or off (nothing to change answers at once). */
export async function updatePaymentMethods(
  deps: Deps,
  provider: PaymentsProvider | null,
  input: { projectId: string; configId: string; preferences: Partial<Record<PaymentMethodId, "on" | "off">> },
): Promise<{ ok: true } | MethodConfigProblem> {
  const preferences = Object.fromEntries(Object.entries(input.preferences).filter(([, v]) => v !== undefined)) as Record<
    string,
    "on" | "off"
  >;
  if (Object.keys(preferences).length === 0) return { ok: true };
  const account = await accountOf(deps, provider, input.projectId);
  if (!account.ok) return account;
  // The Stripe-Account header scopes the change: a configuration id of another account is not found, never changed.
  const updated = await askProvider(() =>
    account.provider.updateMethodConfig({ accountId: account.accountId, configId: input.configId, preferences }),
  );
  if (!updated.ok) return updated;
  return updated.value ? { ok: true } : fail("payment_method_config_not_found", { configId: input.configId });
}
