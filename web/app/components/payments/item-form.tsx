/**
 * Create or edit an item of the payments config: id (new items only), display name, customer
 * type, and the default quantity every customer of the type holds, optionally granted again
 * every N days/weeks/months/years and expiring when repeated.
 */

import type { CustomerType, Interval } from "@doorman/shared/wire-payments";
import { useState } from "react";
import type { FieldErrors } from "../../lib/focus-first-error";
import { TextField } from "../console-ui";
import { ConfigEntryForm, useEntryForm } from "./config-entries";
import { IntervalField, intervalProblem, SelectField } from "./fields";
import { IdentityFields } from "./identity-fields";
import { type ItemConfig, idProblem } from "./payments-config";

export function ItemForm(props: {
  /** The id of the item being edited, or null for a new one. */
  itemId: string | null;
  initial: ItemConfig | null;
  takenIds: string[];
  onSave: (id: string, item: ItemConfig) => Promise<void>;
  onCancel: () => void;
}) {
  const init = props.initial;
  const [id, setId] = useState(props.itemId ?? "");
  const [displayName, setDisplayName] = useState(init?.displayName ?? "");
  const [customerType, setCustomerType] = useState<CustomerType>(init?.customerType ?? "user");
  const [quantity, setQuantity] = useState(String(init?.default?.quantity ?? 0));
  const initialRepeat = init?.default?.repeat;
  const [repeat, setRepeat] = useState<Interval | null>(initialRepeat && initialRepeat !== "never" ? initialRepeat : null);
  const [expires, setExpires] = useState<"never" | "when-repeated">(init?.default?.expires ?? "never");
  const { errors, busy, failure, submit: save } = useEntryForm();
  const editing = props.itemId !== null;
  const f = "item-form";

  const submit = () => {
    const found: FieldErrors = {};
    const badId = editing ? null : idProblem(id.trim(), props.takenIds, "item");
    if (badId) found[`${f}-id`] = badId;
    if (!displayName.trim()) found[`${f}-name`] = "Enter a display name.";
    const q = Number(quantity);
    if (quantity.trim() === "" || !Number.isInteger(q) || q < 0 || q > 1_000_000_000)
      found[`${f}-quantity`] = "Enter a whole number, 0 or more.";
    const badRepeat = intervalProblem(repeat);
    if (badRepeat) found[`${f}-repeat-count`] = badRepeat;
    const item: ItemConfig = {
      displayName: displayName.trim(),
      customerType,
      default: { quantity: q, ...(repeat ? { repeat, expires } : {}) },
    };
    return save(found, () => props.onSave(editing ? (props.itemId as string) : id.trim(), item), "Could not save the item.");
  };

  return (
    <ConfigEntryForm noun="item" entryId={props.itemId} busy={busy} failure={failure} onSubmit={submit} onCancel={props.onCancel}>
      <div className="payments-grid">
        <IdentityFields
          f={f}
          editing={editing}
          labels={{ id: "Item id", name: "Display name", customerType: "Customer type", customerTypeHint: "Who holds this item." }}
          id={id}
          onId={setId}
          displayName={displayName}
          onDisplayName={setDisplayName}
          customerType={customerType}
          onCustomerType={setCustomerType}
          errors={errors}
        />
        <TextField
          id={`${f}-quantity`}
          label="Default quantity"
          type="number"
          min={0}
          step={1}
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          error={errors[`${f}-quantity`]}
          hint="What every customer of this type holds without buying anything."
        />
        <IntervalField
          id={`${f}-repeat`}
          label="Default repeats"
          noneLabel="Never"
          value={repeat}
          onChange={setRepeat}
          error={errors[`${f}-repeat-count`]}
        />
        {repeat ? (
          <SelectField
            id={`${f}-expires`}
            label="Default expires"
            value={expires}
            onChange={(e) => setExpires(e.target.value as "never" | "when-repeated")}
          >
            <option value="never">Never (repeats add up)</option>
            <option value="when-repeated">When repeated (resets each time)</option>
          </SelectField>
        ) : null}
      </div>
    </ConfigEntryForm>
  );
}
