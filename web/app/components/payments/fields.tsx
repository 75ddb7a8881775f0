/**
 * Form pieces of the Payments page: a labelled select with its error, an interval field ("every
 * 3 months", or a "none" choice such as "Never" or "One-time"); focusing the first field in error
 * after a failed save is lib/focus-first-error.ts.
 */

import { INTERVAL_UNITS, type Interval, type IntervalUnit } from "@doorman/shared/wire-payments";
import type { ReactNode, SelectHTMLAttributes } from "react";

export function SelectField({
  id,
  label,
  error,
  hint,
  children,
  ...select
}: { id: string; label: ReactNode; error?: string | null; hint?: ReactNode; children: ReactNode } & Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "id"
>) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...select}>
        {children}
      </select>
      {hint ? (
        <p className="muted" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

const unitLabel = (unit: IntervalUnit, count: number) => (count === 1 ? unit : `${unit}s`);

/**
 * An interval or none: a unit select (first option: `noneLabel`) and, once a unit is chosen, how
 * many of it. The count's id is `${id}-count` (for its error).
 */
export function IntervalField(props: {
  id: string;
  label: string;
  noneLabel: string;
  value: Interval | null;
  onChange: (value: Interval | null) => void;
  error?: string | null;
  disabled?: boolean;
}) {
  const { id, value } = props;
  const count = value?.[0] ?? 1;
  return (
    <div className="field interval-field">
      <label htmlFor={`${id}-unit`}>{props.label}</label>
      <div className="interval-inputs">
        {value ? (
          <>
            <span aria-hidden="true">every</span>
            <input
              id={`${id}-count`}
              className="input interval-count"
              type="number"
              min={1}
              max={1000}
              step={1}
              value={Number.isNaN(count) ? "" : count}
              aria-label={`${props.label}: how many ${value[1]}s`}
              aria-invalid={props.error ? true : undefined}
              aria-describedby={props.error ? `${id}-error` : undefined}
              disabled={props.disabled}
              onChange={(e) => props.onChange([e.target.valueAsNumber, value[1]])}
            />
          </>
        ) : null}
        <select
          id={`${id}-unit`}
          className="input"
          value={value ? value[1] : ""}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value ? [count, e.target.value as IntervalUnit] : null)}
        >
          <option value="">{props.noneLabel}</option>
          {INTERVAL_UNITS.map((u) => (
            <option key={u} value={u}>
              {value ? unitLabel(u, count) : `every ${u}`}
            </option>
          ))}
        </select>
      </div>
      {props.error ? (
        <p className="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** Why an interval's count is not usable, or null. */
export function intervalProblem(value: Interval | null): string | null {
  if (!value) return null;
  return Number.isInteger(value[0]) && value[0] >= 1 && value[0] <= 1000 ? null : "Enter a whole number from 1 to 1000.";
}
