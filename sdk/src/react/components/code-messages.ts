/** Human wording for the outcomes of emailed codes (links and OTPs). */

/** A message for a code error code from the API, or null when it is not a code error. */
export function codeErrorMessage(code: string | undefined, what = "link"): string | null {
  switch (code) {
    case "VERIFICATION_CODE_NOT_FOUND":
      return what === "code" ? "That code is not right. Check the email and try again." : `This ${what} is not valid. Ask for a new one.`;
    case "VERIFICATION_CODE_EXPIRED":
      return `This ${what} has expired. Ask for a new one.`;
    case "VERIFICATION_CODE_ALREADY_USED":
      return `This ${what} has already been used.`;
    case "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED":
      return `Too many attempts with this ${what}. Ask for a new one.`;
    default:
      return null;
  }
}

export function errorCodeOf(error: unknown): string | undefined {
  return typeof error === "object" && error && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

export function messageOf(error: unknown, fallback = "Something went wrong. Please try again."): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** The `code` query parameter of a handler page. */
export function codeFromSearch(search: string): string | null {
  const code = new URLSearchParams(search).get("code");
  return code && /^[a-zA-Z0-9]{45}$/.test(code) ? code : null;
}
