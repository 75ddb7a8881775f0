/** Human wording for the outcomes of emailed codes (links and OTPs), from the catalogue (`t`, English by default). */
import { englishT, type Translate } from "../i18n/translator";

/** What an emailed code was for, as the messages name it. */
export type CodeSubject = "code" | "invitation" | "signInAttempt";

/** A message for a code error code from the API, or null when it is not a code error. */
export function codeErrorMessage(code: string | undefined, what: CodeSubject, t: Translate = englishT): string | null {
  switch (code) {
    case "VERIFICATION_CODE_NOT_FOUND":
      return t(`code.notFound.${what}`);
    case "VERIFICATION_CODE_EXPIRED":
      return t(`code.expired.${what}`);
    case "VERIFICATION_CODE_ALREADY_USED":
      return t(`code.used.${what}`);
    case "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED":
      return t(`code.maxAttempts.${what}`);
    default:
      return null;
  }
}

export function errorCodeOf(error: unknown): string | undefined {
  return typeof error === "object" && error && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

/** The error's own message (the server's text for a known error), else `fallback`. */
export function messageOf(error: unknown, fallback: string = englishT("common.somethingWrong")): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** The `code` query parameter of a handler page. */
export function codeFromSearch(search: string): string | null {
  const code = new URLSearchParams(search).get("code");
  return code && /^[a-zA-Z0-9]{45}$/.test(code) ? code : null;
}

/** Which emailed link a page handles (decides where "send a new one" goes). */
export type LinkKind = "email-verification" | "magic-link" | "password-reset";

/** What went wrong with an emailed link, and the one thing to do next. */
export type LinkProblem = { message: string; next: "sign-in" | "new-link" | "account-settings" | "retry" };

/**
 * A used, expired or unknown link in plain words with the next step; other failures (a 429 with
 * its wait time, a lost connection) keep their own message and offer a retry.
 *
 * @example
 * linkProblem(result.error, "magic-link", t); // { message: "This link was already used.", next: "sign-in" }
 */
export function linkProblem(error: unknown, kind: LinkKind, t: Translate = englishT): LinkProblem {
  switch (errorCodeOf(error)) {
    case "VERIFICATION_CODE_ALREADY_USED":
      if (kind === "email-verification") return { message: t("link.usedVerified"), next: "account-settings" };
      return { message: t("link.used"), next: "sign-in" };
    case "VERIFICATION_CODE_EXPIRED":
      return { message: t("link.expired"), next: "new-link" };
    case "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED":
      return { message: t("link.maxAttempts"), next: "new-link" };
    case "VERIFICATION_CODE_NOT_FOUND":
      return invalidLink(t);
    default:
      return { message: messageOf(error, t("common.somethingWrong")), next: "retry" };
  }
}

/** The problem of a link whose `code` is missing or malformed. */
export function invalidLink(t: Translate = englishT): LinkProblem {
  return { message: t("link.invalid"), next: "new-link" };
}

/** The host of a (possibly relative) callback URL, resolved against the current page. */
function hostOf(url: string): string {
  try {
    return new URL(url, typeof window === "undefined" ? "http://localhost" : window.location.href).host;
  } catch {
    return url;
  }
}

/**
 * The message for a failed action that sent a callback URL (an emailed link, sign-up's
 * verification link): an untrusted domain is named, with where its owner fixes it; anything else
 * keeps its own message (a 429 says how long to wait). A relative URL is on the current page's host.
 *
 * @example
 * setErrors({ form: emailLinkErrorMessage(result.error, app.urls.magicLinkCallback, t) });
 * // "shop.example is not a trusted domain of this project. If you run this site, add shop.example under Domains in the Doorman console."
 */
export function emailLinkErrorMessage(error: unknown, callbackUrl = "", t: Translate = englishT): string {
  if (errorCodeOf(error) === "REDIRECT_URL_NOT_WHITELISTED") return t("link.untrustedDomain", { host: hostOf(callbackUrl) });
  return botChallengeMessage(error, t) ?? messageOf(error, t("common.somethingWrong"));
}

/** The plain words for a refused bot challenge (Turnstile), or null for any other error. */
export function botChallengeMessage(error: unknown, t: Translate = englishT): string | null {
  const code = errorCodeOf(error);
  return code === "BOT_CHALLENGE_REQUIRED" || code === "BOT_CHALLENGE_FAILED" ? t("botChallenge.failed") : null;
}

/** Throws the error of a failed `Result` (for actions written as "run, then report"). */
export function throwIfFailed<T>(result: T): T {
  if (typeof result === "object" && result && "status" in result && result.status === "error" && "error" in result) throw result.error;
  return result;
}
