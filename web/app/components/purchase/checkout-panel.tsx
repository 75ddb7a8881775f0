/**
 * The offer behind a valid purchase code and how to pay for it: the price picker, the quantity of
 * a stackable offer, what is included, the total, then the test card form (test mode) or the
 * "Continue to payment" button to Stripe Checkout (live mode). Shows "already yours" for a
 * non-stackable offer the customer owns.
 */
import { useRef, useState } from "react";
import { formatMoney, multiplyAmount } from "../../lib/format";
import { payInTestMode, startPurchaseSession, type ValidatedCode } from "../../lib/purchase-api";
import { Alert, useAction } from "../console-ui";
import { IncludedItems, mainAmount, PricePicker, TotalLine } from "./offer-details";
import { PurchaseSuccess } from "./purchase-notices";
import { TestCardForm } from "./test-card-form";

const MAX_QUANTITY = 1000;

export function CheckoutPanel({ code, fullCode, returnUrl }: { code: ValidatedCode; fullCode: string; returnUrl: string | null }) {
  const offer = code.offer;
  const prices = Object.entries(offer.prices);
  const [priceId, setPriceId] = useState(prices[0]?.[0] ?? "");
  const [quantityText, setQuantityText] = useState("1");
  const [paid, setPaid] = useState(false);
  const { busy: liveBusy, error: liveError, run } = useAction();
  const quantityRef = useRef<HTMLInputElement>(null);

  const quantity = Number(quantityText);
  const quantityOk = Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY;
  const price = offer.prices[priceId];
  const origin = typeof window === "undefined" ? "http://localhost" : window.location.origin;

  if (paid)
    return (
      <PurchaseSuccess
        offerName={offer.display_name}
        projectName={code.project_display_name}
        returnUrl={returnUrl}
        testMode={code.test_mode}
      />
    );

  /** The quantity, or null after focusing the field with its error. */
  const checkedQuantity = (): number | null => {
    if (quantityOk) return quantity;
    setTimeout(() => quantityRef.current?.focus());
    return null;
  };

  const payTest = async (cardNumber: string) => {
    await payInTestMode({ origin, fullCode, priceId, quantity, cardNumber });
    setPaid(true);
  };

  const payLive = async () => {
    const q = checkedQuantity();
    if (q === null) return;
    await run(async () => {
      const session = await startPurchaseSession({ origin, fullCode, priceId, quantity: q });
      window.location.assign(session.url);
      // The browser is leaving for Stripe's checkout: the button stays busy until the page goes.
      await new Promise<never>(() => {});
    }, "Could not start the payment. Try again.");
  };

  const main = price ? mainAmount(price) : null;
  const payLabel = main && quantityOk ? `Pay ${formatMoney(multiplyAmount(main.amount, quantity), main.currency)}` : "Pay";
  const conflicts = [...code.conflicting_group_offers, ...code.conflicting_products];

  return (
    <section className="panel purchase-card" aria-labelledby="purchase-offer-title">
      <h1 id="purchase-offer-title" className="purchase-title">
        {offer.display_name}
      </h1>
      {prices.length === 0 ? (
        <p className="muted">This offer has no price to pay: there is nothing to buy here.</p>
      ) : (
        <PricePicker prices={prices} offerTrial={offer.free_trial} value={priceId} onChange={setPriceId} />
      )}
      {offer.stackable && prices.length > 0 && !code.already_bought_non_stackable ? (
        <div className="field purchase-quantity">
          <label htmlFor="purchase-quantity">Quantity</label>
          <input
            id="purchase-quantity"
            ref={quantityRef}
            className="input"
            type="number"
            min={1}
            max={MAX_QUANTITY}
            step={1}
            value={quantityText}
            onChange={(e) => setQuantityText(e.target.value)}
            aria-invalid={quantityOk ? undefined : true}
            aria-describedby={quantityOk ? undefined : "purchase-quantity-error"}
          />
          {quantityOk ? null : (
            <p className="field-error" id="purchase-quantity-error">
              Enter a quantity from 1 to 1000.
            </p>
          )}
        </div>
      ) : null}
      <IncludedItems items={offer.included_items} quantity={quantityOk ? quantity : 1} />
      {code.already_bought_non_stackable ? (
        <p className="warning purchase-owned" role="note">
          You already own {offer.display_name}. There is nothing more to buy.
        </p>
      ) : prices.length === 0 || !price ? null : (
        <>
          {conflicts.length > 0 ? (
            <p className="warning" role="note">
              Buying this replaces {conflicts.map((c) => c.display_name).join(", ")}.
            </p>
          ) : null}
          <TotalLine price={price} quantity={quantityOk ? quantity : 1} />
          {code.test_mode ? (
            <TestCardForm payLabel={payLabel} canPay={() => checkedQuantity() !== null} onPay={payTest} />
          ) : (
            <div className="form">
              {code.charges_enabled ? null : (
                <p className="warning" role="note">
                  {code.project_display_name} cannot take payments yet. Try again later.
                </p>
              )}
              <Alert message={liveError} focus />
              <button
                type="button"
                className="btn purchase-pay"
                onClick={payLive}
                disabled={liveBusy || !code.charges_enabled}
                aria-busy={liveBusy}
              >
                {liveBusy ? "Opening the payment page…" : "Continue to payment"}
              </button>
              <p className="muted purchase-hint">You will pay on a secure Stripe page, then come back here.</p>
            </div>
          )}
        </>
      )}
    </section>
  );
}
