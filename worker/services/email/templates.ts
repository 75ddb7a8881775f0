/**
 * The shapes of a built-in email: its kind, the values a sending flow hands it, and the rendered
 * message. The bodies are TSX templates (services/email/defaults.ts, or the project's edited
 * ones), rendered by services/email/built-in.ts; this file keeps what delivery and the log need.
 */
import type { BuiltInEmailKind } from "./defaults";

export type TemplateKind = BuiltInEmailKind;

export type TemplateVars = {
  /** The action link (with its code), for the kinds that have one. */
  link?: string;
  otp?: string;
  teamDisplayName?: string;
  userDisplayName?: string | null;
  /** new_sign_in: the device (user agent), where from (country) and when. */
  device?: string;
  location?: string;
  time?: string;
  /** payment_receipt and payment_failed: what was bought, how many, the amount ("USD 5.00") and Stripe's links. */
  productName?: string;
  quantity?: number;
  amount?: string;
  receiptLink?: string;
  invoiceUrl?: string;
  failureReason?: string;
};

/**
 * A rendered message. `secrets` marks the values that grant access (the emailed code, the OTP,
 * a link without a code): the email log stores the message with exactly these redacted.
 * `headers` are extra message headers (List-Unsubscribe).
 */
export type RenderedEmail = {
  subject: string;
  html: string;
  text: string;
  secrets?: string[];
  headers?: Record<string, string>;
  /** A built-in email whose project template failed was rendered from the built-in one: why the project's failed. */
  fallbackError?: string;
};

/**
 * The secret values of a template's variables: the link's `code` (the link itself stays readable
 * in the log, with the code redacted) and the OTP. A link without a code is secret as a whole.
 */
export function secretValuesOf(vars: TemplateVars): string[] {
  if (!vars.link) return vars.otp ? [vars.otp] : [];
  let code: string | null = null;
  try {
    code = new URL(vars.link).searchParams.get("code");
  } catch {
    code = null;
  }
  return [code ?? vars.link, ...(vars.otp ? [vars.otp] : [])].filter((s) => s.length > 0);
}
