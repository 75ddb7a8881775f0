/**
 * Which `matches()` patterns a sign-up rule may use. CEL's `matches` runs JavaScript's backtracking
 * RegExp (as the reference does, backreferences included), which cannot be interrupted: a pattern
 * like `(a+)+$` or `a?a?a?…aaa` would take exponential time on a crafted email and stall the isolate
 * every project shares. So a pattern is bounded statically: short, no quantified group (star height
 * 1, no repeated alternation) and at most two quantifiers, two only when the pattern is anchored at
 * the start (`^`, no top-level `|`): one start position, so the worst case stays quadratic (about
 * 0.1 ms on MAX_SUBJECT_LENGTH characters; an unanchored `.*a.*b` is cubic, about 10 ms).
 */

export const MAX_PATTERN_LENGTH = 256;
export const MAX_QUANTIFIERS = 2;

/** Why the pattern is refused, or null when it is safe to run. A pattern that is not a valid regex is not refused here. */
export function unsafePatternReason(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `a matches() pattern may have at most ${MAX_PATTERN_LENGTH} characters`;
  let quantifiers = 0;
  let inClass = false;
  let depth = 0;
  let topLevelAlternation = false;
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
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if (ch === "|" && depth === 0) topLevelAlternation = true;
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
  if (quantifiers === MAX_QUANTIFIERS && (!pattern.startsWith("^") || topLevelAlternation))
    return `a matches() pattern with ${MAX_QUANTIFIERS} quantifiers must start with ^ (and have no top-level |): unanchored, it can take cubic time`;
  return null;
}
