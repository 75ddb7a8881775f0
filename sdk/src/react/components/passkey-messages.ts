/** Human wording for passkey outcomes (browser WebAuthn errors and the server's failures), from the catalogue. */
import type { MessageKey } from "../i18n/en";
import { englishT, type Translate } from "../i18n/translator";
import { messageOf } from "./code-messages";

type ErrorLike = { code?: string; details?: Record<string, unknown> | undefined; message?: string };

const WEBAUTHN_MESSAGES: Record<string, MessageKey> = {
  ERROR_CEREMONY_ABORTED: "passkey.ceremonyAborted",
  ERROR_INVALID_DOMAIN: "passkey.invalidDomain",
  ERROR_INVALID_RP_ID: "passkey.invalidRpId",
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "passkey.previouslyRegistered",
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: "passkey.noUserVerification",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: "passkey.noDiscoverable",
  ERROR_AUTHENTICATOR_GENERAL_ERROR: "passkey.authenticatorError",
};

/**
 * @example
 * setError(passkeyErrorMessage(result.error, "sign-in", t));
 */
export function passkeyErrorMessage(error: unknown, action: "sign-in" | "registration", t: Translate = englishT): string {
  const e = (typeof error === "object" && error ? error : {}) as ErrorLike;
  const fallback = () => messageOf(error, t("common.somethingWrong"));
  switch (e.code) {
    case "PASSKEY_WEBAUTHN_ERROR": {
      const key = WEBAUTHN_MESSAGES[String(e.details?.code)];
      return key ? t(key) : fallback();
    }
    case "PASSKEY_AUTHENTICATION_NOT_ENABLED":
      return t("passkey.notEnabled");
    case "PASSKEY_AUTHENTICATION_FAILED":
      return t("passkey.authFailed");
    case "PASSKEY_REGISTRATION_FAILED":
      return t("passkey.registrationFailed");
    case "VERIFICATION_CODE_EXPIRED":
    case "VERIFICATION_CODE_ALREADY_USED":
      return t(action === "sign-in" ? "passkey.signInTooSlow" : "passkey.registrationTooSlow");
    default:
      return fallback();
  }
}
