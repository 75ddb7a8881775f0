/**
 * What the purchase page shows of an offer: its prices (a picker when there are several), the
 * quantity of a stackable offer, what it includes, and the total to pay.
 */
import type { InlineOffer, Interval } from "@doorman/shared/wire-payments";
import { formatCount, formatFreeTrial, formatInterval, formatMoney, formatRepeat, multiplyAmount, priceAmounts } from "../../lib/format";

export type WirePrice = InlineOffer["prices"][string];

/** The amount shown and charged for a price: its first currency (USD when it has one). */
export function mainAmount(price: WirePrice): { currency: string; amount: string } | null {
  return priceAmounts(price as Record<string, unknown>)[0] ?? null;
}

/** "$5.00", "$9.99 per month", with the free trial of the price or the offer. */
export function PriceText({ price, offerTrial }: { price: WirePrice; offerTrial?: Interval }) {
  const main = mainAmount(price);
  const trial = price.free_trial ?? offerTrial;
  return (
    <span className="purchase-price">
      <strong>{main ? formatMoney(main.amount, main.currency) : "Free"}</strong>{" "}
      <span className="muted">{price.interval ? formatInterval(price.interval) : "one-time"}</span>
      {trial ? <span className="badge purchase-trial">{formatFreeTrial(trial)}</span> : null}
    </span>
  );
}

/** The prices as radio buttons (several) or as one line (one). */
export function PricePicker(props: {
  prices: [string, WirePrice][];
  offerTrial?: Interval;
  value: string;
  onChange: (priceId: string) => void;
  disabled?: boolean;
}) {
  if (props.prices.length === 1) {
    const [, price] = props.prices[0]!;
    return (
      <p className="purchase-single-price">
        <PriceText price={price} offerTrial={props.offerTrial} />
      </p>
    );
  }
  return (
    <fieldset className="choice-group purchase-prices">
      <legend>Choose a price</legend>
      {props.prices.map(([id, price]) => (
        <label key={id} className="purchase-price-option">
          <input
            type="radio"
            name="price"
            value={id}
            checked={props.value === id}
            disabled={props.disabled}
            onChange={() => props.onChange(id)}
          />
          <PriceText price={price} offerTrial={props.offerTrial} />
        </label>
      ))}
    </fieldset>
  );
}

/** "100 credits", "100 credits every month" for each included item. */
export function IncludedItems({ items, quantity }: { items: InlineOffer["included_items"]; quantity: number }) {
  const entries = Object.entries(items);
  if (entries.length === 0) return null;
  return (
    <section className="purchase-included" aria-labelledby="purchase-included-title">
      <h2 id="purchase-included-title">What's included</h2>
      <ul>
        {entries.map(([id, item]) => {
          const repeat = formatRepeat(item.repeat);
          return (
            <li key={id}>
              <strong>{formatCount(item.quantity * quantity)}</strong> {id.replace(/[_-]+/g, " ")}
              {repeat ? <span className="muted"> {repeat}</span> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** "Total: $15.00 per month" for the chosen price and quantity. */
export function TotalLine({ price, quantity }: { price: WirePrice; quantity: number }) {
  const main = mainAmount(price);
  if (!main) return null;
  const trial = price.free_trial;
  return (
    <p className="purchase-total">
      <span>{trial ? "After the free trial" : "Total"}</span>
      <strong data-testid="purchase-total">
        {formatMoney(multiplyAmount(main.amount, quantity), main.currency)}
        {price.interval ? ` ${formatInterval(price.interval)}` : ""}
      </strong>
    </p>
  );
}
