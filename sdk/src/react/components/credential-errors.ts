/**
 * Client-side checks for the password forms and the mapping of known errors from the
 * API onto form fields (so each message shows next to the input it is about). The messages come
 * from the catalogue (`t`, English by default); the server's own messages are kept as they are.
 */
import { RateLimitedError } from "../../interface/http";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../shared/constants";
import { englishT, type Translate } from "../i18n/translator";
import { botChallengeMessage, emailLinkErrorMessage } from "./code-messages";

export type CredentialField = "email" | "password" | "passwordRepeat";
export type FormErrors = Partial<Record<CredentialField | "form", string>>;

// Deliberately loose: the server is the authority; this only catches obvious typos.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checks the email field; returns the message or null. */
export function checkEmail(email: string, t: Translate = englishT): string | null {
  if (!email.trim()) return t("form.enterEmail");
  if (!EMAIL_SHAPE.test(email.trim())) return t("form.invalidEmail");
  return null;
}

/** Checks a new password against the wire limits (8 to 70 characters). */
export function checkNewPassword(password: string, t: Translate = englishT): string | null {
  if (!password) return t("form.enterPassword");
  if (password.length < PASSWORD_MIN_LENGTH) return t("form.passwordTooShort", { min: PASSWORD_MIN_LENGTH });
  if (password.length > PASSWORD_MAX_LENGTH) return t("form.passwordTooLong", { max: PASSWORD_MAX_LENGTH });
  return null;
}

/** The hint under a new-password field ("8 to 70 characters."). */
export function passwordHint(t: Translate = englishT): string {
  return t("common.passwordHint", { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });
}

/** Which field a known error code belongs to ("form" = the whole form). */
const FIELD_OF_CODE: Record<string, CredentialField | "form"> = {
  USER_EMAIL_ALREADY_EXISTS: "email",
  PASSWORD_TOO_SHORT: "password",
  PASSWORD_TOO_LONG: "password",
  PASSWORD_REQUIREMENTS_NOT_MET: "password",
  PASSWORD_CONFIRMATION_MISMATCH: "passwordRepeat",
};

/** The message of a password error the components translate themselves (the server's is English), else null. */
export function localizedPasswordError(code: string, t: Translate = englishT): string | null {
  // Breached passwords (issue 29): the range API lists the new password.
  return code === "PASSWORD_BREACHED" ? t("form.passwordBreached") : null;
}

/** Turns an error from the SDK (known error or not) into form errors. */
export function errorsFromResult(error: unknown, t: Translate = englishT): FormErrors {
  const code = typeof error === "object" && error && "code" in error ? String((error as { code: unknown }).code) : "";
  const message = error instanceof Error && error.message ? error.message : t("common.somethingWrong");
  // "Too many attempts, try again in N s" (N from Retry-After): not a connection problem.
  if (error instanceof RateLimitedError) return { form: error.message };
  if (!code) return { form: t("form.connectionProblem") };
  // Sign-up sends a verification link to a handler page of this site.
  if (code === "REDIRECT_URL_NOT_WHITELISTED") return { form: emailLinkErrorMessage(error, "", t) };
  const localized = localizedPasswordError(code, t);
  if (localized) return { password: localized };
  const challenge = botChallengeMessage(error, t);
  if (challenge) return { form: challenge };

  return { [FIELD_OF_CODE[code] ?? "form"]: message };
}

/** True when there is at least one message. */
export function hasErrors(errors: FormErrors): boolean {
  return Object.values(errors).some(Boolean);
}
