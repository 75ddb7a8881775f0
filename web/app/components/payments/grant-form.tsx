/**
 * A manual quantity change for one customer's item (the console's grant): item, change (+ or -),
 * optional expiry and description, applied through the server item's increaseQuantity or
 * decreaseQuantity (a plain decrease: the quantity may go below zero).
 */
import { type FormEvent, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { type FieldErrors, focusFirstError } from "../../lib/focus-first-error";
import { formatCount } from "../../lib/format";
import { Alert, TextField, useAction } from "../console-ui";
import { customerSelector, type PickedCustomer } from "./customer-picker";
import { SelectField } from "./fields";

export function GrantForm(props: {
  app: OwnedProject["app"];
  customer: PickedCustomer;
  items: { id: string; displayName: string }[];
  onDone: (message: string) => Promise<void>;
}) {
  const [itemId, setItemId] = useState(props.items[0]?.id ?? "");
  const [delta, setDelta] = useState("");
  const [expiresAt, setExpiresAt] = useState("");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const { busy, error: failure, setError: setFailure, run } = useAction();
  const f = "grant";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors = {};
    if (!itemId) found[`${f}-item`] = "Choose an item.";
    const n = Number(delta);
    if (!delta.trim() || !Number.isInteger(n) || n === 0 || Math.abs(n) > 1_000_000_000)
      found[`${f}-delta`] = "Enter a whole number other than 0: positive adds, negative removes.";
    const expires = expiresAt ? new Date(expiresAt) : null;
    if (expires && (Number.isNaN(expires.getTime()) || expires.getTime() <= Date.now()))
      found[`${f}-expires`] = "Choose a time in the future.";
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return focusFirstError(found);
    await run(async () => {
      const item = await props.app.getItem({ ...customerSelector(props.customer), itemId });
      const options = { ...(expires ? { expiresAt: expires } : {}), ...(description.trim() ? { description: description.trim() } : {}) };
      if (n > 0) await item.increaseQuantity(n, options);
      else await item.decreaseQuantity(-n, options);
      setDelta("");
      setDescription("");
      setExpiresAt("");
      await props.onDone(
        `${n > 0 ? "Added" : "Removed"} ${formatCount(Math.abs(n))} ${itemId} ${n > 0 ? "to" : "from"} ${props.customer.label}.`,
      );
    }, "Could not change the quantity.");
  };

  if (props.items.length === 0) return <p className="muted">No item for this kind of customer yet: create one under Items to grant it.</p>;

  return (
    <form className="form payments-editor" onSubmit={submit} noValidate aria-label="Change a quantity">
      <h4>Change a quantity</h4>
      <div className="payments-grid">
        <SelectField id={`${f}-item`} label="Item" value={itemId} onChange={(e) => setItemId(e.target.value)} error={errors[`${f}-item`]}>
          {props.items.map((i) => (
            <option key={i.id} value={i.id}>
              {i.displayName} ({i.id})
            </option>
          ))}
        </SelectField>
        <TextField
          id={`${f}-delta`}
          label="Change (+/-)"
          type="number"
          step={1}
          placeholder="100 or -5"
          value={delta}
          onChange={(e) => setDelta(e.target.value)}
          error={errors[`${f}-delta`]}
        />
        <TextField
          id={`${f}-expires`}
          label="Expires (optional)"
          type="datetime-local"
          value={expiresAt}
          onChange={(e) => setExpiresAt(e.target.value)}
          error={errors[`${f}-expires`]}
          hint="The change drops out of the quantity at this time."
        />
        <TextField
          id={`${f}-description`}
          label="Description (optional)"
          maxLength={500}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          hint="Kept in the ledger, e.g. “Goodwill credit”."
        />
      </div>
      <Alert message={failure} focus />
      <div className="form-actions">
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Applying…" : "Apply change"}
        </button>
      </div>
    </form>
  );
}
