/**
 * The repeated rows of the offer editor: prices (id, amount and currency, one-time or every N
 * units) and included items (item, quantity, repeat, expiry), with their conversions from and to
 * the config.
 */
import { CURRENCIES, CURRENCY_CODES, type Currency, type Interval } from "@doorman/shared/wire-payments";
import type { FieldErrors } from "../../lib/focus-first-error";
import { formatMoney } from "../../lib/format";
import { TextField } from "../console-ui";
import { IntervalField, intervalProblem, SelectField } from "./fields";
import { CONFIG_ID, type IncludedItemConfig, type ItemConfig, type PriceConfig } from "./payments-config";

export type PriceRow = {
  key: number;
  id: string;
  amount: string;
  currency: Currency;
  interval: Interval | null;
  /** What the editor does not show but keeps: amounts in other currencies, the price's own trial and server-only flag. */
  kept: Omit<PriceConfig, "interval">;
};

export type IncludedRow = {
  key: number;
  itemId: string;
  quantity: string;
  repeat: Interval | null;
  expires: "never" | "when-purchase-expires" | "when-repeated";
};

let nextKey = 1;
export const rowKey = () => nextKey++;

export function priceRowsOf(prices: Record<string, PriceConfig>): PriceRow[] {
  return Object.entries(prices).map(([id, p]) => {
    const currency = CURRENCY_CODES.find((c) => p[c] !== undefined) ?? "USD";
    const { interval, [currency]: amount, ...kept } = p;
    return { key: rowKey(), id, amount: amount ?? "", currency, interval: interval ?? null, kept };
  });
}

export function includedRowsOf(items: Record<string, IncludedItemConfig>): IncludedRow[] {
  return Object.entries(items).map(([itemId, i]) => ({
    key: rowKey(),
    itemId,
    quantity: String(i.quantity),
    repeat: i.repeat && i.repeat !== "never" ? i.repeat : null,
    expires: i.expires ?? "never",
  }));
}

const AMOUNT = /^(0|[1-9]\d{0,9})(\.\d{1,2})?$/;

/** Field errors of the price rows (ids `offer-price-<key>-…`). */
export function checkPriceRows(rows: PriceRow[], found: FieldErrors): void {
  const seen = new Set<string>();
  for (const row of rows) {
    const at = `offer-price-${row.key}`;
    const id = row.id.trim();
    if (!CONFIG_ID.test(id)) found[`${at}-id`] = "Use letters, digits, _ and - only.";
    else if (seen.has(id)) found[`${at}-id`] = "Two prices have this id.";
    seen.add(id);
    const amount = row.amount.trim();
    if (!AMOUNT.test(amount)) found[`${at}-amount`] = 'Enter an amount such as "5.00".';
    else if (CURRENCIES[row.currency] === 0 && amount.includes(".")) found[`${at}-amount`] = `${row.currency} has no cents.`;
    const badInterval = intervalProblem(row.interval);
    if (badInterval) found[`${at}-interval-count`] = badInterval;
  }
}

export function pricesOfRows(rows: PriceRow[]): Record<string, PriceConfig> {
  return Object.fromEntries(
    rows.map((r) => [
      r.id.trim(),
      { ...r.kept, [r.currency]: r.amount.trim(), ...(r.interval ? { interval: r.interval } : {}) } as PriceConfig,
    ]),
  );
}

/** Field errors of the included item rows (ids `offer-item-<key>-…`). */
export function checkIncludedRows(rows: IncludedRow[], found: FieldErrors): void {
  const seen = new Set<string>();
  for (const row of rows) {
    const at = `offer-item-${row.key}`;
    if (!row.itemId) found[`${at}-item`] = "Choose an item.";
    else if (seen.has(row.itemId)) found[`${at}-item`] = "This item is already included above.";
    seen.add(row.itemId);
    const q = Number(row.quantity);
    if (row.quantity.trim() === "" || !Number.isInteger(q) || q < 0) found[`${at}-quantity`] = "Enter a whole number, 0 or more.";
    const badRepeat = intervalProblem(row.repeat);
    if (badRepeat) found[`${at}-repeat-count`] = badRepeat;
  }
}

