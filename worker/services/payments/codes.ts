/**
 * Purchase URLs (issue 15): `POST /payments/purchases/create-purchase-url` makes a code for one
 * customer and one offer (24 h, one purchase), and the purchase page (web, `/purchase/{code}`)
 * reads it back. The full code is `<project id>_<code>`; only the code's SHA-256 is stored.
 */
import type { CustomerType, InlineOffer, ValidatedCode } from "@doorman/shared/wire-payments";
import { sha256Hex } from "../../crypto/hash";
import { findPurchaseCode, insertPurchaseCode, listPurchasesOf, type PurchaseCodeRow } from "../../db/queries/payments";
import { findProjectById, type ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { isTrustedRedirectUrl } from "../hosted-pages/trust";
import { fail, type Problem } from "../result";
import { type OfferConfig, offerFromWire, offerToWire, type PaymentsConfig, productLineOf } from "./config";
import { type Customer, customerSince, readPaymentsConfig } from "./customers";
import { isOwned } from "./grants";
import { purchaseBlocker } from "./purchases";

/** A purchase code lasts 24 hours (wire-protocol.md: purchase codes 24 h). */
export const PURCHASE_CODE_TTL_MS = 24 * 3600 * 1000;

export type OfferChoice = { offerId?: string; inlineOffer?: InlineOffer };
export type OfferProblem = Problem<"offer_not_found" | "offer_choice_invalid">;

/** The offer a request names: a config offer by id, or an inline offer (server calls only). */
export function resolveOffer(
  payments: PaymentsConfig,
  choice: OfferChoice,
  isClient: boolean,
): { ok: true; offerId: string | null; offer: OfferConfig } | OfferProblem {
  if (choice.offerId !== undefined && choice.inlineOffer !== undefined)
    return fail("offer_choice_invalid", { message: "Cannot specify both product_id and product_inline!" });
  // An inline offer sets its own price: only the project's back end may do that, never a browser.
  if (choice.inlineOffer && isClient)
    return fail("offer_choice_invalid", {
      message:
        "Cannot specify product_inline when calling from client! Please call with a server API key, or use the product_id parameter.",
    });
  if (choice.offerId === undefined && choice.inlineOffer === undefined)
    return fail("offer_choice_invalid", { message: "Must specify either product_id or product_inline!" });
  if (choice.inlineOffer) {
    return { ok: true, offerId: null, offer: offerFromWire(choice.inlineOffer) };
  }
  const offerId = choice.offerId!;
  const offer = Object.hasOwn(payments.products, offerId) ? payments.products[offerId] : undefined;
  if (!offer) return fail("offer_not_found", { offerId, context: null });
  if (isClient && offer.serverOnly) return fail("offer_not_found", { offerId, context: "server_only" });
  return { ok: true, offerId, offer };
}

export type CreateUrlProblem =
  | OfferProblem
  | Problem<
      | "customer_not_found"
      | "offer_customer_type_mismatch"
      | "offer_already_owned"
      | "add_on_without_base"
      | "offer_not_for_sale"
      | "untrusted_url"
      | "new_purchases_blocked"
      | "payments_not_set_up"
    >;

/** Creates a purchase code and answers the purchase page's URL on `webOrigin`. */
export async function createPurchaseUrl(
  deps: Deps,
  project: ProjectRow,
  input: {
    customerType: CustomerType | undefined;
    customerId: string;
    choice: OfferChoice;
    returnUrl?: string;
    isClient: boolean;
    /** The server has Stripe: then the project needs its connected account, as for any live purchase. */
    stripeConfigured: boolean;
    webOrigin: string;
  },
): Promise<{ ok: true; url: string } | CreateUrlProblem> {
  const payments = readPaymentsConfig(project);
  if (payments.blockNewPurchases) return fail("new_purchases_blocked");
  if (input.stripeConfigured && !project.stripeAccountId) return fail("payments_not_set_up");
  const resolved = resolveOffer(payments, input.choice, input.isClient);
  if (!resolved.ok) return resolved;
  const { offerId, offer } = resolved;
  const customerType = input.customerType ?? offer.customerType;
  if (customerType !== offer.customerType)
    return fail("offer_customer_type_mismatch", {
      offerId,
      customerId: input.customerId,
      offerType: offer.customerType,
      actualType: customerType,
    });
  if (offer.prices === "include-by-default" || Object.keys(offer.prices).length === 0) return fail("offer_not_for_sale", { offerId });
  // The return URL is where the page sends the customer afterwards: only the project's own domains.
  if (input.returnUrl !== undefined && !(await isTrustedRedirectUrl(deps, project, input.returnUrl))) return fail("untrusted_url");
  const customer: Customer = { projectId: project.id, customerType, customerId: input.customerId };
  if ((await customerSince(deps, project, customer)) === null) return fail("customer_not_found", { customerId: input.customerId });
  const now = deps.now();
  const blocker = purchaseBlocker(offerId, offer, input.customerId, await listPurchasesOf(deps.db, customer), now);
  if (blocker && blocker.reason !== "price_not_found" && blocker.reason !== "code_used") return blocker;

  const code = deps.random.code();
  await insertPurchaseCode(deps.db, {
    codeHash: await sha256Hex(code),
    projectId: project.id,
    customerType,
    customerId: input.customerId,
    offerId,
    offer,
    returnUrl: input.returnUrl ?? null,
    createdAt: now,
    expiresAt: now + PURCHASE_CODE_TTL_MS,
    usedAt: null,
    purchaseId: null,
  });
  const url = new URL(`/purchase/${encodeURIComponent(`${project.id}_${code}`)}`, input.webOrigin);
  if (input.returnUrl) url.searchParams.set("return_url", input.returnUrl);
  return { ok: true, url: url.toString() };
}

export type PurchaseCode = Omit<PurchaseCodeRow, "offer" | "customerType"> & { offer: OfferConfig; customerType: CustomerType };
export type CodeProblem = Problem<"code_not_found" | "code_expired" | "code_used">;

/** The code of a full code (`<project id>_<code>`), with its project; unknown, expired and used codes are problems. */
export async function readPurchaseCode(
  deps: Deps,
  fullCode: string,
): Promise<{ ok: true; code: PurchaseCode; project: ProjectRow } | CodeProblem> {
  const cut = fullCode.indexOf("_");
  if (cut <= 0) return fail("code_not_found");
  const row = await findPurchaseCode(deps.db, await sha256Hex(fullCode.slice(cut + 1)));
  // The project id in the code must be the code's own: a code of one project never opens another's.
  if (!row || row.projectId !== fullCode.slice(0, cut)) return fail("code_not_found");
  if (row.usedAt !== null) return fail("code_used");
  if (row.expiresAt <= deps.now()) return fail("code_expired");
  const project = await findProjectById(deps.db, row.projectId);
  if (!project) return fail("code_not_found");
  return { ok: true, code: { ...row, offer: row.offer as OfferConfig, customerType: row.customerType as CustomerType }, project };
}

/** What the purchase page shows for a code (the reference's validate-code answer, plus Doorman's fields). */
export async function describePurchaseCode(deps: Deps, code: PurchaseCode, project: ProjectRow): Promise<ValidatedCode> {
  const payments = readPaymentsConfig(project);
  const now = deps.now();
  const owned = (await listPurchasesOf(deps.db, code)).filter((p) => isOwned(p, now));
  // The page is public to whoever holds the code: never the offer's server metadata.
  const offer = offerToWire(code.offer, "client");
  const groupId = productLineOf(code.offer);
  const conflicting = groupId
    ? owned
        .filter((p) => p.offerId !== null && p.offerId !== code.offerId && productLineOf(p.offer) === groupId)
        .map((p) => ({ product_id: p.offerId!, offer_id: p.offerId!, display_name: (p.offer as OfferConfig).displayName }))
    : [];
  return {
    product: offer,
    offer,
    offer_id: code.offerId,
    project_id: project.id,
    project_display_name: project.displayName,
    project_logo_url: project.logoUrl ?? null,
    customer_type: code.customerType,
    customer_id: code.customerId,
    stripe_account_id: project.stripeAccountId ?? null,
    already_bought_non_stackable: code.offerId !== null && !code.offer.stackable && owned.some((p) => p.offerId === code.offerId),
    conflicting_products: conflicting,
    conflicting_group_offers: conflicting,
    test_mode: payments.testMode,
    charges_enabled: project.stripeAccountId !== null,
    expires_at_millis: code.expiresAt,
  };
}
