/**
 * The first fields of the item and offer editors: the id (new entries only; it is the config key),
 * the display name and the customer type.
 */
import { CUSTOMER_TYPES, type CustomerType } from "@doorman/shared/wire-payments";
import type { FieldErrors } from "../../lib/focus-first-error";
import { TextField } from "../console-ui";
import { SelectField } from "./fields";
import { CUSTOMER_TYPE_LABELS, ID_HINT } from "./payments-config";

export function IdentityFields(props: {
  /** Prefix of the field ids (`<f>-id`, `<f>-name`, `<f>-customer-type`), as the form's error keys. */
  f: string;
  editing: boolean;
  labels: { id: string; name: string; customerType: string; customerTypeHint?: string };
  id: string;
  onId: (value: string) => void;
  displayName: string;
  onDisplayName: (value: string) => void;
  customerType: CustomerType;
  onCustomerType: (value: CustomerType) => void;
  errors: FieldErrors;
}) {
  const { f, labels, errors } = props;
  return (
    <>
      {props.editing ? null : (
        <TextField
          id={`${f}-id`}
          label={labels.id}
          value={props.id}
          onChange={(e) => props.onId(e.target.value)}
          error={errors[`${f}-id`]}
          hint={ID_HINT}
        />
      )}
      <TextField
        id={`${f}-name`}
        label={labels.name}
        value={props.displayName}
        onChange={(e) => props.onDisplayName(e.target.value)}
        error={errors[`${f}-name`]}
      />
      <SelectField
        id={`${f}-customer-type`}
        label={labels.customerType}
        value={props.customerType}
        onChange={(e) => props.onCustomerType(e.target.value as CustomerType)}
        hint={labels.customerTypeHint}
      >
        {CUSTOMER_TYPES.map((t) => (
          <option key={t} value={t}>
            {CUSTOMER_TYPE_LABELS[t]}
          </option>
        ))}
      </SelectField>
    </>
  );
}