export function includedOfRows(rows: IncludedRow[]): Record<string, IncludedItemConfig> {
  return Object.fromEntries(
    rows.map((r) => [
      r.itemId,
      { quantity: Number(r.quantity), ...(r.repeat ? { repeat: r.repeat } : {}), ...(r.expires !== "never" ? { expires: r.expires } : {}) },
    ]),
  );
}

export function PriceRowFields(props: {
  row: PriceRow;
  index: number;
  errors: FieldErrors;
  onChange: (row: PriceRow) => void;
  onRemove: (() => void) | null;
}) {
  const { row, errors } = props;
  const at = `offer-price-${row.key}`;
  const n = props.index + 1;
  const others = CURRENCY_CODES.filter((c) => c !== row.currency && row.kept[c] !== undefined);
  return (
    <fieldset className="payments-row">
      <legend>Price {n}</legend>
      <div className="payments-grid">
        <TextField
          id={`${at}-id`}
          label="Price id"
          value={row.id}
          onChange={(e) => props.onChange({ ...row, id: e.target.value })}
          error={errors[`${at}-id`]}
        />
        <TextField
          id={`${at}-amount`}
          label="Amount"
          inputMode="decimal"
          placeholder="5.00"
          value={row.amount}
          onChange={(e) => props.onChange({ ...row, amount: e.target.value })}
          error={errors[`${at}-amount`]}
        />
        <SelectField
          id={`${at}-currency`}
          label="Currency"
          value={row.currency}
          onChange={(e) => props.onChange({ ...row, currency: e.target.value as Currency })}
        >
          {CURRENCY_CODES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </SelectField>
        <IntervalField
          id={`${at}-interval`}
          label="Billing"
          noneLabel="One-time"
          value={row.interval}
          onChange={(interval) => props.onChange({ ...row, interval })}
          error={errors[`${at}-interval-count`]}
        />
      </div>
      {others.length > 0 ? (
        <p className="muted">
          Also priced in {others.map((c) => formatMoney(row.kept[c] as string, c)).join(", ")} (kept as set through the API).
        </p>
      ) : null}
      {props.onRemove ? (
        <button type="button" className="btn btn-secondary btn-small" onClick={props.onRemove}>
          Remove price {n}
        </button>
      ) : null}
    </fieldset>
  );
}

export function IncludedRowFields(props: {
  row: IncludedRow;
  index: number;
  items: [string, ItemConfig][];
  errors: FieldErrors;
  onChange: (row: IncludedRow) => void;
  onRemove: () => void;
}) {
  const { row, errors } = props;
  const at = `offer-item-${row.key}`;
  const n = props.index + 1;
  return (
    <fieldset className="payments-row">
      <legend>Included item {n}</legend>
      <div className="payments-grid">
        <SelectField
          id={`${at}-item`}
          label="Item"
          value={row.itemId}
          onChange={(e) => props.onChange({ ...row, itemId: e.target.value })}
          error={errors[`${at}-item`]}
        >
          <option value="">Choose an item</option>
          {props.items.map(([id, item]) => (
            <option key={id} value={id}>
              {item.displayName} ({id})
            </option>
          ))}
        </SelectField>
        <TextField
          id={`${at}-quantity`}
          label="Quantity"
          type="number"
          min={0}
          step={1}
          value={row.quantity}
          onChange={(e) => props.onChange({ ...row, quantity: e.target.value })}
          error={errors[`${at}-quantity`]}
        />
        <IntervalField
          id={`${at}-repeat`}
          label="Repeats"
          noneLabel="Never"
          value={row.repeat}
          onChange={(repeat) => props.onChange({ ...row, repeat })}
          error={errors[`${at}-repeat-count`]}
        />
        <SelectField
          id={`${at}-expires`}
          label="Expires"
          value={row.expires}
          onChange={(e) => props.onChange({ ...row, expires: e.target.value as IncludedRow["expires"] })}
        >
          <option value="never">Never</option>
          <option value="when-purchase-expires">When the purchase ends</option>
          <option value="when-repeated">When repeated</option>
        </SelectField>
      </div>
      <button type="button" className="btn btn-secondary btn-small" onClick={props.onRemove}>
        Remove included item {n}
      </button>
    </fieldset>
  );
}
