/**
 * The rules every new plaintext password meets (sign-up, set, update, reset, server create/update;
 * an imported `password_hash` is not a password and is not checked): 8 to 70 characters after NFKC
 * (ASVS 6.2.1), not one of the 10,000 most common passwords (6.2.4), and no context-specific word
 * (6.1.2, 6.2.11; the list is in docs/security.md § Password rules). No composition rules (6.2.5).
 * `vetNewPassword` adds the one remote rule after them: not in a breach corpus (6.2.12; services/protection/breached-passwords.ts).
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@doorman/shared/constants";
import { domainHost } from "@doorman/shared/domain-rules";
import { COMMON_PASSWORDS } from "../../crypto/common-passwords.generated";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { checkBreachedPassword } from "../protection/breached-passwords";
import { fail, type Problem } from "../result";

export type PasswordProblem = Problem<
  "password_too_short" | "password_too_long" | "password_too_common" | "password_has_context_word" | "password_breached"
>;

/** The product's own names, banned in every project. */
export const PRODUCT_WORDS = ["doorman", "stack", "stackauth"] as const;
/** Shorter words are not banned: a 3-letter project or user name would rule out too many passwords. */
export const MIN_CONTEXT_WORD_LENGTH = 4;

/** What a password is checked against: the project (name, trusted domains) and the account's email. */
export type PasswordContext = {
  project: { displayName: string; config: unknown };
  /** The account's primary email, when it has one. */
  email?: string | null;
};

export function checkPasswordLength(password: string): { ok: true } | PasswordProblem {
  const length = [...password.normalize("NFKC")].length;
  if (length < PASSWORD_MIN_LENGTH) return fail("password_too_short");
  if (length > PASSWORD_MAX_LENGTH) return fail("password_too_long");
  return { ok: true };
}

/** Every rule, in order: length, then the common list, then the context words. */
export function checkNewPassword(password: string, context: PasswordContext): { ok: true } | PasswordProblem {
  const length = checkPasswordLength(password);
  if (!length.ok) return length;
  // Case-insensitive, as typed otherwise: the stored hash still covers the exact NFKC password.
  const folded = password.normalize("NFKC").toLowerCase();
  if (isCommonPassword(folded)) return fail("password_too_common");
  const squashed = lettersAndDigits(folded);
  if (contextWords(context).some((word) => folded.includes(word) || squashed.includes(word))) return fail("password_has_context_word");
  return { ok: true };
}

/**
 * Every rule a new plaintext password meets, the cheap local ones first, then the breach check (one
 * bounded outbound call, at most once per request and password; it fails open). Runs before hashing.
 * `userId` is the account's (null at sign-up), for the event of a failed check.
 */
export async function vetNewPassword(
  deps: Deps,
  project: ProjectRow,
  password: string,
  context: { email?: string | null; userId: string | null },
): Promise<{ ok: true } | PasswordProblem> {
  const local = checkNewPassword(password, { project, email: context.email });
  if (!local.ok) return local;
  return checkBreachedPassword(deps, project, password, { userId: context.userId });
}

let common: Set<string> | null = null;

/** Is the (NFKC, lower-cased) password on the bundled list? The Set is built once per isolate (10,000 short strings). */
export function isCommonPassword(folded: string): boolean {
  common ??= new Set(COMMON_PASSWORDS.split("\n"));
  return common.has(folded);
}

/**
 * The banned words for one account, lower-cased, each of MIN_CONTEXT_WORD_LENGTH+ characters: the
 * product's names, the project's display name, the labels of its trusted domains and of the email's
 * domain (all but the top-level one), and the email's local part (without a `+tag`). Names count
 * whole, with only their letters and digits ("Acme Corp" is acmecorp): split into words, a project
 * called "Team Shop" would ban every password containing "team".
 */
export function contextWords(context: PasswordContext): string[] {
  const words = new Set<string>(PRODUCT_WORDS);
  words.add(lettersAndDigits(context.project.displayName.normalize("NFKC").toLowerCase()));
  for (const { domain } of readProjectConfig(context.project.config).domains) addHostWords(words, domainHost(domain));
  const email = context.email?.trim().toLowerCase();
  const at = email ? email.lastIndexOf("@") : -1;
  if (email && at > 0) {
    words.add(lettersAndDigits(email.slice(0, at).split("+")[0]!));
    addHostWords(words, email.slice(at + 1));
  }
  return [...words].filter((word) => [...word].length >= MIN_CONTEXT_WORD_LENGTH);
}

/** The labels of a host but its top-level one (`*.app.example.com` gives app, example); none for IP addresses. */
function addHostWords(words: Set<string>, host: string | null): void {
  if (!host || /^[\d.]+$/.test(host) || host.startsWith("[")) return;
  const labels = host.split(".").filter((label) => label && label !== "*");
  for (const label of labels.length > 1 ? labels.slice(0, -1) : labels) words.add(lettersAndDigits(label));
}

function lettersAndDigits(text: string): string {
  return text.replace(/[^\p{L}\p{N}]+/gu, "");
}
