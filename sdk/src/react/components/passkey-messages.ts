/** Human wording for passkey outcomes (browser WebAuthn errors and the server's failures). */
import { messageOf } from "./code-messages";

type ErrorLike = { code?: string; details?: Record<string, unknown> | undefined; message?: string };

const WEBAUTHN_MESSAGES: Record<string, string> = {
  ERROR_CEREMONY_ABORTED: "The passkey prompt was closed or timed out. Try again when you are ready.",
  ERROR_INVALID_DOMAIN: "Passkeys do not work on this address (it must be a domain name such as localhost, not an IP).",
  ERROR_INVALID_RP_ID: "This passkey belongs to a different site.",
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "This device already holds a passkey for your account.",
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: "This device cannot verify you (no PIN or biometrics).",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: "This device cannot store passkeys.",
  ERROR_AUTHENTICATOR_GENERAL_ERROR: "Your device could not complete the passkey request.",
};

/**
 * @example
 * setError(passkeyErrorMessage(result.error, "sign-in"));
 */
export function passkeyErrorMessage(error: unknown, action: "sign-in" | "registration"): string {
  const e = (typeof error === "object" && error ? error : {}) as ErrorLike;
  switch (e.code) {
    case "PASSKEY_WEBAUTHN_ERROR":
      return WEBAUTHN_MESSAGES[String(e.details?.code)] ?? messageOf(error);
    case "PASSKEY_AUTHENTICATION_NOT_ENABLED":
      return "Passkeys are not enabled for this app.";
    case "PASSKEY_AUTHENTICATION_FAILED":
      return "That passkey could not sign you in. It may have been removed from your account.";
    case "PASSKEY_REGISTRATION_FAILED":
      return "The passkey could not be saved. Please try again.";
    case "VERIFICATION_CODE_EXPIRED":
    case "VERIFICATION_CODE_ALREADY_USED":
      return `The passkey ${action} took too long. Please try again.`;
    default:
      return messageOf(error);
  }
}
