/**
 * Which `matches()` patterns a sign-up rule may use. CEL's `matches` runs JavaScript's backtracking
 * RegExp (as the reference does, backreferences included), which cannot be interrupted: a pattern
 * like `(a+)+$` or `a?a?a?…aaa` would take exponential time on a crafted email and stall the isolate
 * every project shares. So a pattern is bounded statically: short, no quantified group (star height
 * 1, no repeated alternation) and at most two quantifiers, which keeps the worst case polynomial and
 * small on a subject of at most MAX_SUBJECT_LENGTH characters.
 */

export const MAX_PATTERN_LENGTH = 256;
export const MAX_QUANTIFIERS = 2;

/** Why the pattern is refused, or null when it is safe to run. A pattern that is not a valid regex is not refused here. */
export function unsafePatternReason(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `a matches() pattern may have at most ${MAX_PATTERN_LENGTH} characters`;
  let quantifiers = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\") {
      i++; // an escaped character is a literal (or a class such as \d)
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      continue;
    }
    const isQuantifier = ch === "*" || ch === "+" || ch === "?" || (ch === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)));
    if (!isQuantifier) continue;
    const prev = pattern[i - 1];
    // `?` right after a group opener is a group modifier ((?:, (?=, (?<name>), after a quantifier it makes it lazy.
    if (ch === "?" && (prev === "(" || prev === "*" || prev === "+" || prev === "?" || prev === "}")) continue;
    if (prev === ")") return "a matches() pattern may not repeat a group (nested repetition can take exponential time)";
    quantifiers++;
    if (quantifiers > MAX_QUANTIFIERS) return `a matches() pattern may have at most ${MAX_QUANTIFIERS} quantifiers (*, +, ?, {n,m})`;
    if (ch === "{") i = pattern.indexOf("}", i);
  }
  return null;
}
