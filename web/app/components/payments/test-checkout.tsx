/**
 * "Open a test checkout" for one offer: the owner picks a customer of the offer's kind, and the
 * console creates a purchase URL for that customer and offer (the admin app's createCheckoutUrl:
 * POST /payments/purchases/create-purchase-url) and opens it, /purchase/{code}, in a new tab.
 */
import { useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { Alert, useAction } from "../console-ui";
import { CustomerPicker, customerSelector, type PickedCustomer } from "./customer-picker";
import type { OfferConfig } from "./payments-config";

const CUSTOMER_NOUN = { user: "User", team: "Team", custom: "Custom customer" } as const;

export function TestCheckout(props: {
  app: OwnedProject["app"];
  offerId: string;
  offer: OfferConfig;
  testMode: boolean;
  onClose: () => void;
}) {
  const { offer, offerId } = props;
  const [customer, setCustomer] = useState<PickedCustomer | null>(null);
  const [opened, setOpened] = useState<{ url: string; inTab: boolean } | null>(null);
  const { busy, error, setError, run } = useAction();
  const title = `Test checkout: ${offer.displayName}`;

  const open = async (who: PickedCustomer) => {
    setError(null);
    setOpened(null);
    // Opened now, inside the click, so no popup blocker stops it; it gets its address once the URL exists.
    const tab = window.open("", "_blank");
    // The purchase page must not reach back into the console (reverse tabnabbing): cut its opener.
    if (tab) tab.opener = null;
    await run(async () => {
      try {
        const url = await props.app.createCheckoutUrl({ ...customerSelector(who), offerId });
        if (tab) tab.location.href = url;
        setOpened({ url, inTab: tab !== null });
      } catch (e) {
        tab?.close();
        throw e;
      }
    }, "Could not create the purchase link.");
  };

  return (
    <section className="payments-editor test-checkout" aria-labelledby="test-checkout-title">
      <h3 id="test-checkout-title">{title}</h3>
      <p className="muted">
        {props.testMode
          ? "Payments are in test mode: pay with the card 4242 4242 4242 4242, no money moves."
          : "Payments are in live mode: this checkout goes through Stripe and charges the card."}{" "}
        The link buys {offerId} once, for the customer you choose, within 24 hours.
      </p>
      {customer ? (
        <div className="test-checkout-customer">
          <p>
            {CUSTOMER_NOUN[offer.customerType]}: <strong>{customer.label}</strong>{" "}
            <button type="button" className="btn btn-secondary btn-small" onClick={() => setCustomer(null)} disabled={busy}>
              Choose another
            </button>
          </p>
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => open(customer)} disabled={busy} aria-busy={busy}>
              {busy ? "Creating the link…" : "Open a test checkout"}
            </button>
            <button type="button" className="btn btn-secondary" onClick={props.onClose} disabled={busy}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <>
          <CustomerPicker app={props.app} idPrefix="test-checkout" only={offer.customerType} pickLabel="Choose" onPick={setCustomer} />
          <div className="form-actions">
            <button type="button" className="btn btn-secondary" onClick={props.onClose}>
              Close
            </button>
          </div>
        </>
      )}
      <Alert message={error} focus />
      {opened ? (
        <p role="status">
          {opened.inTab ? "Opened in a new tab: " : "Your browser blocked the new tab. Open the checkout: "}
          <a href={opened.url} target="_blank" rel="noopener noreferrer" data-testid="test-checkout-url">
            {opened.url}
          </a>
        </p>
      ) : null}
    </section>
  );
}
