/**
 * Passkeys in the browser: registering one for the signed-in user and signing in with one.
 * The server's WebAuthn options carry a sentinel RP ID (it cannot know which of the project's
 * domains the page is on); it is checked and replaced by the page's host name. Browser failures
 * become PASSKEY_WEBAUTHN_ERROR {message, code} values; nothing expected is thrown.
 */

import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from "@simplewebauthn/browser";
import { err, ok, type Result } from "../interface/result";
import { deviceHeaders, keepDeviceToken } from "../session/device-token";
import { KnownError, type KnownErrorCode } from "../shared/known-errors";
import type { AppCore } from "./app-core";
import { asResult } from "./email-auth";
import type { TokensJson } from "./wire-types";

/** The RP ID placeholder every passkey options object from the server carries. */
export const PASSKEY_RP_ID_SENTINEL = "THIS_VALUE_WILL_BE_REPLACED.example.com";

/** The browser WebAuthn error codes of PASSKEY_WEBAUTHN_ERROR (SPEC §8). */
export const PASSKEY_WEBAUTHN_ERROR_CODES = [
  "ERROR_CEREMONY_ABORTED",
  "ERROR_INVALID_DOMAIN",
  "ERROR_INVALID_RP_ID",
  "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED",
  "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT",
  "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT",
  "ERROR_AUTHENTICATOR_GENERAL_ERROR",
] as const;
export type PasskeyWebAuthnErrorCode = (typeof PASSKEY_WEBAUTHN_ERROR_CODES)[number];

type Initiated<T> = { options_json: T; code: string };

/** The page's host name: the RP ID a passkey is bound to. */
function pageHostname(): string {
  if (typeof window === "undefined") throw new Error("Passkeys need a browser (window.location.hostname is the RP ID).");
  return window.location.hostname;
}

/** Checks the server's sentinel and puts the page's host name in its place. */
function withRpId<T>(options: T, field: (o: T) => string | undefined, set: (o: T, id: string) => T): T {
  const found = field(options);
  if (found !== PASSKEY_RP_ID_SENTINEL)
    throw new Error(`Expected the RP ID from the server to be the sentinel ${PASSKEY_RP_ID_SENTINEL}, but found ${found}`);
  return set(options, pageHostname());
}

/**
 * The SPEC §8 code of a browser failure. simplewebauthn names most cases; a dismissed or timed-out
 * prompt (NotAllowedError/AbortError) is an aborted ceremony; anything else is a general error.
 */
export function webAuthnErrorCode(error: unknown): PasskeyWebAuthnErrorCode {
  const code = error instanceof WebAuthnError ? error.code : undefined;
  if (code && (PASSKEY_WEBAUTHN_ERROR_CODES as readonly string[]).includes(code)) return code as PasskeyWebAuthnErrorCode;
  const cause = error instanceof WebAuthnError ? error.cause : error;
  const name = cause instanceof Error ? cause.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return "ERROR_CEREMONY_ABORTED";
  if (name === "SecurityError") return "ERROR_INVALID_DOMAIN";
  return "ERROR_AUTHENTICATOR_GENERAL_ERROR";
}

/** A browser failure as a known error: WebAuthn/DOM errors → PASSKEY_WEBAUTHN_ERROR, others → `fallback`. */
function ceremonyError(error: unknown, fallback: KnownErrorCode): KnownError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof WebAuthnError || (typeof DOMException !== "undefined" && error instanceof DOMException))
    return new KnownError("PASSKEY_WEBAUTHN_ERROR", { message, code: webAuthnErrorCode(error) });
  return new KnownError(fallback, undefined, message || undefined);
}

/**
 * Registers a passkey for the signed-in user (replacing a previous one) and turns on passkey
 * sign-in for them.
 *
 * @example
 * const result = await user.registerPasskey();
 * if (result.status === "error") alert(result.error.message);
 */
export async function registerPasskey(app: AppCore): Promise<Result<undefined>> {
  const initiated = await asResult(() =>
    app._userRequest<Initiated<PublicKeyCredentialCreationOptionsJSON>>("/auth/passkey/initiate-passkey-registration", { body: {} }),
  );
  if (initiated.status === "error") return initiated;
  const optionsJSON = withRpId(
    initiated.data.options_json,
    (o) => o.rp?.id,
    (o, id) => ({ ...o, rp: { ...o.rp, id } }),
  );
  let credential: Awaited<ReturnType<typeof startRegistration>>;
  try {
    credential = await startRegistration({ optionsJSON });
  } catch (error) {
    return err(ceremonyError(error, "PASSKEY_REGISTRATION_FAILED"));
  }
  const registered = await asResult(() => app._userRequest("/auth/passkey/register", { body: { credential, code: initiated.data.code } }));
  await app._refreshUser();
  return registered.status === "error" ? registered : ok(undefined);
}

/**
 * Signs in with a passkey the authenticator offers (no email asked first) and stores the
 * session. Redirecting is the caller's part (see `StackClientApp.signInWithPasskey`).
 *
 * @example
 * const result = await signInWithPasskey(app);
 * if (result.status === "error" && result.error.code === "PASSKEY_WEBAUTHN_ERROR") console.log(result.error.details?.code);
 */
export async function signInWithPasskey(app: AppCore): Promise<Result<undefined>> {
  if (!app._session.store.persistent) throw new Error("A persistent token store is required to sign in (tokenStore must not be null).");
  const initiated = await asResult(() =>
    app._http.request<Initiated<PublicKeyCredentialRequestOptionsJSON>>("/auth/passkey/initiate-passkey-authentication", { body: {} }),
  );
  if (initiated.status === "error") return initiated;
  const optionsJSON = withRpId(
    initiated.data.options_json,
    (o) => o.rpId,
    (o, rpId) => ({ ...o, rpId }),
  );
  let authentication_response: Awaited<ReturnType<typeof startAuthentication>>;
  try {
    authentication_response = await startAuthentication({ optionsJSON });
  } catch (error) {
    return err(ceremonyError(error, "PASSKEY_AUTHENTICATION_FAILED"));
  }
  const signedIn = await asResult(() =>
    app._userRequest<TokensJson>("/auth/passkey/sign-in", {
      body: { authentication_response, code: initiated.data.code },
      headers: deviceHeaders(app._device),
    }),
  );
  if (signedIn.status === "error") return signedIn;
  keepDeviceToken(app._device, signedIn.data);
  app._session.setTokens({ accessToken: signedIn.data.access_token, refreshToken: signedIn.data.refresh_token });
  await app._refreshUser();
  return ok(undefined);
}
