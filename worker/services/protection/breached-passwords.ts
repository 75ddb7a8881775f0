/**
 * The breached-password check (issue 29): is a new password in a k-anonymity range API of the Have I
 * Been Pwned format (PWNED_PASSWORDS_URL; the project's `doorman.protection.breachedPasswords.enabled`)?
 * Only the first 5 hex characters of the password's SHA-1 leave the worker; the answer lists the
 * suffixes of that range (`SUFFIX:COUNT` lines, padded with count-0 lines) and the match is made here.
 * A range API that is slow, down or answers nonsense FAILS OPEN (the password is accepted) and leaves a
 * `password.breach_check_failed` event with the reason. The caller runs it after the cheap local
 * rules and before hashing (services/auth/password-rules.ts `vetNewPassword`).
 */
import type { ProjectRow } from "../../db/queries/projects";
import { boundedFetch } from "../../lib/outbound-fetch";
import type { Deps } from "../deps";
import { eventStatement } from "../events";
import { renderedConfigOf } from "../project-config/cache";
import { fail, type Problem } from "../result";

export type BreachCheck = { ok: true } | Problem<"password_breached">;

/** Why a range query gave no answer (the event's `reason`). */
export type BreachCheckFailure = "timeout" | "network" | "too_large" | "redirect" | "status" | "unreadable";

type Outcome = { found: boolean } | { failed: BreachCheckFailure; status: number | null };

/** One SUFFIX:COUNT line of a range answer (35 hex characters: the SHA-1 minus its 5-character prefix). */
const LINE = /^[0-9A-F]{35}:\d+$/;

/**
 * Checks one new password for `userId` (null: a sign-up, no user yet). Answers ok when the deployment
 * has no range API or the project turned the check off: then no call is made at all.
 */
export async function checkBreachedPassword(
  deps: Deps,
  project: ProjectRow,
  password: string,
  subject: { userId: string | null },
): Promise<BreachCheck> {
  const url = deps.config.pwnedPasswordsUrl;
  if (!url || !renderedConfigOf(project).doorman.protection.breachedPasswords.enabled) return { ok: true };
  const hash = await sha1Hex(password);
  const memo = memoOf(deps, hash);
  memo.outcome ??= queryRange(deps, url, hash);
  const outcome = await memo.outcome;
  if ("found" in outcome) return outcome.found ? fail("password_breached") : { ok: true };
  // Fail open: an outage of a third party must not stop every sign-up; the owner sees it in the event log (once a request).
  if (!memo.failureRecorded) {
    memo.failureRecorded = true;
    await eventStatement(deps, project.id, "password.breach_check_failed", subject, {
      reason: outcome.failed,
      ...(outcome.status === null ? {} : { status: outcome.status }),
    });
  }
  return { ok: true };
}

/**
 * What this request learnt about a hash (a WeakMap on its deps, gone with the request): a sign-up or a
 * reset checks early, then the user write checks again, and the second asks no range API and records no
 * second event. Nothing derived from a password outlives the request (no isolate cache: docs/security.md).
 */
type Memo = { outcome?: Promise<Outcome>; failureRecorded: boolean };
const perRequest = new WeakMap<Deps, Map<string, Memo>>();

function memoOf(deps: Deps, hash: string): Memo {
  let memos = perRequest.get(deps);
  if (!memos) perRequest.set(deps, (memos = new Map()));
  let memo = memos.get(hash);
  if (!memo) memos.set(hash, (memo = { failureRecorded: false }));
  return memo;
}

/** Asks the range API about `hash`'s first 5 characters and looks for the rest in its answer. */
async function queryRange(deps: Deps, url: string, hash: string): Promise<Outcome> {
  const prefix = hash.slice(0, 5);
  // k-anonymity: only 5 of 40 hex characters leave; padding hides how many suffixes the range really has.
  const res = await boundedFetch(
    `${url}${prefix}`,
    { method: "GET", headers: { "Add-Padding": "true", "user-agent": "Doorman (breached-password check)" } },
    deps.config.outbound.pwnedPasswords,
  );
  if (!res.ok) return { failed: res.kind, status: res.status };
  if (res.status !== 200) return { failed: "status", status: res.status };
  const found = findSuffix(res.body, hash.slice(5));
  return found === null ? { failed: "unreadable", status: 200 } : { found };
}

/**
 * Is `suffix` in a range answer with a count above 0 (padding lines have count 0 and never match)?
 * null when the answer is not a range answer (empty, or its first line is not SUFFIX:COUNT: an HTML
 * error page, a captive portal). A search, not a parse of every line: ~20 µs for a padded answer
 * against ~550 µs for a regex per line (docs/security.md, "Breached passwords").
 */
export function findSuffix(body: string, suffix: string): boolean | null {
  const text = body.toUpperCase();
  const start = text.search(/\S/);
  if (start === -1) return null;
  const firstEnd = text.indexOf("\n", start);
  if (!LINE.test(text.slice(start, firstEnd === -1 ? undefined : firstEnd).trim())) return null;
  const needle = `${suffix}:`;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (at !== start && text[at - 1] !== "\n") continue; // only at the start of a line
    const count = /^\d+/.exec(text.slice(at + needle.length, at + needle.length + 16));
    return count ? Number(count[0]) > 0 : null;
  }
  return false;
}

/** SHA-1 of the NFKC password (the form its stored hash covers), as upper-case hex: the range API's alphabet. */
export async function sha1Hex(password: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(password.normalize("NFKC")));
  return [...new Uint8Array(digest)]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();
}
