/**
 * The second factor in the client: when a sign-in answers MULTI_FACTOR_AUTHENTICATION_REQUIRED,
 * the attempt code goes to sessionStorage and the app goes to the mfa page, which finishes the
 * sign-in with a TOTP.
 */
import type { KnownError } from "../shared/known-errors";

export const MFA_ATTEMPT_STORAGE_KEY = "stack-mfa-attempt-code";
const MFA_ENROLL_STORAGE_KEY = "doorman-mfa-enroll";

function storage(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** True (and the attempt code stored) when the error asks for the second factor. */
export function rememberMfaAttempt(error: KnownError): boolean {
  if (error.code !== "MULTI_FACTOR_AUTHENTICATION_REQUIRED") return false;
  const code = error.details?.attempt_code;
  if (typeof code === "string") storage()?.setItem(MFA_ATTEMPT_STORAGE_KEY, code);
  // Doorman: the project requires a second factor and the user has none: the mfa page shows the TOTP set-up;
  // or the user's second factor is a passkey: the mfa page asks for a passkey sign-in instead.
  const next = error.details?.passkey_required === true ? "passkey" : error.details?.enrollment_required === true ? "1" : "";
  storage()?.setItem(MFA_ENROLL_STORAGE_KEY, next);
  return true;
}

/** Whether the waiting sign-in can only be finished by signing in with the user's passkey (Doorman, required second factor). */
export function storedMfaPasskeyRequired(): boolean {
  return storage()?.getItem(MFA_ENROLL_STORAGE_KEY) === "passkey";
}

/** Whether the waiting sign-in must first enrol TOTP (`app.enrollMfa`) rather than enter a code. */
export function storedMfaEnrollment(): boolean {
  return storage()?.getItem(MFA_ENROLL_STORAGE_KEY) === "1";
}

export function storedMfaAttempt(): string | null {
  return storage()?.getItem(MFA_ATTEMPT_STORAGE_KEY) ?? null;
}

export function forgetMfaAttempt(): void {
  storage()?.removeItem(MFA_ATTEMPT_STORAGE_KEY);
  storage()?.removeItem(MFA_ENROLL_STORAGE_KEY);
}

/** base64 of raw bytes (the wire's totp_secret_base64). */
export function bytesToBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}
