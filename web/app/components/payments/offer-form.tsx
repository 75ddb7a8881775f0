/**
 * Create or edit an offer of the payments config: id (new offers only), name, customer type,
 * group, server only, stackable, free trial, its prices and the items it includes.
 */

import type { CustomerType, Interval } from "@doorman/shared/wire-payments";
import { useState } from "react";
import type { FieldErrors } from "../../lib/focus-first-error";
import { TextField } from "../console-ui";
import { ConfigEntryForm, useEntryForm } from "./config-entries";
import { IntervalField, intervalProblem } from "./fields";
import { IdentityFields } from "./identity-fields";
import {
  checkIncludedRows,
  checkPriceRows,
  type IncludedRow,
  IncludedRowFields,
  includedOfRows,
  includedRowsOf,
  type PriceRow,
  PriceRowFields,
  priceRowsOf,
  pricesOfRows,
  rowKey,
} from "./offer-rows";
import { CONFIG_ID, CUSTOMER_TYPE_LABELS, type ItemConfig, idProblem, type OfferConfig } from "./payments-config";

const newPrice = (first: boolean): PriceRow => ({
  key: rowKey(),
  id: first ? "default" : "",
  amount: "",
  currency: "USD",
  interval: null,
  kept: {},
});
const newIncluded = (): IncludedRow => ({ key: rowKey(), itemId: "", quantity: "1", repeat: null, expires: "never" });

