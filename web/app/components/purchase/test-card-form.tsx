/**
 * The test-mode checkout's card form: card number, expiry and CVC, checked here first (the first
 * wrong field gets focus), then paid through test-mode-purchase. No real card is ever charged:
 * the server accepts only the test card.
 */
import { type FormEvent, useRef, useState } from "react";
import { errorMessage } from "../../lib/project-context";
import { isCardDeclined } from "../../lib/purchase-api";
import { Alert, TextField, useAction } from "../console-ui";

export type CardFields = { cardNumber: string; expiry: string; cvc: string };
type Errors = Partial<Record<keyof CardFields, string>>;

const digits = (s: string) => s.replace(/[\s-]/g, "");

/** Field errors of a card form (empty when it can be sent). */
export function checkCard(card: CardFields, now = new Date()): Errors {
  const errors: Errors = {};
  if (!/^\d{12,19}$/.test(digits(card.cardNumber))) errors.cardNumber = "Enter the card number (12 to 19 digits).";
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(card.expiry.trim());
  if (!expiry) errors.expiry = "Enter the expiry date as MM/YY.";
  else {
    const end = new Date(2000 + Number(expiry[2]), Number(expiry[1]), 1);
    if (end <= now) errors.expiry = "This card has expired. Enter a future date.";
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) errors.cvc = "Enter the 3 or 4 digit security code.";
  return errors;
}

export function TestCardForm(props: {
  /** What the pay button says, e.g. "Pay $5.00". */
  payLabel: string;
  /** Checks the rest of the page (e.g. the quantity) first; false stops the payment (the caller focuses its field). */
  canPay: () => boolean;
  onPay: (cardNumber: string) => Promise<void>;
}) {
  const [card, setCard] = useState<CardFields>({ cardNumber: "", expiry: "", cvc: "" });
  const [errors, setErrors] = useState<Errors>({});
  const { busy, error: failure, setError: setFailure, run } = useAction();
  const refs = { cardNumber: useRef<HTMLInputElement>(null), expiry: useRef<HTMLInputElement>(null), cvc: useRef<HTMLInputElement>(null) };

  const set = (key: keyof CardFields) => (e: { target: { value: string } }) => setCard((c) => ({ ...c, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkCard(card);
    setErrors(found);
    setFailure(null);
    const first = (["cardNumber", "expiry", "cvc"] as const).find((k) => found[k]);
    if (first) {
      // One task later: the error text is rendered and described by the time focus lands.
      setTimeout(() => refs[first].current?.focus());
      return;
    }
    if (!props.canPay()) return;
    await run(() => props.onPay(digits(card.cardNumber)), {
      fallback: "The payment did not go through. Try again.",
      message: (e, fallback) => {
        const message = errorMessage(e, fallback);
        if (isCardDeclined(e)) {
          setErrors({ cardNumber: message });
          // After the re-render that enables the field again.
          setTimeout(() => refs.cardNumber.current?.focus());
          return null;
        }
        return message;
      },
    });
  };

  return (
    <form className="form purchase-card-form" onSubmit={submit} noValidate aria-label="Pay with a test card">
      <TextField
        id="card-number"
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        value={card.cardNumber}
        onChange={set("cardNumber")}
        error={errors.cardNumber}
        hint="Use the test card 4242 4242 4242 4242."
        inputRef={refs.cardNumber}
        disabled={busy}
      />
      <div className="purchase-card-row">
        <TextField
          id="card-expiry"
          label="Expiry (MM/YY)"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="12/34"
          value={card.expiry}
          onChange={set("expiry")}
          error={errors.expiry}
          inputRef={refs.expiry}
          disabled={busy}
        />
        <TextField
          id="card-cvc"
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          value={card.cvc}
          onChange={set("cvc")}
          error={errors.cvc}
          inputRef={refs.cvc}
          disabled={busy}
        />
      </div>
      <p className="muted purchase-hint">Any future expiry date and any three digits work in test mode. No money moves.</p>
      <Alert message={failure} focus />
      <button type="submit" className="btn purchase-pay" disabled={busy} aria-busy={busy}>
        {busy ? "Paying…" : props.payLabel}
      </button>
    </form>
  );
}
