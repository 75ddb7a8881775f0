/**
 * The test checkout (issue 15): a purchase code paid without money, from the purchase page (the
 * customer, with the test card) or from the console (an admin of the code's project). Either way
 * the purchase is recorded exactly as a paid checkout's, so the offer's items are granted.
 */
import { TEST_CARD_NUMBER } from "@doorman/shared/wire-payments";
import { listPurchasesOf } from "../../db/queries/payments";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { type CodeProblem, readPurchaseCode } from "./codes";
import { readPaymentsConfig } from "./customers";
import { checkPurchase, type PurchaseCheckProblem } from "./purchase-session";
import { completePurchase, type PurchaseProblem } from "./purchases";

/** Who pays: the customer on the purchase page (test mode only, the test card) or an admin of the code's project. */
export type TestModePayer = { type: "customer"; cardNumber: string } | { type: "admin"; projectId: string };

export type TestModePurchaseResult =
  | { ok: true; purchaseId: string }
  | CodeProblem
  | PurchaseProblem
  | PurchaseCheckProblem
  | Problem<
      | "purchase_code_project_mismatch"
      | "project_not_in_test_mode"
      | "test_mode_not_enabled"
      | "test_mode_in_production"
      | "test_card_declined"
      | "new_purchases_blocked"
    >;

/** Completes a purchase code's purchase in test mode (the purchase page's test card, or the console). */
export async function completeTestModePurchase(
  deps: Deps,
  input: { fullCode: string; priceId: string; quantity: number; payer: TestModePayer },
): Promise<TestModePurchaseResult> {
  const { payer } = input;
  const read = await readPurchaseCode(deps, input.fullCode);
  if (!read.ok) return read;
  const { code, project } = read;
  const payments = readPaymentsConfig(project);
  if (payer.type === "admin") {
    // The code must be this project's: an admin of one project completes no other project's purchase.
    if (project.id !== payer.projectId) return fail("purchase_code_project_mismatch");
    if (payments.blockNewPurchases) return fail("new_purchases_blocked");
    if (!payments.testMode) return fail("test_mode_not_enabled");
  } else {
    if (payments.blockNewPurchases) return fail("new_purchases_blocked");
    if (!payments.testMode) return fail("project_not_in_test_mode");
  }
  // The test card is public: on a production project it would hand out whatever the offer includes
  // (the console takes no test purchases there either: grant the offer instead).
  if (project.isProductionMode) return fail("test_mode_in_production");
  // Only Stripe's well-known test card pays: the test checkout must never look like it took a real card.
  if (payer.type === "customer" && payer.cardNumber.replace(/[\s-]/g, "") !== TEST_CARD_NUMBER) return fail("test_card_declined");
  const checked = checkPurchase(code, {
    priceId: input.priceId,
    quantity: input.quantity,
    owned: await listPurchasesOf(deps.db, code),
    now: deps.now(),
  });
  if (!checked.ok) return checked;
  const result = await completePurchase(deps, {
    project,
    code,
    customerType: code.customerType,
    customerId: code.customerId,
    offerId: code.offerId,
    offer: code.offer,
    priceId: input.priceId,
    quantity: input.quantity,
    source: "test_mode",
  });
  return result.ok ? { ok: true, purchaseId: result.purchaseId } : result;
}