export function OfferForm(props: {
  offerId: string | null;
  initial: OfferConfig | null;
  takenIds: string[];
  items: Record<string, ItemConfig>;
  groups: string[];
  /** `newGroup`: a group id not in the config yet (saved with the offer). */
  onSave: (id: string, offer: OfferConfig, newGroup: string | null) => Promise<void>;
  onCancel: () => void;
}) {
  const init = props.initial;
  const editing = props.offerId !== null;
  const [id, setId] = useState(props.offerId ?? "");
  const [displayName, setDisplayName] = useState(init?.displayName ?? "");
  const [customerType, setCustomerType] = useState<CustomerType>(init?.customerType ?? "user");
  const [groupId, setGroupId] = useState(init?.groupId ?? "");
  const [serverOnly, setServerOnly] = useState(init?.serverOnly ?? false);
  const [stackable, setStackable] = useState(init?.stackable ?? false);
  const [freeTrial, setFreeTrial] = useState<Interval | null>(init?.freeTrial ?? null);
  const [byDefault, setByDefault] = useState(init?.prices === "include-by-default");
  const [prices, setPrices] = useState<PriceRow[]>(() =>
    init && init.prices !== "include-by-default" ? priceRowsOf(init.prices) : [newPrice(true)],
  );
  const [included, setIncluded] = useState<IncludedRow[]>(() => (init ? includedRowsOf(init.includedItems) : []));
  const { errors, busy, failure, submit: save } = useEntryForm();
  const f = "offer-form";
  const itemChoices = Object.entries(props.items).filter(([, item]) => item.customerType === customerType);

  const submit = () => {
    const found: FieldErrors = {};
    const badId = editing ? null : idProblem(id.trim(), props.takenIds, "offer");
    if (badId) found[`${f}-id`] = badId;
    if (!displayName.trim()) found[`${f}-name`] = "Enter a name.";
    const group = groupId.trim();
    if (group && !CONFIG_ID.test(group)) found[`${f}-group`] = "Use letters, digits, _ and - only.";
    const badTrial = intervalProblem(freeTrial);
    if (badTrial) found[`${f}-trial-count`] = badTrial;
    if (!byDefault) {
      if (prices.length === 0) found[`${f}-add-price`] = "Add at least one price.";
      checkPriceRows(prices, found);
    }
    checkIncludedRows(included, found);
    const offer: OfferConfig = {
      displayName: displayName.trim(),
      customerType,
      ...(group ? { groupId: group } : {}),
      ...(init?.isAddOnTo !== undefined ? { isAddOnTo: init.isAddOnTo } : {}),
      serverOnly,
      stackable,
      ...(freeTrial ? { freeTrial } : {}),
      prices: byDefault ? "include-by-default" : pricesOfRows(prices),
      includedItems: includedOfRows(included),
    };
    return save(
      found,
      () => props.onSave(editing ? (props.offerId as string) : id.trim(), offer, group && !props.groups.includes(group) ? group : null),
      "Could not save the offer.",
    );
  };

  return (
    <ConfigEntryForm noun="offer" entryId={props.offerId} busy={busy} failure={failure} onSubmit={submit} onCancel={props.onCancel}>
      <div className="payments-grid">
        <IdentityFields
          f={f}
          editing={editing}
          labels={{ id: "Offer id", name: "Offer name", customerType: "Sold to" }}
          id={id}
          onId={setId}
          displayName={displayName}
          onDisplayName={setDisplayName}
          customerType={customerType}
          onCustomerType={setCustomerType}
          errors={errors}
        />
        <TextField
          id={`${f}-group`}
          label="Group (optional)"
          list={`${f}-groups`}
          value={groupId}
          onChange={(e) => setGroupId(e.target.value)}
          error={errors[`${f}-group`]}
          hint="A customer holds one offer of a group at a time (plans)."
        />
        <datalist id={`${f}-groups`}>
          {props.groups.map((g) => (
            <option key={g} value={g} />
          ))}
        </datalist>
        <IntervalField
          id={`${f}-trial`}
          label="Free trial"
          noneLabel="No free trial"
          value={freeTrial}
          onChange={setFreeTrial}
          error={errors[`${f}-trial-count`]}
        />
      </div>
      <div className="payments-checks">
        <label className="choice">
          <input type="checkbox" checked={stackable} onChange={(e) => setStackable(e.target.checked)} /> Stackable (can be bought more than
          once)
        </label>
        <label className="choice">
          <input type="checkbox" checked={serverOnly} onChange={(e) => setServerOnly(e.target.checked)} /> Server only (clients cannot start
          its checkout)
        </label>
        <label className="choice">
          <input type="checkbox" checked={byDefault} onChange={(e) => setByDefault(e.target.checked)} /> Included by default (free for every
          customer of its group; no prices)
        </label>
      </div>
      {byDefault ? null : (
        <section className="payments-rows" aria-label="Prices">
          <h4>Prices</h4>
          {prices.map((row, i) => (
            <PriceRowFields
              key={row.key}
              row={row}
              index={i}
              errors={errors}
              onChange={(next) => setPrices((all) => all.map((r) => (r.key === row.key ? next : r)))}
              onRemove={prices.length > 1 ? () => setPrices((all) => all.filter((r) => r.key !== row.key)) : null}
            />
          ))}
          <button
            id={`${f}-add-price`}
            type="button"
            className="btn btn-secondary btn-small"
            onClick={() => setPrices((all) => [...all, newPrice(false)])}
          >
            Add a price
          </button>
          {errors[`${f}-add-price`] ? <p className="field-error">{errors[`${f}-add-price`]}</p> : null}
        </section>
      )}
      <section className="payments-rows" aria-label="Included items">
        <h4>Included items</h4>
        {itemChoices.length === 0 ? (
          <p className="muted">No item for {CUSTOMER_TYPE_LABELS[customerType].toLowerCase()} yet: create one under Items first.</p>
        ) : null}
        {included.map((row, i) => (
          <IncludedRowFields
            key={row.key}
            row={row}
            index={i}
            items={itemChoices}
            errors={errors}
            onChange={(next) => setIncluded((all) => all.map((r) => (r.key === row.key ? next : r)))}
            onRemove={() => setIncluded((all) => all.filter((r) => r.key !== row.key))}
          />
        ))}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => setIncluded((all) => [...all, newIncluded()])}
          disabled={itemChoices.length === 0}
        >
          Include an item
        </button>
      </section>
    </ConfigEntryForm>
  );
}
